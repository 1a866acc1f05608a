/**
 * WebP textures for tests, encoded by libwebp itself (`npm:@jsquash/webp`'s encoder, the codec the
 * decoder under test comes with): lossless, so the pixels a decode must give back are known.
 *
 * @module
 */
import { EXTTextureWebP } from "@gltf-transform/extensions";
import { texturedQuadGlb, withTexturesAs } from "./textured.ts";
import { loadSquooshCodec } from "../../nodes/textures/squoosh.ts";

type Encode = (image: { data: Uint8ClampedArray; width: number; height: number }, options: object) => Promise<
  ArrayBuffer
>;
let encoder: Promise<Encode> | undefined;

function loadEncoder(): Promise<Encode> {
  encoder ??= loadSquooshCodec<Encode>(
    import("@jsquash/webp/encode.js"),
    "@jsquash/webp/codec/enc/webp_enc_simd.wasm",
  );
  return encoder;
}

/** `rgba` (4 bytes a pixel, rows top to bottom) as a lossless WebP (`exact`: colour kept under zero alpha too). */
export async function losslessWebp(width: number, height: number, rgba: Uint8Array): Promise<Uint8Array> {
  const encode = await loadEncoder();
  return new Uint8Array(
    await encode({ data: new Uint8ClampedArray(rgba), width, height }, { lossless: 1, exact: 1 }),
  );
}

/** A GLB of one textured quad whose base colour is `webp`, required through `EXT_texture_webp`. */
export function webpQuadGlb(webp: Uint8Array): Promise<Uint8Array> {
  return texturedQuadGlb(webp, "image/webp", EXTTextureWebP);
}

/** `glb` with every PNG texture re-encoded as lossless WebP, `EXT_texture_webp` required. */
export function withWebpTextures(glb: Uint8Array): Promise<Uint8Array> {
  return withTexturesAs(
    glb,
    "image/webp",
    EXTTextureWebP,
    (rgba, width, height) => losslessWebp(width, height, rgba),
  );
}
