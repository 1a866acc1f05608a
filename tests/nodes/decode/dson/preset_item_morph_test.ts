/**
 * A shape preset's morph that only fitted items have (a dress's `Loose`, not the body's): set on the
 * items of the figure the preset is applied to and nowhere else, and, when two of its items have a
 * morph of that name (a dress and a jacket both shipping `Loose`), set on both with a warning naming
 * them: Daz applies such a preset to the item selected when it was saved, which the preset does not
 * record, so the figure's items cannot be told apart.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { type Json, libraryFigure, shapePreset } from "./generate.ts";
import { decodeJson, withContentFiles } from "./dson_runs.ts";

const BODY_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const fileOf = (item: string) => `/data/Items/${item}.dsf`;

/** A figure file whose geometry has a morph of each id in `morphs` (own dials, following nothing). */
function figureFile(figure: string, file: string, morphs: readonly string[]): Json {
  return libraryFigure(
    figure,
    file,
    morphs.map((id) => ({
      id,
      name: id,
      parent: `#${figure}_geo`,
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
      morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
    })),
  );
}

const body = (n: number, name: string): Json => ({
  id: `Genesis8Female-${n}`,
  name,
  url: `${encodeURI(BODY_FILE)}#Genesis8Female`,
  geometries: [{ id: `Genesis8Female_geo-${n}`, url: `${encodeURI(BODY_FILE)}#Genesis8Female_geo` }],
});

const item = (name: string, n: number, on: number): Json => ({
  id: `${name}-${n}`,
  name,
  url: `${encodeURI(fileOf(name))}#${name}`,
  parent: `#Genesis8Female-${on}`,
  conform_target: `#Genesis8Female-${on}`,
  geometries: [{ id: `${name}_geo-${n}`, url: `${encodeURI(fileOf(name))}#${name}_geo` }],
});

/** Alice wears a dress; Bob a dress and a jacket. Dress and Jacket both have `Loose`; only the dress `Long`. */
const SCENE = {
  file_version: "0.6.1.0",
  asset_info: { id: "/scene.duf", type: "scene" },
  scene: {
    nodes: [body(1, "Alice"), item("Dress", 1, 1), body(2, "Bob"), item("Dress", 2, 2), item("Jacket", 1, 2)],
  },
};

/** Each mesh node's weight of morph `id` (NaN: it has none). */
function weights(doc: Document, id: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const names = mesh.getExtras().targetNames as string[] | undefined;
    const k = names?.indexOf(id) ?? -1;
    out[node.getName()] = k < 0 ? NaN : mesh.getWeights()[k];
  }
  return out;
}

async function apply(scene: Document, preset: { bytes: Uint8Array; name: string }, figure: string) {
  const ctx = testContext();
  const out = (await runNode(dsonApplyPreset, { scene, preset }, { figure }, ctx)).scene as Document;
  return { scene: out, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("dson preset item morphs: a dress-only morph is set on the figure's dress alone; one two items share is set on both, warned", async () => {
  await withContentFiles([
    [BODY_FILE, figureFile("Genesis8Female", BODY_FILE, ["FBMHeavy"])],
    [fileOf("Dress"), figureFile("Dress", fileOf("Dress"), ["Loose", "Long"])],
    [fileOf("Jacket"), figureFile("Jacket", fileOf("Jacket"), ["Loose"])],
  ], async (root) => {
    const { scene, warnings } = await decodeJson(SCENE, "dressed.duf", [root]);
    assert.deepEqual(warnings, []);
    // Only the dress has Long: Bob's dress takes it, Alice's keeps 0, and nothing is said.
    const long = await apply(scene, shapePreset([["Long", 0.4]]), "Bob");
    assert.deepEqual(long.warnings, []);
    assert.deepEqual(weights(long.scene, "Long"), {
      "Genesis8Female_geo-1": NaN,
      "Dress_geo-1": 0,
      "Genesis8Female_geo-2": NaN,
      "Dress_geo-2": 0.4,
      "Jacket_geo-1": NaN,
    });
    // Loose: Bob's dress and jacket both have it. Both are set (the preset names no item), warned.
    const loose = await apply(scene, shapePreset([["Loose", 0.6]]), "Bob");
    assert.deepEqual(weights(loose.scene, "Loose"), {
      "Genesis8Female_geo-1": NaN,
      "Dress_geo-1": 0,
      "Genesis8Female_geo-2": NaN,
      "Dress_geo-2": 0.6,
      "Jacket_geo-1": 0.6,
    });
    assert.deepEqual(loose.warnings, [
      "dson preset: 1 morph(s) the figure lacks are set on several of its fitted items, as the preset " +
      "names no item (Daz applies such a preset to the item selected when it was saved): Loose (Dress_geo-2, " +
      "Jacket_geo-1)",
    ]);
  });
});
