/**
 * Every written output passes the validator: what damaged sources leave in a scene (NaN and
 * infinite values, normals far from unit length, indices past the last vertex, broken node
 * transforms) is repaired with a warning, and what cannot be repaired is refused.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode, testContext } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";

/** A triangle scene with the damage a fuzzed .cmp/.3db/DSON decode passes through. */
function damagedScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor("position", buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, NaN, 0, 0, 0, Infinity, 0]),
  );
  const normal = doc.createAccessor("normal", buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 2e36, 0, 0, 0, 0, 1, 0]),
  );
  const indices = doc.createAccessor("indices", buffer).setType("SCALAR").setArray(
    new Uint16Array([0, 1, 7]),
  );
  const primitive = doc.createPrimitive().setAttribute("POSITION", position).setAttribute("NORMAL", normal)
    .setIndices(indices);
  const node = doc.createNode("part").setMesh(doc.createMesh("m").addPrimitive(primitive))
    .setTranslation([NaN, 0, 0]).setRotation([0, 0, 0, 2]);
  doc.createScene("s").addChild(node);
  return doc;
}

for (const format of ["glb", "gltf"]) {
  Deno.test(`${format}: NaN/Inf values, non-unit normals, out-of-range indices and bad transforms are repaired, warned, valid`, async () => {
    const scene = damagedScene();
    const ctx = testContext();
    const { bytes } = await runNode(exportGltf, { scene }, { format }, ctx);
    const report = await validateGltf(bytes.bytes);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const messages = ctx.warnings.map((w) => w.message).join("\n");
    assert.match(messages, /2 non-finite value\(s\) in accessor 'position' set to 0/);
    assert.match(messages, /2 normal\(s\) of accessor 'normal' made unit length/);
    assert.match(messages, /1 index value\(s\) past the last vertex/);
    assert.match(messages, /transform of node 'part' repaired/);
    // The input scene is immutable: the repair worked on a copy.
    assert.ok(Number.isNaN(scene.getRoot().listAccessors()[0].getArray()![3]));
    assert.equal(scene.getRoot().listNodes()[0].getRotation()[3], 2);
  });
}

/** The damaged scene with every value made good: nothing for export to repair. */
function cleanScene() {
  const scene = damagedScene();
  const [position, normal, indices] = scene.getRoot().listAccessors();
  position.setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  normal.setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
  indices.setArray(new Uint16Array([0, 1, 2]));
  scene.getRoot().listNodes()[0].setTranslation([0, 0, 0]).setRotation([0, 0, 0, 1]);
  return scene;
}

Deno.test("a clean scene is written as it is, without warnings", async () => {
  const scene = cleanScene();
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene }, {}, ctx);
  assert.deepEqual(ctx.warnings, []);
  assert.equal((await validateGltf(bytes.bytes)).errors, 0);
});

Deno.test("an output the validator rejects and no repair covers is refused with its code and pointer", async () => {
  const scene = damagedScene();
  const [position, normal] = scene.getRoot().listAccessors();
  position.setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  normal.setArray(new Float32Array([0, 0, 1, 0, 0, 1])); // 2 normals for 3 vertices
  scene.getRoot().listAccessors()[2].setArray(new Uint16Array([0, 1, 2]));
  await assert.rejects(runNode(exportGltf, { scene }, {}, testContext()), (error: unknown) => {
    assert.ok(error instanceof DecodeError);
    assert.equal(error.format, "glb output");
    assert.match(error.found, /MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT/);
    assert.match((error.at as { jsonPath: string }).jsonPath, /^\/meshes\/0\/primitives\/0/);
    return true;
  });
});

Deno.test("a texture sampling a UV set the primitive lacks is pointed at TEXCOORD_0, on the primitive's own material", async () => {
  const scene = cleanScene();
  const png = Uint8Array.fromBase64(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  );
  const texture = scene.createTexture("t").setImage(png).setMimeType("image/png");
  const material = scene.createMaterial("hull").setBaseColorTexture(texture);
  material.getBaseColorTextureInfo()!.setTexCoord(1);
  const uv = scene.createAccessor("uv", scene.getRoot().listBuffers()[0]).setType("VEC2")
    .setArray(new Float32Array(6));
  scene.getRoot().listMeshes()[0].listPrimitives()[0].setAttribute("TEXCOORD_0", uv).setMaterial(material);
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene }, {}, ctx);
  const report = await validateGltf(bytes.bytes);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  assert.match(ctx.warnings.map((w) => w.message).join("\n"), /sampled missing UV sets; they use TEXCOORD_0/);
  assert.equal(material.getBaseColorTextureInfo()!.getTexCoord(), 1, "the input's material is untouched");
});
