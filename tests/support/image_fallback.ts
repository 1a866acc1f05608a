/**
 * Textures as a WebP- or AVIF-writing tool with a fallback gives them: the extension's image, and the
 * same pixels as PNG in the texture's core `source` (the extension optional). Shared by the decode and
 * `textures.to_png` tests.
 *
 * @module
 */
import { type Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, type EXTTextureAVIF, EXTTextureWebP } from "@gltf-transform/extensions";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { glbOf } from "./shapes.ts";
import { texturedQuadGlb } from "./textured.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A GLB's JSON and binary chunk. */
export function glbParts(glb: Uint8Array): { json: Json; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset);
  const length = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  const at = 20 + length;
  return { json, bin: glb.subarray(at + 8, at + 8 + view.getUint32(at, true)) };
}

/** The bytes of image `index` of a GLB. */
export function imageBytes({ json, bin }: { json: Json; bin: Uint8Array }, index: number): Uint8Array {
  const view = json.bufferViews[json.images[index].bufferView];
  return bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
}

/** 8×8 pixels of two colours, as RGBA. */
export function pixels(): Uint8Array {
  const rgba = new Uint8Array(8 * 8 * 4);
  for (let p = 0; p < 64; p++) rgba.set(p % 3 ? [200, 40, 30, 255] : [20, 90, 220, 255], p * 4);
  return rgba;
}

/**
 * A textured quad as a WebP-writing tool with a fallback gives it: the WebP in `EXT_texture_webp`
 * (optional), the same pixels as PNG in the texture's `source`. Made with stock glTF-Transform (a
 * WebP-only quad, plus the PNG as a second image) and the texture's JSON then given both.
 */
export async function fallbackGlb(
  png: Uint8Array,
  webp: Uint8Array,
  mimeType = "image/webp",
  Extension: typeof EXTTextureWebP | typeof EXTTextureAVIF = EXTTextureWebP,
): Promise<Uint8Array> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc: Document = await io.readBinary(await texturedQuadGlb(webp, mimeType, Extension));
  doc.createTexture("paint_fallback").setImage(png).setMimeType("image/png");
  const { json, bin } = glbParts(await io.writeBinary(doc));
  assertEquals(json.images.map((i: Json) => i.mimeType), [mimeType, "image/png"]);
  json.textures[0].source = 1;
  json.extensionsRequired = (json.extensionsRequired ?? []).filter((e: string) =>
    e !== Extension.EXTENSION_NAME
  );
  if (json.extensionsRequired.length === 0) delete json.extensionsRequired;
  return glbOf(json, bin);
}
