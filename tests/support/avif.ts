/**
 * AVIF textures for tests, encoded by libavif itself (`npm:@jsquash/avif`'s encoder, with libaom;
 * the codec the decoder under test comes with): lossless, so the pixels a decode must give back are
 * known.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { EXTTextureAVIF } from "@gltf-transform/extensions";
import { type PngPixels, texturedQuadGlb, withTexturesAs } from "./textured.ts";

type Encode = (image: { data: Uint8ClampedArray; width: number; height: number }, options: object) => Promise<
  ArrayBuffer
>;
let encoder: Promise<Encode> | undefined;

function loadEncoder(): Promise<Encode> {
  encoder ??= (async () => {
    const codec = await import("@jsquash/avif/encode.js");
    // Under Deno the codec takes its single-threaded build; handed compiled, it looks for no file.
    const wasm = fileURLToPath(import.meta.resolve("@jsquash/avif/codec/enc/avif_enc.wasm"));
    await (codec.init as unknown as (module: WebAssembly.Module) => Promise<void>)(
      await WebAssembly.compile(await Deno.readFile(wasm)),
    );
    return codec.default as unknown as Encode;
  })();
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
  return withTexturesAs(glb, "image/avif", EXTTextureAVIF, (png: PngPixels) => {
    const rgba = new Uint8Array(png.width * png.height * 4);
    for (let i = 0; i < png.width * png.height; i++) {
      for (let c = 0; c < 4; c++) {
        rgba[i * 4 + c] = c === 3 && png.channels % 2 === 1
          ? 255
          : png.data[i * png.channels + (png.channels < 3 ? (c === 3 ? 1 : 0) : c)];
      }
    }
    return losslessAvif(png.width, png.height, rgba);
  });
}
