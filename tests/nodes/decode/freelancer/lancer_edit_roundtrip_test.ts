/**
 * Resolved Freelancer output read back as LancerEdit's glTF importer reads it (`lancer_edit_import.ts`),
 * through the GLB `export.gltf` writes. The importer takes every node that is no hardpoint, hull,
 * wireframe or `$lodN` as a part and reads its construct from the node's own local transform, so the
 * pivots `constraints.resolve` inserts (needed for a viewer to turn a part about its joint axis) come
 * back as extra empty parts, and `decode.cmp` alone (every part at the scene root) is refused as
 * "More than one root model". `pivots: false` is the layout it reads. The capital-ship generator was
 * measured on seeds 401–404 while this was written; these seeds are others.
 */
import assert from "node:assert/strict";
import { type Document, NodeIO } from "@gltf-transform/core";
import { capitalShipFile } from "./capital_ships.ts";
import { type ImportedPart, lancerEditError, lancerEditImport } from "./lancer_edit_import.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { rigParts } from "../../../../nodes/rig/parts.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import type { CapitalFile } from "./capital_ships.ts";
import type { BytesValue, JsonValue } from "../../../../runtime/node.ts";
import { join } from "node:path";
import { runGraph } from "../../../../mod.ts";
import { gltfIO } from "../../../../runtime/scene/gltf_io.ts";
import { graphPath } from "../../../support/graph_runs.ts";
import { tempDir } from "../../../support/temp.ts";
import { modToolFile3 } from "./mod_tools_wave3.ts";
import { modToolFile5 } from "./mod_tools_wave5.ts";
import type { ModToolFile } from "./mod_tools.ts";

/** The file through decode.cmp (LancerEdit's LOD layout), resolve with `resolve` params, rig.parts, GLB. */
async function reimported(file: CapitalFile, resolve?: Record<string, JsonValue>) {
  const ctx = testContext();
  // Each node owns the scene the one before handed it, as in a graph run: no copy at each step.
  ctx.owns = () => true;
  let { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes: file.bytes, name: file.name } },
    { lods: "all" },
    ctx,
  );
  if (resolve) {
    scene = (await runNode(constraintsResolve, { scene }, resolve, ctx)).scene;
    scene = (await runNode(rigParts, { scene }, {}, ctx)).scene;
  }
  const { bytes } = await runNode(exportGltf, { scene }, { format: "glb" }, ctx);
  const doc = await new NodeIO().readBinary((bytes as { bytes: Uint8Array }).bytes);
  return { parts: lancerEditImport(doc), doc, warnings: ctx.warnings.map((w) => w.message) };
}

/** What LancerEdit would get wrong: parts beyond the file's, parts lost, constructs not as written. */
function misread(file: CapitalFile, parts: readonly ImportedPart[]) {
  const want = new Set(Object.keys(file.truth.triangles));
  const names = parts.map((p) => p.name);
  // Below a part whose rows FLModelTool typed with three decimals the node holds the nearest rotation
  // and its children's origins move (by up to 0.003 units) so they sit where the game drew them; a
  // quaternion is all LancerEdit writes back, so that origin is the one that keeps them there.
  const tolerance = file.oddity === "rounded" ? 5e-3 : 1e-3;
  const wrong = file.constraints.filter((c) => {
    const p = parts.find((q) => q.name === c.child);
    // LancerEdit has no Cyl or Loose construct: Loose comes back Fix, Cyl is written as its Rev or Pris.
    const kinds = c.kind === "cyl" ? ["rev", "pris"] : c.kind === "loose" ? [c.kind, "fix"] : [c.kind];
    return !p || p.parent !== c.parent || !kinds.includes(p.construct) ||
      p.origin.some((v, i) => Math.abs(v - Math.fround(c.translation[i])) > tolerance);
  });
  return {
    extra: names.filter((n) => !want.has(n)),
    missing: [...want].filter((n) => !names.includes(n)),
    wrong: wrong.map((c) => c.child),
  };
}

Deno.test("pivots: false re-imports in LancerEdit with exactly the file's parts, each on its construct", async () => {
  for (let seed = 431; seed <= 439; seed++) {
    const file = capitalShipFile(seed);
    const { parts, doc, warnings } = await reimported(file, { pivots: false });
    const label = `${file.oddity} seed ${seed}`;
    // Before (resolver v17, pivots always): 21-30 extra empty parts a ship and 11-18 of 40-54
    // constructs misread (seeds 401-404); decode.cmp alone: refused, one root per part.
    assert.equal(lancerEditError(parts), undefined, label);
    assert.deepEqual(misread(file, parts), { extra: [], missing: [], wrong: [] }, label);
    assert.ok(file.constraints.some((c) => c.kind !== "fix"), label);
    for (const part of parts) {
      assert.equal(part.lods[0], file.truth.triangles[part.name], `${label} ${part.name}`);
    }
    assert.ok(!doc.getRoot().listNodes().some((n) => /_joint(_[xyz])?$|_slide$/.test(n.getName())), label);
    assert.ok(!warnings.some((w) => /pose/.test(w)), label);
  }
});

Deno.test("pivots (the default) still turn: LancerEdit reads each pivot as a part, which is why pivots: false exists", async () => {
  const file = capitalShipFile(440);
  const { parts, doc } = await reimported(file, {});
  const { extra, missing } = misread(file, parts);
  const pivots = doc.getRoot().listNodes().filter((n) => /_joint(_[xyz])?$|_slide$/.test(n.getName()));
  assert.ok(pivots.length > 0);
  assert.deepEqual(extra.sort(), pivots.map((n) => n.getName()).sort());
  assert.deepEqual(missing, []);
});

Deno.test("decode.cmp alone is no LancerEdit path: every part a root, which its importer refuses", async () => {
  const file = capitalShipFile(441);
  const { parts } = await reimported(file);
  assert.match(lancerEditError(parts) ?? "", /^More than one root model/);
});

Deno.test("pivots: false says it ignores a pose (LancerEdit would read the posed part as its rest)", async () => {
  const file = capitalShipFile(442);
  const ctx = testContext();
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: file.bytes, name: file.name } }, {}, ctx);
  const turret = file.constraints.find((c) => c.kind === "rev")!.child;
  const out = (await runNode(constraintsResolve, { scene }, { pivots: false, pose: { [turret]: 20 } }, ctx))
    .scene as Document;
  assert.ok(
    ctx.warnings.some((w) => w.message.includes(`pose of '${turret}' ignored`)),
    JSON.stringify(ctx.warnings),
  );
  // The turret rests where its record puts it: its pose would come back from LancerEdit as its rest.
  const rest = (await runNode(constraintsResolve, { scene }, { pivots: false }, testContext()))
    .scene as Document;
  const rotation = (doc: Document) =>
    doc.getRoot().listNodes().find((n) => n.getName() === turret)!.getRotation();
  assert.deepEqual(rotation(out), rotation(rest));
  assert.ok(out.getRoot().listNodes().every((n) => !n.getName().endsWith("_joint")));
});

Deno.test("graphs/freelancer.json --set pivots=false lods=all: what to give LancerEdit, its parts exactly", async () => {
  const files: ModToolFile[] = [
    capitalShipFile(443),
    modToolFile3("sheared_parent", 621),
    modToolFile3("stretched_parent", 622),
    modToolFile5("cyl_order", 623),
  ];
  const dir = await tempDir();
  try {
    for (const file of files) {
      const model = join(dir, file.name);
      await Deno.writeFile(model, file.bytes);
      const run = await runGraph(graphPath("freelancer.json"), {
        inputs: { model, libraries: "none", pivots: false, lods: "all" },
        outDir: join(dir, "out"),
        cacheDir: false,
      });
      const doc = await (await gltfIO()).readBinary((run.outputs.glb as BytesValue).bytes);
      const parts = lancerEditImport(doc);
      const label = `${file.quirk} seed ${file.seed}: ${JSON.stringify(parts.map((p) => p.name))}`;
      // Before (pivots always): 1-30 extra empty parts a file, one per pivot.
      assert.equal(lancerEditError(parts), undefined, label);
      assert.deepEqual(parts.map((p) => p.name).sort(), Object.keys(file.truth.triangles).sort(), label);
      assert.ok(parts.some((p) => p.construct !== "fix"), label);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
