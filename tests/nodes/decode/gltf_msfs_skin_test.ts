/**
 * Skinned meshes in Flight Simulator's packing (`ASOBO_primitive` VertexType `BLEND4`/`BLEND1`):
 * weights as four half floats filed as unnormalized `UNSIGNED_SHORT`, or one float per vertex filed
 * as `SCALAR`, and colours as unsigned bytes filed as `BYTE`. Before, the decoder refused the whole
 * model at its weights. Fixtures are code-made boxes (`tests/support/msfs_packed.ts`); the expected
 * weights and colours are the generator's, and three.js poses the decoded skin.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as THREE from "three";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import {
  PACKED_SKIN_JOINTS,
  packedSkinColour,
  packedSkinnedGlb,
  packedSkinWeights,
} from "../../support/msfs_packed.ts";
import { load } from "../../support/threejs_client.ts";
import { validateGltf } from "../../support/validator.ts";

/** The packed skinned box decoded and exported: scene, GLB, warnings and validator messages. */
async function decoded(blend: 4 | 1) {
  const ctx = testContext();
  const bytes = packedSkinnedGlb({ blend });
  const scene: Document = (await runNode(decodeGltf, { bytes: { bytes, name: "pilot.glb" } }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  return {
    scene,
    glb,
    warnings: ctx.warnings.map((w) => w.message),
    errors: (await validateGltf(glb)).messages,
  };
}

for (const blend of [4, 1] as const) {
  Deno.test(`MSFS packed skin (BLEND${blend}): weights, joints and byte colours read as the sim reads them`, async () => {
    const { scene, warnings, errors } = await decoded(blend);
    const primitive = scene.getRoot().listMeshes()[0].listPrimitives()[0];
    const joints = primitive.getAttribute("JOINTS_0")!, weights = primitive.getAttribute("WEIGHTS_0")!;
    const colours = primitive.getAttribute("COLOR_0")!;
    assertEquals([weights.getType(), weights.getComponentType()], ["VEC4", 5126]);
    assertEquals([colours.getComponentType(), colours.getNormalized()], [5121, true]);
    for (let v = 0; v < primitive.getAttribute("POSITION")!.getCount(); v++) {
      // The colour's red says the face (40 f), which says the weights the generator gave.
      const colour = colours.getElement(v, []);
      const face = Math.round(colour[0] * 255 / 40);
      assertEquals(colour.map((c) => Math.round(c * 255)), packedSkinColour(face));
      const expected = packedSkinWeights(blend, 4 * face);
      assertEquals(weights.getElement(v, []), expected.weights);
      assertEquals(joints.getElement(v, []), expected.joints);
    }
    const kind = blend === 4
      ? /skin weights in 16-bit half floats .*BLEND4/
      : /one float skin weight .*BLEND1/;
    assert(warnings.some((w) => kind.test(w)), warnings.join("\n"));
    assert(
      warnings.some((w) => /vertex colours in unsigned bytes filed as BYTE/.test(w)),
      warnings.join("\n"),
    );
    assertEquals(errors, []);
  });
}

Deno.test("MSFS packed skin (BLEND4): three.js poses the top face by 0.75 of its lid joint's move", async () => {
  const loaded = await load((await decoded(4)).glb);
  const mesh = loaded.byName.get("box") as THREE.SkinnedMesh;
  assert(mesh.isSkinnedMesh, "skinned");
  assertEquals(mesh.skeleton.bones.map((b) => b.name), [...PACKED_SKIN_JOINTS]);
  const lid = mesh.skeleton.bones[1];
  lid.position.y += 1;
  loaded.scene.updateMatrixWorld(true);
  mesh.skeleton.update();
  const positions = mesh.geometry.getAttribute("position");
  const colours = mesh.geometry.getAttribute("color");
  let top = 0;
  for (let i = 0; i < positions.count; i++) {
    const rest = new THREE.Vector3().fromBufferAttribute(positions, i);
    const posed = mesh.applyBoneTransform(i, rest.clone());
    const face = Math.round(colours.getX(i) * 255 / 40);
    // The top face weighs lid 0.75 and hull 0.25: it rises 0.75; every other vertex is hull's alone.
    const rise = face === 4 ? 0.75 : 0;
    if (face === 4) top++;
    assert(Math.abs(posed.y - rest.y - rise) < 1e-3, `vertex ${i} of face ${face} rose ${posed.y - rest.y}`);
  }
  assertEquals(top, 4);
});
