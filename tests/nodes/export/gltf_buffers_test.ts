/**
 * `.gltf` output of scenes with data and no buffer, or a buffer and nothing to store in it: a
 * texture-only scene (a decal or material library, a GLB's textures read without its meshes) was
 * refused — glTF-Transform wrote an empty buffer without `byteLength`, which the Khronos validator
 * rejects. Each output here is checked by the Khronos validator itself (`validate: "khronos"`).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode } from "../../support/context.ts";
import { palettePng } from "../decode/gltf_png_fixtures.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A material library: one textured material, a node, no mesh; with `buffer`, an unused buffer too. */
function textureOnly(buffer: boolean): Document {
  const doc = new Document();
  if (buffer) doc.createBuffer("leftover");
  const texture = doc.createTexture("decal").setImage(palettePng(8, 4)).setMimeType("image/png");
  doc.createMaterial("paint").setBaseColorTexture(texture);
  doc.createScene("Scene").addChild(doc.createNode("empty"));
  return doc;
}

async function writtenGltf(doc: Document): Promise<Json> {
  const out = await runNode(exportGltf, { scene: doc }, { format: "gltf", validate: "khronos" });
  assertEquals(out.bytes.name, "scene.gltf");
  return JSON.parse(new TextDecoder().decode(out.bytes.bytes));
}

for (const buffer of [false, true]) {
  Deno.test(`a texture-only scene ${buffer ? "with an unused buffer" : "without a buffer"} is written as .gltf with no buffer, its image a data URI`, async () => {
    const doc = textureOnly(buffer);
    const json = await writtenGltf(doc);
    assertEquals(json.buffers, undefined);
    assertEquals(json.bufferViews, undefined);
    assertEquals(json.images.length, 1);
    assert(json.images[0].uri.startsWith("data:image/png;base64,"));
    assertEquals(doc.getRoot().listBuffers().length, buffer ? 1 : 0, "the scene is left as it was");
    // Read back, the image is the same bytes.
    const back = await readGltf(new TextEncoder().encode(JSON.stringify(json)));
    assertEquals(back.getRoot().listTextures()[0].getImage(), palettePng(8, 4));
  });
}

Deno.test("a .gltf of accessors and no buffer is given one, with its byteLength", async () => {
  const doc = new Document();
  const position = doc.createAccessor("p").setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const mesh = doc.createMesh("tri").addPrimitive(doc.createPrimitive().setAttribute("POSITION", position));
  doc.createScene("Scene").addChild(doc.createNode("tri").setMesh(mesh));
  const json = await writtenGltf(doc);
  assertEquals(json.buffers.length, 1);
  assertEquals(json.buffers[0].byteLength, 36);
  assertEquals(doc.getRoot().listBuffers().length, 0, "the scene is left as it was");
  assert(position.getBuffer() === null);
});

for (const format of ["gltf", "glb"] as const) {
  Deno.test(`a ${format} of one buffered accessor and one without a buffer stores both in one buffer`, async () => {
    const doc = new Document();
    const buffer = doc.createBuffer("main");
    const position = doc.createAccessor("p").setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    // createAccessor gives the first buffer; a scene built so (or whose buffer was unset) has none.
    const indices = doc.createAccessor("i").setBuffer(null).setType("SCALAR").setArray(
      new Uint16Array([0, 1, 2]),
    );
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setIndices(indices);
    doc.createScene("Scene").addChild(
      doc.createNode("tri").setMesh(doc.createMesh("tri").addPrimitive(primitive)),
    );
    const out = await runNode(exportGltf, { scene: doc }, { format, validate: "khronos" });
    const back = await readGltf(out.bytes.bytes);
    const [readIndices] = back.getRoot().listAccessors().filter((a) => a.getType() === "SCALAR");
    assertEquals(Array.from(readIndices.getArray()!), [0, 1, 2]);
    assertEquals(back.getRoot().listBuffers().length, 1);
    assert(indices.getBuffer() === null, "the scene is left as it was");
  });
}
