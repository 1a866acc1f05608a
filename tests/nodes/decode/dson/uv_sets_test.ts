/**
 * Scene UV set instances (`scene.uvs`: `{id, url, parent}`, the spec's uv_set_instance): a material
 * instance's `uv_set` may name one (`#Alt%20UVs-1`) rather than the library set. It is followed to
 * the set its `url` names; before, such an id was not indexed, so the surface kept the default set.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";

/** The generated figure (two surfaces) with a second set `alt_uvs` (u + 1) and one scene material per surface. */
function withAltSet(sets: { Left: string; Right: string }, uvs: Json[]): Json {
  const json = generateFigure({ side: 5, bones: 1, twoSurfaces: true });
  const library = json.uv_set_library as Json[];
  const alt = structuredClone(library[0]);
  alt.id = "alt_uvs";
  alt.name = "Alt UVs";
  (alt.uvs as Json).values = ((alt.uvs as Json).values as number[][]).map(([u, v]) => [u + 1, v]);
  library.push(alt);
  const scene = json.scene as Json;
  scene.uvs = uvs;
  scene.materials = Object.entries(sets).map(([surface, set]) => ({
    id: `${surface}-1`,
    geometry: "#gen_figure_geo-1",
    groups: [surface],
    uv_set: set,
  }));
  return json;
}

async function decode(json: Json) {
  const ctx = testContext();
  const doc: Document =
    (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "uvs.duf" } }, {}, ctx))
      .scene;
  return { doc, warnings: ctx.warnings.map((w) => w.message) };
}

/** The smallest u each surface's primitive draws (the alternative set is the default moved 1 to the right). */
function leastU(doc: Document): number[] {
  return doc.getRoot().listMeshes()[0].listPrimitives().map((primitive) => {
    const uv = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
    return Math.min(...Array.from(uv).filter((_, i) => i % 2 === 0));
  });
}

Deno.test("dson UV set instances: a material naming a scene UV instance takes the set it instantiates", async () => {
  const uvs = [{ id: "Alt UVs-1", url: "#alt_uvs", parent: "#gen_figure_geo-1" }];
  for (const name of ["#Alt%20UVs-1", "#Alt UVs-1"]) {
    const { doc, warnings } = await decode(withAltSet({ Left: name, Right: "#gen_uvs" }, uvs));
    assert.deepEqual(warnings, []);
    // Left starts at column 0 (u 0; 1 in the alternative set), Right at column 2 (u 0.5).
    assert.deepEqual(leastU(doc), [1, 0.5], name);
    const dson = getPartgraphExtras(doc.getRoot().listMeshes()[0]).dson as Json;
    assert.deepEqual(dson.uv_sets, { Left: "Alt UVs", Right: "Generated UVs" });
  }
});

Deno.test("dson UV set instances: a material's uv_set naming something else is a warning; the surface keeps the default", async () => {
  // Before, a name resolving to another kind of record left the surface on the default silently.
  const { doc, warnings } = await decode(withAltSet({ Left: "#Right-1", Right: "#gen_uvs" }, []));
  assert.deepEqual(warnings, [
    "dson: unresolved reference '#Right-1': names a material_instance, not a UV set; not applied",
  ]);
  assert.deepEqual(leastU(doc), [0, 0.5]);
});

Deno.test("dson grafts: a merged graft's surfaces are recorded with the graft's own UV set, not the target's", async () => {
  const json = generateFigure({ side: 4, bones: 1 });
  // One quad welded to target vertices 0 and 1, with a UV set of its own.
  (json.geometry_library as Json[]).push({
    id: "graft_geo",
    vertices: { count: 4, values: [[0, 0, 0], [1, 0, 0], [1, 1, 5], [0, 1, 5]] },
    polygon_material_groups: { count: 1, values: ["Mouth"] },
    polylist: { count: 1, values: [[0, 0, 0, 1, 2, 3]] },
    default_uv_set: "#mouth_uvs",
    graft: {
      vertex_count: 16,
      poly_count: 12,
      vertex_pairs: { count: 2, values: [[0, 0], [1, 1]] },
      hidden_polys: { count: 1, values: [0] },
    },
  });
  (json.uv_set_library as Json[]).push({
    id: "mouth_uvs",
    name: "Mouth UVs",
    vertex_count: 4,
    uvs: { count: 4, values: [[2, 0], [3, 0], [3, 1], [2, 1]] },
  });
  (json.node_library as Json[]).push({ id: "graft_fig", type: "figure" });
  ((json.scene as Json).nodes as Json[]).push({
    id: "graft_fig-1",
    url: "#graft_fig",
    conform_target: "#gen_figure-1",
    geometries: [{ id: "graft_geo-1", url: "#graft_geo" }],
  });
  const { doc, warnings } = await decode(json);
  assert.deepEqual(warnings, []);
  const meshes = doc.getRoot().listMeshes();
  assert.equal(meshes.length, 1, "merged");
  const dson = getPartgraphExtras(meshes[0]).dson as Json;
  assert.deepEqual(dson.merged_grafts, ["graft_geo"]);
  // The graft's surface is drawn with its own set (u 2–3) and named so (before: 'Generated UVs').
  assert.deepEqual(leastU(doc), [0, 2]);
  assert.equal(dson.uv_set, "Generated UVs");
  assert.deepEqual(dson.uv_sets, { Skin: "Generated UVs", Mouth: "Mouth UVs" });
});
