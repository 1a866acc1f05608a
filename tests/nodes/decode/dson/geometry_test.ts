import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, generateFigure, gridPosition, type Json } from "./generate.ts";

async function decode(json: Json, ctx = testContext()): Promise<Document> {
  return (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "gen.duf" } }, {}, ctx)).scene;
}

Deno.test("dson geometry: quads and triangles become triangles, one primitive per surface", async () => {
  const side = 6;
  const doc = await decode(generateFigure({ side, bones: 2, twoSurfaces: true }));
  const mesh = doc.getRoot().listMeshes()[0];
  const primitives = mesh.listPrimitives();
  assert.deepEqual(primitives.map((p) => p.getMaterial()?.getName()), ["Left", "Right"]);
  // (side-1)² cells: the last row is 2 triangles per cell, the others one quad = 2 triangles.
  const triangles = primitives.reduce((n, p) => n + p.getIndices()!.getCount() / 3, 0);
  assert.equal(triangles, 2 * (side - 1) ** 2);
  // Every triangle's positions are grid points of its DSON vertices, in metres.
  for (const primitive of primitives) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const positions = primitive.getAttribute("POSITION")!.getArray()!;
    ids.forEach((v, i) => {
      const want = gridPosition(v % side, Math.floor(v / side));
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(positions[i * 3 + k] - want[k] / 100) < 1e-7);
    });
  }
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson geometry: UV seams split vertices per unique (vertex, uv) and v is flipped", async () => {
  const side = 5;
  const plain = await decode(generateFigure({ side, bones: 1 }));
  const seamed = await decode(generateFigure({ side, bones: 1, seam: true }));
  const count = (doc: Document) =>
    doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getCount();
  assert.equal(count(plain), side * side);
  // Each of the `side` vertices on the seam column is used with two UVs.
  assert.equal(count(seamed), side * side + side);
  const primitive = seamed.getRoot().listMeshes()[0].listPrimitives()[0];
  const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
  const uvs = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
  const seamColumn = Math.floor((side - 1) / 2);
  const seen = new Map<number, number[]>();
  ids.forEach((v, i) => {
    const j = Math.floor(v / side);
    const wantV = 1 - j / (side - 1);
    assert.ok(Math.abs(uvs[i * 2 + 1] - wantV) < 1e-6, "v flipped");
    seen.set(v, [...(seen.get(v) ?? []), uvs[i * 2]]);
  });
  for (let j = 0; j < side; j++) {
    const us = seen.get(j * side + seamColumn)!.sort();
    const u = seamColumn / (side - 1);
    assert.deepEqual(
      us.map((x) => Math.round(x * 1e6) / 1e6),
      [u, u + 0.5].map((x) => Math.round(x * 1e6) / 1e6),
    );
  }
});

/**
 * The generated figure (two surfaces, a seam on the right one) with a second UV set `alt_uvs` (u + 1,
 * its seam copies too) and material instances giving each surface the set named in `sets`.
 */
function twoUvSets(sets: { Left?: string; Right?: string }): Json {
  const json = generateFigure({ side: 5, bones: 1, twoSurfaces: true, seam: true });
  const library = json.uv_set_library as Json[];
  const alt = structuredClone(library[0]);
  alt.id = "alt_uvs";
  alt.name = "Alt UVs";
  (alt.uvs as Json).values = ((alt.uvs as Json).values as number[][]).map(([u, v]) => [u + 1, v]);
  library.push(alt);
  (json.scene as Json).materials = Object.entries(sets).map(([surface, set]) => ({
    id: `${surface}-1`,
    geometry: "#gen_figure_geo-1",
    groups: [surface],
    uv_set: `#${set}`,
  }));
  return json;
}

/** Each (DSON vertex, u, v) a surface's polygons use, worked out from the file's polylist and set. */
function expectedCorners(json: Json, surface: number, setId: string): string[] {
  const geometry = (json.geometry_library as Json[])[0];
  const set = (json.uv_set_library as Json[]).find((u) => u.id === setId)!;
  const uvs = (set.uvs as Json).values as number[][];
  const overrides = set.polygon_vertex_indices as number[][];
  const out = new Set<string>();
  ((geometry.polylist as Json).values as number[][]).forEach((poly, p) => {
    if (poly[1] !== surface) return;
    for (const v of poly.slice(2)) {
      const t = overrides.find(([q, w]) => q === p && w === v)?.[2] ?? v;
      out.add(`${v} ${uvs[t][0].toFixed(5)} ${(1 - uvs[t][1]).toFixed(5)}`);
    }
  });
  return [...out].sort();
}

/** Each (DSON vertex, u, v) of a primitive's glTF vertices. */
function drawnCorners(doc: Document, surface: number): string[] {
  const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[surface];
  const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
  const uv = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
  return Array.from(ids, (v, i) => `${v} ${uv[i * 2].toFixed(5)} ${uv[i * 2 + 1].toFixed(5)}`).sort();
}

Deno.test("dson UV sets: each surface takes its own material's UV set, seams included", async () => {
  // Left names the second set, Right the default: before, the whole mesh took the second set (the
  // right surface drawn 1 to the right of its texture, and its seam lost).
  for (
    const sets of [
      { Left: "alt_uvs", Right: "gen_uvs" },
      { Left: "gen_uvs", Right: "alt_uvs" },
      { Left: "alt_uvs", Right: "alt_uvs" },
    ]
  ) {
    const json = twoUvSets(sets);
    const ctx = testContext();
    const doc = await decode(json, ctx);
    assert.deepEqual(drawnCorners(doc, 0), expectedCorners(json, 0, sets.Left), `Left ${sets.Left}`);
    assert.deepEqual(drawnCorners(doc, 1), expectedCorners(json, 1, sets.Right), `Right ${sets.Right}`);
    // The right surface's seam: its 5 seam-column vertices each with their copy's UV (u 0.5 + 0.5).
    const seamU = (sets.Right === "alt_uvs" ? 1 : 0) + 1;
    const seamCorners = drawnCorners(doc, 1).filter((c) => {
      const [v, u] = c.split(" ");
      return Number(v) % 5 === 2 && u === seamU.toFixed(5);
    });
    assert.equal(seamCorners.length, 5);
    const dson = getPartgraphExtras(doc.getRoot().listMeshes()[0]).dson as Json;
    // The mesh's set: the one all its surfaces use, else the default.
    assert.equal(
      dson.uv_set,
      sets.Left === "alt_uvs" && sets.Right === "alt_uvs" ? "Alt UVs" : "Generated UVs",
    );
    assert.deepEqual(
      dson.uv_sets,
      sets.Left === sets.Right ? undefined : {
        Left: sets.Left === "alt_uvs" ? "Alt UVs" : "Generated UVs",
        Right: sets.Right === "alt_uvs" ? "Alt UVs" : "Generated UVs",
      },
    );
    assert.deepEqual(ctx.warnings.filter((w) => !/unresolved reference/.test(w.message)), []);
    const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
    assert.equal(report.errors, 0, report.messages.join("\n"));
  }
  // A surface no material instance names keeps the default set.
  const json = twoUvSets({ Left: "alt_uvs" });
  const doc = await decode(json);
  assert.deepEqual(drawnCorners(doc, 1), expectedCorners(json, 1, "gen_uvs"));
  assert.deepEqual(drawnCorners(doc, 0), expectedCorners(json, 0, "alt_uvs"));
});

Deno.test("dson UV sets: a material's set made for another vertex count leaves its surface on the default, warned", async () => {
  const json = twoUvSets({ Left: "alt_uvs", Right: "alt_uvs" });
  (json.uv_set_library as Json[])[1].vertex_count = 99;
  const ctx = testContext();
  const doc = await decode(json, ctx);
  assert.deepEqual(drawnCorners(doc, 0), expectedCorners(json, 0, "gen_uvs"));
  assert.deepEqual(drawnCorners(doc, 1), expectedCorners(json, 1, "gen_uvs"));
  // Said once, though two materials name it.
  assert.equal(ctx.warnings.filter((w) => /UV set is for 99 vertices/.test(w.message)).length, 1);
});

Deno.test("dson skin: six weights per vertex keep the strongest four, renormalised", async () => {
  const side = 4;
  const bones = 6;
  const doc = await decode(generateFigure({ side, bones, influences: 6 }));
  const skin = doc.getRoot().listSkins()[0];
  const jointIds = skin.listJoints().map((j) => (getPartgraphExtras(j).dson as Json).id);
  const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
  const joints = primitive.getAttribute("JOINTS_0")!.getArray()!;
  const weights = primitive.getAttribute("WEIGHTS_0")!.getArray()!;
  ids.forEach((v, i) => {
    // Generator: bone (band + m) % bones gets weight m + 1 for m < 6; the top four are m = 2..5.
    const band = Math.floor((Math.floor(v / side) * bones) / side);
    const want = new Map<string, number>();
    for (let m = 2; m < 6; m++) want.set(`gen_figure_bone${(band + m) % bones}`, (m + 1) / (3 + 4 + 5 + 6));
    for (let s = 0; s < 4; s++) {
      const bone = jointIds[joints[i * 4 + s]] as string;
      assert.ok(Math.abs(weights[i * 4 + s] - want.get(bone)!) < 1e-6, `vertex ${v} slot ${s} ${bone}`);
    }
  });
});

Deno.test("dson nodes: bones sit at their centre points with orientation as their local frame", async () => {
  const doc = await decode(generateFigure({ side: 5, bones: 3 }));
  const nodes = doc.getRoot().listNodes().filter((n) =>
    (getPartgraphExtras(n).dson as Json)?.type === "bone"
  );
  assert.equal(nodes.length, 3);
  nodes.forEach((node, k) => {
    const world = node.getWorldMatrix();
    // Generator: bone k at y = 4k/3 cm, orientation z = 10° on odd bones.
    assert.ok(Math.abs(world[13] - (4 * k) / 3 / 100) < 1e-7);
    const angle = Math.atan2(world[1], world[0]) * 180 / Math.PI;
    assert.ok(Math.abs(angle - (k % 2 ? 10 : 0)) < 1e-4, `bone ${k} angle ${angle}`);
  });
  assert.equal(nodes[2].getParentNode(), nodes[1]);
});

Deno.test("dson morphs: morph modifiers become glTF targets in metres with their dial value as weight", async () => {
  const json = generateFigure({ side: 3, bones: 1 });
  json.modifier_library = [
    ...(json.modifier_library as Json[]),
    {
      id: "Lift",
      name: "Lift",
      parent: "#gen_figure_geo",
      channel: { id: "value", value: 0, current_value: 0.25 },
      morph: { vertex_count: 9, deltas: { count: 2, values: [[4, 0, 0, 10], [8, 1, 2, 3]] } },
    },
  ];
  const doc = await decode(json);
  const mesh = doc.getRoot().listMeshes()[0];
  assert.deepEqual((mesh.getExtras() as Json).targetNames, ["Lift"]);
  assert.deepEqual(mesh.getWeights(), [0.25]);
  const primitive = mesh.listPrimitives()[0];
  const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
  const deltas = primitive.listTargets()[0].getAttribute("POSITION")!.getArray()!;
  ids.forEach((v, i) => {
    const want = v === 4 ? [0, 0, 0.1] : v === 8 ? [0.01, 0.02, 0.03] : [0, 0, 0];
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(deltas[i * 3 + k] - want[k]) < 1e-7);
  });
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson grafts: a graft merges into its loaded target (welded, hidden polygons removed, skin carried)", async () => {
  const side = 4;
  const json = generateFigure({ side, bones: 2 });
  // A graft of one quad floating over target cell (0, 0): its two lower vertices weld to target 0 and 1.
  json.geometry_library = [
    ...(json.geometry_library as Json[]),
    {
      id: "graft_geo",
      vertices: { count: 4, values: [[0, 0, 0], [1, 0, 0], [1, 1, 5], [0, 1, 5]] },
      polygon_material_groups: { count: 1, values: ["Graft"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2, 3]] },
      graft: {
        vertex_count: side * side,
        poly_count: (side - 1) * (side - 2) + 2 * (side - 1),
        vertex_pairs: { count: 2, values: [[0, 0], [1, 1]] },
        hidden_polys: { count: 1, values: [0] },
      },
    },
  ];
  json.node_library = [
    ...(json.node_library as Json[]),
    { id: "graft_fig", type: "figure", center_point: channels("float", [0, 0, 0]) },
  ];
  json.modifier_library = [
    ...(json.modifier_library as Json[]),
    {
      id: "GraftSkin",
      parent: "#graft_geo",
      skin: {
        node: "#graft_fig",
        geometry: "#graft_geo",
        vertex_count: 4,
        // The graft figure has no bones of its own here; its weights name a bone of the target figure.
        joints: [{
          id: "gen_figure_bone1",
          node: "#gen_figure_bone1",
          node_weights: { count: 4, values: [[0, 1], [1, 1], [2, 1], [3, 1]] },
        }],
      },
    },
  ];
  ((json.scene as Json).nodes as Json[]).push({
    id: "graft_fig-1",
    url: "#graft_fig",
    conform_target: "#gen_figure-1",
    geometries: [{ id: "graft_geo-1", url: "#graft_geo" }],
  });
  ((json.scene as Json).modifiers as Json[]).push({
    id: "GraftSkin-1",
    url: "#GraftSkin",
    parent: "#graft_geo-1",
  });
  const ctx = testContext();
  const doc = await decode(json, ctx);
  assert.deepEqual(ctx.warnings, []);
  const summary = describeDson(doc).geometries as Json[];
  assert.equal(summary.length, 1, "the graft mesh is merged away");
  assert.deepEqual(summary[0].merged_grafts, ["graft_geo"]);
  assert.deepEqual(summary[0].surfaces, ["Skin", "Graft"]);
  const targetTriangles = 2 * (side - 1) ** 2;
  assert.equal(summary[0].triangles, targetTriangles - 2 + 2, "one target quad hidden, one graft quad added");
  const mesh = doc.getRoot().listMeshes()[0];
  const graftPrimitive = mesh.listPrimitives()[1];
  const ids = Array.from(graftPrimitive.getAttribute("_DSON_VERTEX")!.getArray()!).sort((a, b) => a - b);
  assert.deepEqual(ids, [0, 1, side * side, side * side + 1], "welded to target 0 and 1, two new vertices");
  const joints = graftPrimitive.getAttribute("JOINTS_0")!.getArray()!;
  const weights = graftPrimitive.getAttribute("WEIGHTS_0")!.getArray()!;
  const jointIds = doc.getRoot().listSkins()[0].listJoints().map((j) =>
    (getPartgraphExtras(j).dson as Json).id
  );
  const vertexIds = graftPrimitive.getAttribute("_DSON_VERTEX")!.getArray()!;
  vertexIds.forEach((v, i) => {
    if (v < side * side) return;
    assert.equal(jointIds[joints[i * 4]], "gen_figure_bone1");
    assert.equal(weights[i * 4], 1);
  });
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson library: a .dsf without a scene instantiates its figure, bones and skinned geometry", async () => {
  const json = generateFigure({ side: 4, bones: 3 });
  delete json.scene;
  const summary = describeDson(await decode(json));
  assert.equal((summary.figures as Json[]).length, 1);
  assert.equal((summary.bones as string[]).length, 3);
  assert.equal((summary.geometries as Json[])[0].skinned, true);
});

Deno.test("dson sniffing: decode.auto recognises plain-text DSON by content, whatever the extension", async () => {
  const bytes = dsonBytes(generateFigure({ side: 3, bones: 1 }));
  const { scene } = await runNode(decodeAuto, { bytes: { bytes, name: "download.bin" } });
  assert.equal(getSourceInfo(scene)?.format, "dson");
});

Deno.test("dson geometry that draws no polygon gets no mesh, and a warning naming it (glTF has no empty mesh)", async () => {
  // No polygons at all, and a count whose values are null (as a damaged file had them).
  for (const polylist of [{ count: 0, values: [] }, { count: 12, values: null }]) {
    const json = generateFigure({ side: 4, bones: 2 }) as { geometry_library: Record<string, unknown>[] };
    json.geometry_library[0].polylist = polylist;
    const ctx = testContext();
    const doc = await decode(json as Json, ctx);
    assert.equal(doc.getRoot().listMeshes().length, 0);
    assert.equal(doc.getRoot().listSkins().length, 0);
    const warnings = ctx.warnings.map((w) => w.message).filter((m) => m.includes("draws no polygon"));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /geometry 'gen_figure_geo-1'/);
    // The bones are still there, and the output is valid glTF.
    assert.ok(doc.getRoot().listNodes().length >= 3);
    const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
    assert.equal(report.errors, 0, report.messages.join("\n"));
  }
});
