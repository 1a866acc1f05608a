/**
 * Counted arrays whose `count` disagrees with their `values` (what a truncated download or a bad
 * hand edit leaves) and skin weights outside 0..1: the decode reads the values as importers read
 * Daz content, clamps the weights, and names each in a warning with its JSON path. Every file is
 * made here by code from the generated figure.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";
import { withContentFiles } from "./dson_runs.ts";

async function decode(text: string | Uint8Array, roots: string[] = []) {
  const ctx = testContext();
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const { scene } = await runNode(decodeDson, { bytes: { bytes, name: "counts.duf" } }, {
    content_roots: roots,
  }, ctx);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes as Uint8Array;
  return { doc: scene as Document, glb, warnings: ctx.warnings.map((w) => w.message) };
}

/** Triangles drawn by every primitive of the scene. */
function triangles(doc: Document): number {
  let n = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const p of mesh.listPrimitives()) n += (p.getIndices()?.getCount() ?? 0) / 3;
  }
  return n;
}

/** Vertex `v`'s `[joint name, weight]` pairs (weight > 0) on the first skinned mesh, by position. */
function weightsAt(doc: Document, position: readonly number[]): [string, number][] {
  for (const node of doc.getRoot().listNodes()) {
    const skin = node.getSkin();
    for (const p of node.getMesh()?.listPrimitives() ?? []) {
      const pos = p.getAttribute("POSITION")!.getArray()!;
      const joints = p.getAttribute("JOINTS_0")!.getArray()!;
      const weights = p.getAttribute("WEIGHTS_0")!.getArray()!;
      for (let v = 0; v < pos.length / 3; v++) {
        if ([0, 1, 2].some((k) => Math.abs(pos[v * 3 + k] - position[k]) > 1e-6)) continue;
        const out: [string, number][] = [];
        for (let s = 0; s < 4; s++) {
          const w = weights[v * 4 + s];
          if (w > 0) out.push([skin!.listJoints()[joints[v * 4 + s]].getName(), Math.round(w * 1e6) / 1e6]);
        }
        return out;
      }
    }
  }
  throw new Error(`no vertex at ${position}`);
}

const geometry = (json: Json) => (json.geometry_library as Json[])[0];
const joints = (json: Json) => ((json.modifier_library as Json[])[0].skin as Json).joints as Json[];
const COUNT_TAIL = ": the values are used and the count ignored, as importers read Daz content; a list " +
  "shorter than its count is what a truncated or hand-edited file leaves";

Deno.test("dson counts: a consistent generated figure decodes without a word", async () => {
  const { warnings, doc } = await decode(dsonBytes(generateFigure({ side: 4, bones: 3, figureId: "F" })));
  assert.deepEqual(warnings, []);
  assert.equal(triangles(doc), 18); // 6 quads and 6 triangles
});

Deno.test("dson counts: a polylist one polygon short of its count loses that polygon, named with both numbers", async () => {
  const figure = generateFigure({ side: 4, bones: 3, figureId: "F" });
  const polylist = geometry(figure).polylist as Json;
  (polylist.values as unknown[]).pop(); // the last triangle, as a truncated file ends
  assert.equal(polylist.count, 12);
  const { warnings, doc, glb } = await decode(dsonBytes(figure));
  assert.deepEqual(warnings, [
    `dson: counts.duf at /geometry_library/0/polylist: count 12 but 11 values${COUNT_TAIL}`,
  ]);
  assert.equal(triangles(doc), 17);
  assert.equal((await validateGltf(glb)).errors, 0);
});

Deno.test("dson counts: many alike (every joint's node_weights one short) are one warning saying how many", async () => {
  const figure = generateFigure({ side: 4, bones: 3, figureId: "F" });
  for (const joint of joints(figure)) ((joint.node_weights as Json).values as unknown[]).pop();
  const { warnings } = await decode(dsonBytes(figure));
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^dson: counts\.duf at \/modifier_library\/0\/skin\/joints\/0\/node_weights: count \d+ but \d+ values; 2 more alike \(\/modifier_library\/\*\/skin\/joints\/\*\/node_weights\)/,
  );
  const [, count, values] = warnings[0].match(/count (\d+) but (\d+) values/)!;
  assert.equal(Number(count), Number(values) + 1);
});

Deno.test("dson counts: morph deltas, UVs and a missing values list in a content file are each named there", async () => {
  const figure = generateFigure({ side: 4, bones: 2, figureId: "F", assetId: "/data/Gen/F.dsf" });
  (figure.modifier_library as Json[]).push({
    id: "Lift",
    name: "Lift",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 1 },
    morph: { vertex_count: 16, deltas: { count: 3, values: [[0, 0, 1, 0], [5, 0, 1, 0]] } },
  });
  const uvs = (figure.uv_set_library as Json[])[0].uvs as Json;
  uvs.count = (uvs.values as unknown[]).length + 4;
  geometry(figure).polygon_groups = { count: 1 };
  delete figure.scene;
  const scene = {
    file_version: "0.6.1.0",
    asset_info: { id: "/scene.duf", type: "scene" },
    scene: {
      nodes: [{
        id: "F-1",
        url: "/data/Gen/F.dsf#F",
        geometries: [{ id: "F_geo-1", url: "/data/Gen/F.dsf#F_geo" }],
      }],
      modifiers: [
        { id: "SkinBinding-1", url: "/data/Gen/F.dsf#SkinBinding", parent: "#F_geo-1" },
        { id: "Lift-1", url: "/data/Gen/F.dsf#Lift", parent: "#F_geo-1" },
      ],
    },
  };
  await withContentFiles([["/data/Gen/F.dsf", figure]], async (root) => {
    const { warnings } = await decode(dsonBytes(scene), [root]);
    const counts = warnings.filter((w) => w.includes(COUNT_TAIL)).map((w) =>
      w.replace(/^dson: .*F\.dsf at /, "")
    )
      .sort();
    assert.deepEqual(counts, [
      `/geometry_library/0/polygon_groups: count 1 but 0 values${COUNT_TAIL}`,
      `/modifier_library/1/morph/deltas: count 3 but 2 values${COUNT_TAIL}`,
      `/uv_set_library/0/uvs: count 20 but 16 values${COUNT_TAIL}`,
    ]);
  });
});

Deno.test("dson skin weights: negative, huge, non-finite and null weights are clamped to 0..1, one warning per binding", async () => {
  const figure = generateFigure({ side: 4, bones: 2, figureId: "F" });
  // Vertex v < 8 is weighted 1/3 by bone 0 and 2/3 by bone 1 (generate.ts).
  const w0 = (joints(figure)[0].node_weights as Json).values as unknown[][];
  const w1 = (joints(figure)[1].node_weights as Json).values as unknown[][];
  assert.deepEqual([w0[0][0], w1[1][0], w0[2][0], w1[3][0]], [0, 1, 2, 3]);
  w0[0][1] = -1; // vertex 0: bone 0 dropped → bone 1 alone
  w1[1][1] = 1e15; // vertex 1: bone 1 read as 1 → 1/3 : 1 = 0.25 : 0.75
  w0[2][1] = "INF"; // vertex 2: bone 0 written 1e999 (Infinity once parsed) → dropped
  w1[3][1] = null; // vertex 3: bone 1 null (Qt writes NaN so) → dropped, bone 0 alone
  // Rounding noise, not counted: vertex 4 (row 1) at 1.0000001 : 2/3, vertex 5 at -1e-9 : 2/3.
  assert.deepEqual([w0[4][0], w0[5][0]], [4, 5]);
  w0[4][1] = 1.0000001;
  w0[5][1] = -1e-9;
  const text = JSON.stringify(figure).replace('"INF"', "1e999");
  const { doc, glb, warnings } = await decode(text);
  assert.deepEqual(warnings, [
    "dson: counts.duf at /modifier_library/0/skin: 4 skin weights outside 0..1 (the first, -1 at " +
    "/modifier_library/0/skin/joints/0/node_weights/values/0/1, read as 0): negative and unreadable ones are " +
    "dropped, those above 1 read as 1, as Blender's vertex groups (which Diffeomorphic fills from them) hold " +
    "weights; each vertex's weights are then scaled to sum to 1",
  ]);
  // Positions: vertex (i, j) of the 4×4 grid at (i, j) cm → m.
  assert.deepEqual(weightsAt(doc, [0, 0, 0]), [["F_bone1", 1]]);
  assert.deepEqual(weightsAt(doc, [0.01, 0, 0]), [["F_bone0", 0.25], ["F_bone1", 0.75]]);
  assert.deepEqual(weightsAt(doc, [0.02, 0, 0]), [["F_bone1", 1]]);
  assert.deepEqual(weightsAt(doc, [0.03, 0, 0]), [["F_bone0", 1]]);
  assert.deepEqual(weightsAt(doc, [0, 0.01, 0]), [["F_bone0", 0.6], ["F_bone1", 0.4]]);
  assert.deepEqual(weightsAt(doc, [0.01, 0.01, 0]), [["F_bone1", 1]]);
  assert.deepEqual(weightsAt(doc, [0.02, 0.01, 0]), [["F_bone0", 0.333333], ["F_bone1", 0.666667]]);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson skin weights: a weight written as a string stays a DecodeError at its path", async () => {
  const figure = generateFigure({ side: 4, bones: 2, figureId: "F" });
  ((joints(figure)[1].node_weights as Json).values as unknown[][])[2][1] = "0.5";
  await assert.rejects(
    () => decode(dsonBytes(figure)),
    /\/modifier_library\/0\/skin\/joints\/1\/node_weights\/values\/2\/1: expected a finite number, found string "0\.5"/,
  );
});
