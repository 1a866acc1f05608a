/**
 * One WebP image under two textures, each with a PNG fallback of its own (a tool that wrote one WebP
 * for two slots and a per-slot PNG): read by `decode.gltf` and written by `export.gltf`, each texture
 * keeps its own fallback (`runtime/scene/webp_fallback.ts` reads the image once per fallback). Before,
 * both textures took the first's: Blender 3.4, which shows the fallback, drew the second slot with
 * the first slot's picture, silently.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode } from "../../support/context.ts";
import { glbOf } from "../../support/shapes.ts";
import { fallbackGlb, glbParts, imageBytes, pixels } from "../../support/image_fallback.ts";
import { losslessWebp } from "../../support/webp.ts";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** `glb` with a second texture of image 0 (the WebP) whose fallback is `png`, the material's emissive map. */
function withSecondFallback(glb: Uint8Array, png: Uint8Array): Uint8Array {
  const { json, bin } = glbParts(glb);
  const at = bin.byteLength + ((4 - (bin.byteLength % 4)) % 4);
  const grown = new Uint8Array(at + png.byteLength + ((4 - (png.byteLength % 4)) % 4));
  grown.set(bin);
  grown.set(png, at);
  json.buffers[0].byteLength = grown.byteLength;
  json.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: png.byteLength });
  json.images.push({ bufferView: json.bufferViews.length - 1, mimeType: "image/png", name: "glow_fallback" });
  json.textures.push({
    source: json.images.length - 1,
    extensions: { EXT_texture_webp: { source: json.textures[0].extensions.EXT_texture_webp.source } },
  });
  json.materials[0].emissiveTexture = { index: json.textures.length - 1 };
  json.materials[0].emissiveFactor = [1, 1, 1];
  return glbOf(json, grown);
}

Deno.test("one WebP image under two textures keeps each texture's own PNG fallback through decode and export", async () => {
  await loadPngEncoder();
  const rgba = pixels();
  const paint = encodeRgbaPng(8, 8, rgba);
  // The second slot's fallback: another picture (the first's colours swapped), as its own PNG.
  const glow = encodeRgbaPng(8, 8, rgba.map((v, i) => (i % 4 === 3 ? v : 255 - v)));
  const glb = withSecondFallback(await fallbackGlb(paint, await losslessWebp(8, 8, rgba)), glow);
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb, name: "slots.glb" } });
  const written = glbParts((await runNode(exportGltf, { scene }, {})).bytes.bytes);
  const material: Json = written.json.materials[0];
  const fallbackOf = (info: Json) => imageBytes(written, written.json.textures[info.index].source);
  const webpOf = (info: Json) =>
    imageBytes(written, written.json.textures[info.index].extensions.EXT_texture_webp.source);
  assertEquals(fallbackOf(material.pbrMetallicRoughness.baseColorTexture), paint);
  assertEquals(fallbackOf(material.emissiveTexture), glow);
  assertEquals(webpOf(material.emissiveTexture), webpOf(material.pbrMetallicRoughness.baseColorTexture));
});
