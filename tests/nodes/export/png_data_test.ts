/**
 * `export.gltf` leaves out a PNG whose image data is surely not the size its header declares — a
 * palette PNG one pixel wider than its data, a realistic 1024² texture whose header says 1025 wide —
 * as it leaves out other images no viewer draws right, naming expected and found; a texture whose
 * header says one row taller is not told (that takes inflating all of it: 0.1–0.7 s for a 4K texture).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { unreadableImage } from "../../../nodes/export/check/images.ts";
import { crc32, encodePng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode, testContext } from "../../support/context.ts";
import { palettePng } from "../decode/gltf_png_fixtures.ts";

/** A 1024² albedo-like texture: panels of two tones, a vertical gradient and a little grain. */
async function albedo(): Promise<Uint8Array> {
  await loadPngEncoder();
  const size = 1024, data = new Uint8Array(size * size * 4);
  let x = 7;
  for (let y = 0, o = 0; y < size; y++) {
    for (let i = 0; i < size; i++, o += 4) {
      x = (x * 1103515245 + 12345) >>> 0;
      const grain = (x >>> 29) - 4;
      data.set([140 + ((i >> 7) % 2) * 30 + grain, (y >> 2) + grain + 20, 90 + grain, 255], o);
    }
  }
  return encodePng(size, size, data);
}

/** `png` with its IHDR width or height set to `value`, the header's CRC recomputed. */
function resized(png: Uint8Array, field: "width" | "height", value: number): Uint8Array {
  const out = png.slice();
  const view = new DataView(out.buffer);
  view.setUint32(field === "width" ? 16 : 20, value);
  view.setUint32(29, crc32(out, 12, 29));
  return out;
}

Deno.test("unreadableImage: a PNG header of another size than its data is named where it is cheap to tell", async () => {
  assertEquals(unreadableImage(palettePng(8, 4)), undefined);
  assertEquals(
    unreadableImage(palettePng(8, 4, 9)),
    "PNG data is 36 bytes where its header's 9×4 pixels take 40",
  );
  const texture = await albedo();
  assertEquals(unreadableImage(texture), undefined);
  const wide = unreadableImage(resized(texture, "width", 1025));
  assert(wide?.startsWith("PNG data's row 1 starts with filter "), wide);
  assert(wide?.endsWith("its rows are not the 3076 bytes its header's 1025×1024 pixels take"), wide);
  assert(unreadableImage(resized(texture, "width", 1023))?.includes("1023×1024"));
  // Taller: the rows read right; only the whole data would tell it ends a row early.
  assertEquals(unreadableImage(resized(texture, "height", 1025)), undefined);
  // Far taller than any deflate stream of its size could hold.
  assert(unreadableImage(resized(texture, "height", 2 ** 31 - 1))?.includes("cannot hold"));
});

Deno.test("export.gltf leaves out a palette PNG one pixel wider than its data, naming both sizes", async () => {
  const doc = new Document();
  const texture = doc.createTexture("decal").setImage(palettePng(8, 4, 9)).setMimeType("image/png");
  doc.createMaterial("paint").setBaseColorTexture(texture);
  doc.createScene("Scene").addChild(doc.createNode("empty"));
  const ctx = testContext();
  const glb = (await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes;
  assertEquals(ctx.warnings.map((w) => w.message), [
    "image 'decal' cannot be read (PNG data is 36 bytes where its header's 9×4 pixels take 40); " +
    "materials are drawn without it",
  ]);
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  assertEquals(json.images, undefined);
  assertEquals(json.materials[0].pbrMetallicRoughness?.baseColorTexture, undefined);
});

Deno.test("a scene built in code with a texture but no buffer is written as GLB, not refused by glTF-Transform's writer", async () => {
  const doc = new Document();
  const texture = doc.createTexture("decal").setImage(palettePng(8, 4)).setMimeType("image/png");
  doc.createMaterial("paint").setBaseColorTexture(texture);
  doc.createScene("Scene").addChild(doc.createNode("empty"));
  const glb = (await runNode(exportGltf, { scene: doc })).bytes.bytes;
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  assertEquals(json.images.map((i: { name: string }) => i.name), ["decal"]);
  assertEquals(doc.getRoot().listBuffers().length, 0, "the scene is left as it was");
});
