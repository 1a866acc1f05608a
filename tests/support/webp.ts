/**
 * WebP textures for tests, encoded by libwebp itself (`npm:@jsquash/webp`'s encoder, the codec the
 * decoder under test comes with): lossless, so the pixels a decode must give back are known.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { EXTTextureWebP } from "@gltf-transform/extensions";
import { type PngPixels, texturedQuadGlb, withTexturesAs } from "./textured.ts";

type Encode = (image: { data: Uint8ClampedArray; width: number; height: number }, options: object) => Promise<
  ArrayBuffer
>;
let encoder: Promise<Encode> | undefined;

function loadEncoder(): Promise<Encode> {
  encoder ??= (async () => {
    const codec = await import("@jsquash/webp/encode.js");
    // The codec picks its SIMD build where WebAssembly has SIMD (Deno's V8 does), and takes it compiled.
    const wasm = fileURLToPath(import.meta.resolve("@jsquash/webp/codec/enc/webp_enc_simd.wasm"));
    await (codec.init as unknown as (module: WebAssembly.Module) => Promise<void>)(
      await WebAssembly.compile(await Deno.readFile(wasm)),
    );
    return codec.default as unknown as Encode;
  })();
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
  return withTexturesAs(glb, "image/webp", EXTTextureWebP, (png: PngPixels) => {
    const rgba = new Uint8Array(png.width * png.height * 4);
    for (let i = 0; i < png.width * png.height; i++) {
      for (let c = 0; c < 4; c++) {
        rgba[i * 4 + c] = c === 3 && png.channels % 2 === 1
          ? 255
          : png.data[i * png.channels + (png.channels < 3 ? (c === 3 ? 1 : 0) : c)];
      }
    }
    return losslessWebp(png.width, png.height, rgba);
  });
}
