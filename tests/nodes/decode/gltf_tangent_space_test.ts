/**
 * A clear coat normal map or anisotropy texture without a normal map or tangents (Blender's Coat
 * Normal, a textured anisotropy; tangents not exported) gets tangents from the primitive's normals and
 * UVs: unit, across the normal, pointing the way U grows on each drawn triangle, with the handedness V grows by; the export the validator refused
 * before (MESH_PRIMITIVE_NO_TANGENT_SPACE) is written. The Blender files of
 * tests/nodes/user_gltf/exporter_files.ts: seeds 1-10 before 10 of 10 refused through graphs/gltf.json.
 */
import { ok as assert } from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { exporterGltf } from "../user_gltf/exporter_files.ts";

/**
 * The Blender file as an embedded .gltf (its .bin inlined as a data: URI); with `anisotropy`, the coat
 * normal map gone and the glass given a textured KHR_materials_anisotropy instead (Blender 4's).
 */
async function blenderFile(seed: number, anisotropy = false): Promise<Uint8Array> {
  const file = await exporterGltf("blender-khr", seed);
  const json = JSON.parse(new TextDecoder().decode(file.files[file.main]));
  json.buffers[0].uri = `data:application/octet-stream;base64,${file.files["Cube.bin"].toBase64()}`;
  if (anisotropy) {
    for (const material of json.materials) {
      delete material.extensions.KHR_materials_clearcoat?.clearcoatNormalTexture;
    }
    json.materials[0].extensions.KHR_materials_anisotropy = {
      anisotropyStrength: 0.6,
      anisotropyTexture: { index: 2 },
    };
    json.extensionsUsed.push("KHR_materials_anisotropy");
  }
  return new TextEncoder().encode(JSON.stringify(json));
}

Deno.test("tangent space: unit, across the normal, along U with V's handedness, warned by material", async () => {
  for (const [seed, anisotropy] of [[1, false], [2, false], [3, true], [4, true]] as const) {
    const ctx = testContext();
    const bytes = await blenderFile(seed, anisotropy);
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "Cube.gltf" } }, {}, ctx);
    const named = anisotropy
      ? /'Glass\.001' has an anisotropy texture/
      : /'Car Paint' has a clear coat normal map/;
    assert(ctx.warnings.some((w) => named.test(w.message)), "no warning names the material");
    const primitive = scene.getRoot().listMeshes()[0].listPrimitives()[anisotropy ? 1 : 0];
    const tangent = primitive.getAttribute("TANGENT"), normal = primitive.getAttribute("NORMAL")!;
    const position = primitive.getAttribute("POSITION")!, uv = primitive.getAttribute("TEXCOORD_0")!;
    assert(tangent, `seed ${seed}: no tangents`);
    const at = (a: typeof position, i: number): number[] => a.getElement(i, [] as number[]);
    for (let v = 0; v < tangent.getCount(); v++) {
      const [x, y, z, w] = at(tangent, v), n = at(normal, v);
      assert(Math.abs(Math.hypot(x, y, z) - 1) < 1e-4 && Math.abs(x * n[0] + y * n[1] + z * n[2]) < 1e-4);
      assert(w === 1 || w === -1);
    }
    // On each triangle, the first corner's tangent leans the way U grows (dP/du), unless U does not change.
    const indices = primitive.getIndices()!;
    let along = 0, against = 0;
    for (let f = 0; f < indices.getCount(); f += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => indices.getScalar(f + k));
      const [p0, p1, p2] = [a, b, c].map((i) => at(position, i)),
        [t0, t1, t2] = [a, b, c].map((i) => at(uv, i));
      const e1 = p1.map((v: number, k: number) => v - p0[k]),
        e2 = p2.map((v: number, k: number) => v - p0[k]);
      const [s1, v1, s2, v2] = [t1[0] - t0[0], t1[1] - t0[1], t2[0] - t0[0], t2[1] - t0[1]];
      const det = s1 * v2 - s2 * v1;
      if (Math.abs(det) < 1e-6) continue;
      const dPdu = e1.map((v: number, k: number) => (v * v2 - e2[k] * v1) / det);
      const t = at(tangent, a);
      if (t[0] * dPdu[0] + t[1] * dPdu[1] + t[2] * dPdu[2] >= 0) along++;
      else against++;
    }
    // The glass draws only the box's two z faces, where V does not change: no triangle to look at.
    if (!anisotropy || along + against > 0) {
      assert(along > against, `seed ${seed}: ${along} triangles along U, ${against} against`);
    }
    await runNode(exportGltf, { scene }, {}, ctx); // refused before: MESH_PRIMITIVE_NO_TANGENT_SPACE
  }
});
