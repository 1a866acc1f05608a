/**
 * export.gltf names a mesh node whose world bounds reach past 50 km from the origin (a damaged
 * coordinate, an overflowing scale): Blender and three.js load such a file without a word and frame the
 * whole scene, so the model shows as a speck (fuzz survivors did, `scripts/survivor_clients_sweep.ts`).
 * Through the parents' transforms, quantized positions dequantized; a skinned mesh by its own bounds.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { KHRMeshQuantization } from "@gltf-transform/extensions";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";

function box(
  doc: Document,
  name: string,
  half: number,
  array: Float32Array<ArrayBuffer> | Int16Array<ArrayBuffer> = new Float32Array(0),
) {
  const positions = array.length
    ? array
    : Float32Array.from([-half, -half, -half, half, -half, -half, 0, half, half]);
  const accessor = doc.createAccessor(name).setType("VEC3").setArray(positions)
    .setBuffer(doc.getRoot().listBuffers()[0]).setNormalized(array instanceof Int16Array);
  return doc.createMesh(name).addPrimitive(doc.createPrimitive().setAttribute("POSITION", accessor));
}

async function farWarnings(doc: Document): Promise<string[]> {
  const ctx = testContext();
  await runNode(exportGltf, { scene: doc }, {}, ctx);
  return ctx.warnings.map((w) => w.message).filter((m) => / m from the origin/.test(m));
}

Deno.test("a mesh node reaching 1e28 m, or carried 3e5 m out by its parent, is named; 40 km ones are not", async () => {
  const doc = new Document();
  doc.createBuffer();
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  const scene = doc.createScene();
  scene.addChild(doc.createNode("Hull").setMesh(box(doc, "hull", 20)));
  scene.addChild(doc.createNode("Spike").setMesh(box(doc, "spike", 1e28)));
  const carrier = doc.createNode("Carrier").setTranslation([3e5, 0, 0]);
  carrier.addChild(doc.createNode("Pod").setMesh(box(doc, "pod", 1)));
  scene.addChild(carrier);
  // A terrain tile 40 km wide, and positions normalized to ±1 scaled by 2e4: both within 50 km.
  scene.addChild(doc.createNode("Terrain").setMesh(box(doc, "terrain", 2e4)));
  scene.addChild(
    doc.createNode("Quantized").setScale([2e4, 2e4, 2e4])
      .setMesh(box(doc, "quantized", 0, Int16Array.of(-32767, 0, 0, 32767, 0, 0, 0, 32767, 0))),
  );
  const found = await farWarnings(doc);
  assert.equal(found.length, 2, found.join("\n"));
  assert.match(found[0], /^mesh 'spike' of node 'Spike' reaches 1\.73e\+28 m from the origin/);
  assert.match(found[1], /^mesh 'pod' of node 'Pod' reaches 3\.00e\+5 m from the origin/);
});

Deno.test("a skin whose inverse bind matrix throws it 1e20 m out is named; one bound where it stands is not", async () => {
  const warned = async (offset: number) => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const mesh = box(doc, "body", 1);
    const primitive = mesh.listPrimitives()[0];
    const vec4 = (array: Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>) =>
      doc.createAccessor().setType("VEC4").setArray(array).setBuffer(buffer);
    primitive.setAttribute("JOINTS_0", vec4(new Uint8Array(12)));
    primitive.setAttribute("WEIGHTS_0", vec4(Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
    const joint = doc.createNode("Root").setTranslation([0, 2, 0]);
    const inverse = Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, offset, -2, 0, 1]);
    const skin = doc.createSkin("rig").addJoint(joint)
      .setInverseBindMatrices(doc.createAccessor().setType("MAT4").setArray(inverse).setBuffer(buffer));
    doc.createScene().addChild(joint).addChild(doc.createNode("Body").setMesh(mesh).setSkin(skin));
    return await farWarnings(doc);
  };
  assert.deepEqual(await warned(0), []);
  const found = await warned(1e20);
  assert.equal(found.length, 1, found.join("\n"));
  assert.match(
    found[0],
    /^mesh 'body' of node 'Body' may reach 1\.00e\+20 m from the origin .*inverse bind matrix/,
  );
});
