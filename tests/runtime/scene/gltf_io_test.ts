import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { GENERATOR } from "../../../runtime/version.ts";

/** A scene whose node and scene names clash, so unique names rename, with a mesh for a binary chunk. */
function clashingScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setBuffer(buffer).setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const mesh = doc.createMesh("m").addPrimitive(doc.createPrimitive().setAttribute("POSITION", position));
  const scene = doc.createScene("wing");
  scene.addChild(doc.createNode("wing").setMesh(mesh)).addChild(doc.createNode("wing"));
  return doc;
}

/** The JSON and BIN chunks of a GLB. */
function chunks(glb: Uint8Array): { json: Record<string, unknown>; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  return { json, bin: glb.subarray(28 + jsonLength) };
}

Deno.test("both spellings of one document's GLB are the bytes a fresh write of each gives", async () => {
  const doc = clashingScene();
  const options = { generator: GENERATOR };
  // The cache's spelling first, then the export's: the second is assembled from the first write.
  const asIs = await writeGlb(doc, options);
  const unique = await writeGlb(doc, { ...options, uniqueNames: true });
  assert.deepEqual(unique, await writeGlb(copyScene(doc), { ...options, uniqueNames: true }));
  assert.deepEqual(asIs, await writeGlb(copyScene(doc), options));
  // And in the other order, on a document not written yet.
  const other = clashingScene();
  assert.deepEqual(await writeGlb(other, { ...options, uniqueNames: true }), unique);
  assert.deepEqual(await writeGlb(other, options), asIs);

  const [a, b] = [chunks(asIs), chunks(unique)];
  assert.deepEqual(a.bin, b.bin);
  assert.deepEqual((a.json.nodes as { name: string }[]).map((n) => n.name), ["wing", "wing"]);
  assert.deepEqual((b.json.nodes as { name: string }[]).map((n) => n.name), ["wing", "wing_1"]);
  // The remembered JSON keeps the document's own names: the cache's spelling still reads back as is.
  const again = await readGltf(await writeGlb(doc, options));
  assert.deepEqual(again.getRoot().listNodes().map((n) => n.getName()), ["wing", "wing"]);
});
