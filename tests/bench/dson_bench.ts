/**
 * DSON decode throughput on a code-built figure: a 317 × 317 grid (100,489 vertices, 100,172
 * triangles after the generator's triangle row), 20 bones, 3 skin influences per vertex, plus a
 * whole-mesh morph and a 1,000-vertex rigidity group for the bake.
 */
import { decodeDson } from "../../nodes/decode/dson/decode_dson.ts";
import { bakeMorph } from "../../nodes/decode/dson/codec/bake.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode, testContext } from "../support/context.ts";
import { dsonBytes, generateFigure, gzipDsonBytes, type Json } from "../nodes/decode/dson/generate.ts";

const SIDE = 317;
const json = generateFigure({ side: SIDE, bones: 20, influences: 3, seam: true });
const geometry = (json.geometry_library as Json[])[0];
const vertexCount = SIDE * SIDE;
const deltas = Array.from({ length: vertexCount }, (_, v) => [v, 0, 0, Math.sin(v / SIDE) * 2]);
json.modifier_library = [
  ...(json.modifier_library as Json[]),
  {
    id: "Wave",
    name: "Wave",
    parent: "#gen_figure_geo",
    morph: { vertex_count: vertexCount, deltas: { count: vertexCount, values: deltas } },
  },
];
const mask = Array.from({ length: 1000 }, (_, k) => vertexCount - 1 - k);
geometry.rigidity = {
  weights: { count: mask.length, values: mask.map((v) => [v, 1]) },
  groups: [{
    id: "Patch",
    rotation_mode: "full",
    scale_modes: ["primary", "secondary", "none"],
    reference_vertices: { count: 4, values: [0, 1, SIDE, SIDE + 1] },
    mask_vertices: { count: mask.length, values: mask },
  }],
};
const plain = dsonBytes(json);
const gzip = await gzipDsonBytes(json);
console.log(`figure: ${vertexCount} vertices, ${plain.length} bytes JSON, ${gzip.length} bytes gzip`);

async function decode(bytes: Uint8Array, name: string) {
  return (await runNode(decodeDson, { bytes: { bytes, name } }, {}, testContext())).scene;
}

const decoded = await decode(plain, "figure.duf");

Deno.bench("decode.dson: 100k-vertex skinned figure, plain JSON", async () => {
  await decode(plain, "figure.duf");
});

Deno.bench("decode.dson: 100k-vertex skinned figure, gzip", async () => {
  await decode(gzip, "figure.duf");
});

Deno.bench("dson bake: 100k-vertex morph with a 1,000-vertex rigidity group (incl. scene copy)", () => {
  bakeMorph(copyScene(decoded), "Wave", 1, () => {});
});

Deno.bench("writeGlb of the decoded 100k-vertex figure", async () => {
  await writeGlb(decoded, { generator: GENERATOR });
});
