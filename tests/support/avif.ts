/**
 * AVIF textures for tests, encoded by libavif itself (`npm:@jsquash/avif`'s encoder, with libaom;
 * the codec the decoder under test comes with): lossless, so the pixels a decode must give back are
 * known.
 *
 * @module
 */
import { EXTTextureAVIF } from "@gltf-transform/extensions";
import { texturedQuadGlb, withTexturesAs } from "./textured.ts";
import { loadSquooshCodec } from "../../nodes/textures/squoosh.ts";

type Encode = (image: { data: Uint8ClampedArray; width: number; height: number }, options: object) => Promise<
  ArrayBuffer
>;
let encoder: Promise<Encode> | undefined;

function loadEncoder(): Promise<Encode> {
  encoder ??= loadSquooshCodec<Encode>(
    import("@jsquash/avif/encode.js"),
    "@jsquash/avif/codec/enc/avif_enc.wasm",
  );
  return encoder;
}

/** `rgba` (4 bytes a pixel, rows top to bottom) as a lossless AVIF (libaom's fastest setting). */
export async function losslessAvif(width: number, height: number, rgba: Uint8Array): Promise<Uint8Array> {
  const encode = await loadEncoder();
  return new Uint8Array(
    await encode({ data: new Uint8ClampedArray(rgba), width, height }, { lossless: true, speed: 10 }),
  );
}

/** A GLB of one textured quad whose base colour is `avif`, required through `EXT_texture_avif`. */
export function avifQuadGlb(avif: Uint8Array): Promise<Uint8Array> {
  return texturedQuadGlb(avif, "image/avif", EXTTextureAVIF);
}

/** `glb` with every PNG texture re-encoded as lossless AVIF, `EXT_texture_avif` required. */
export function withAvifTextures(glb: Uint8Array): Promise<Uint8Array> {
  return withTexturesAs(
    glb,
    "image/avif",
    EXTTextureAVIF,
    (rgba, width, height) => losslessAvif(width, height, rgba),
  );
}
