/**
 * Snapshot tests in the esbuild style: a decoded scene dumped as readable JSON — node tree with
 * transforms and extras, counts, and for every mesh, skin and animation the counts and digests of
 * its arrays — compared as text with a file committed under `tests/snapshots/`. A change in a
 * decoder shows up as a readable diff of what changed (a transform, an extras field, the digest of
 * one attribute), not as a differing binary.
 *
 * Update after an intended change, then review the diff:
 *
 * ```sh
 * deno test --frozen --allow-read --allow-write tests/snapshots_test.ts -- --update
 * git diff tests/snapshots/
 * ```
 *
 * @module
 */
import { fail } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Accessor, Document } from "@gltf-transform/core";
import { sha256Hex } from "../../runtime/canonical.ts";
import { describeScene } from "../../runtime/inspect.ts";
import type { JsonValue } from "../../runtime/node.ts";

const SNAPSHOT_DIR = fileURLToPath(new URL("../snapshots/", import.meta.url));

/** True when the test run was asked to rewrite snapshots (`-- --update`). */
export const UPDATING: boolean = Deno.args.includes("--update");

/** Count, element type and a short digest of an accessor's array. */
function accessorSummary(accessor: Accessor | null): JsonValue {
  if (!accessor) return null;
  const array = accessor.getArray();
  const bytes = array ? new Uint8Array(array.buffer, array.byteOffset, array.byteLength) : new Uint8Array();
  return `${accessor.getCount()} × ${accessor.getType()} ${sha256Hex(bytes).slice(0, 16)}`;
}

/** The readable dump of a scene that snapshots compare. */
export function sceneSnapshot(doc: Document): JsonValue {
  const root = doc.getRoot();
  const meshes = root.listMeshes().map((mesh) => ({
    name: mesh.getName(),
    primitives: mesh.listPrimitives().map((prim) => ({
      mode: prim.getMode(),
      material: prim.getMaterial()?.getName() ?? null,
      indices: accessorSummary(prim.getIndices()),
      attributes: Object.fromEntries(
        prim.listSemantics().sort().map((
          semantic,
        ) => [semantic, accessorSummary(prim.getAttribute(semantic))]),
      ),
      targets: prim.listTargets().length,
    })),
  }));
  const skins = root.listSkins().map((skin) => ({
    name: skin.getName(),
    joints: skin.listJoints().map((joint) => joint.getName()),
    inverseBindMatrices: accessorSummary(skin.getInverseBindMatrices()),
  }));
  const animations = root.listAnimations().map((animation) => ({
    name: animation.getName(),
    channels: animation.listChannels().map((channel) => {
      const sampler = channel.getSampler();
      return {
        target: `${channel.getTargetNode()?.getName() ?? "?"}.${channel.getTargetPath()}`,
        input: accessorSummary(sampler?.getInput() ?? null),
        output: accessorSummary(sampler?.getOutput() ?? null),
      };
    }),
  }));
  const materials = root.listMaterials().map((m) => m.getName());
  const textures = root.listTextures().map((t) =>
    `${t.getName()} ${t.getMimeType()} ${sha256Hex(t.getImage() ?? new Uint8Array()).slice(0, 16)}`
  );
  // The description's textures are listed below, with digests of their images.
  const { textures: _described, animations: _clips, ...description } = describeScene(doc);
  return {
    ...description as unknown as Record<string, JsonValue>,
    meshes,
    skins,
    animations,
    materials,
    textures,
  } as JsonValue;
}

/**
 * Compares a value's pretty JSON with `tests/snapshots/<name>.json`; with `-- --update`, writes it.
 */
export async function assertSnapshot(name: string, value: JsonValue): Promise<void> {
  const path = `${SNAPSHOT_DIR}${name}.json`;
  const text = JSON.stringify(value, null, 2) + "\n";
  if (UPDATING) {
    await Deno.mkdir(SNAPSHOT_DIR, { recursive: true });
    await Deno.writeTextFile(path, text);
    return;
  }
  const committed = await Deno.readTextFile(path).catch(() => undefined);
  if (committed === undefined) {
    fail(`no snapshot ${name}.json yet: run the tests with -- --update, then review and commit it`);
  }
  if (committed !== text) {
    const a = committed.split("\n"), b = text.split("\n");
    const line = a.findIndex((l, i) => l !== b[i]);
    fail(
      `snapshot ${name}.json differs from line ${line + 1}:\n  committed: ${a[line]}\n  now:       ${
        b[line]
      }\n` +
        "if the change is intended, update with -- --update and review the diff",
    );
  }
}
