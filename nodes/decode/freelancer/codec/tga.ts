/**
 * Targa (the `MIP0` leaf of a texture): uncompressed colour-mapped, true-colour and grey-scale
 * images to RGBA8, flipped to top row first. Freelancer never uses RLE Targa.
 *
 * @module
 */
import type { ByteWindow } from "../../../../runtime/binary.ts";
import type { RgbaImage } from "./dds.ts";

const COLOR_MAPPED = 1;
const TRUE_COLOR = 2;
const GREY = 3;
const TOP_LEFT_ORIGIN = 0x20;
const ALPHA_BITS = 0x0f;

/**
 * Decodes an uncompressed Targa image.
 *
 * @example
 * ```ts
 * const { width, height, data } = decodeTga(window);
 * ```
 */
export function decodeTga(tga: ByteWindow): RgbaImage {
  tga.need(0, 18, "Targa header");
  const bytes = tga.view(0, tga.length);
  const idLength = bytes[0];
  const imageType = bytes[2];
  const mapFirst = tga.u16(3, "colour map first entry");
  const mapLength = tga.u16(5, "colour map length");
  const mapDepth = bytes[7];
  const width = tga.u16(12, "Targa width");
  const height = tga.u16(14, "Targa height");
  const depth = bytes[16];
  const descriptor = bytes[17];
  if (imageType !== COLOR_MAPPED && imageType !== TRUE_COLOR && imageType !== GREY) {
    tga.fail(2, "Targa image type 1, 2 or 3 (uncompressed)", String(imageType));
  }
  if (width < 1 || height < 1) tga.fail(12, "a non-empty Targa image", `${width}×${height}`);
  let at = 18 + idLength;
  let palette: Uint8Array | undefined;
  if (imageType === COLOR_MAPPED) {
    if (depth !== 8) tga.fail(16, "8-bit colour-map indices", String(depth));
    if (mapDepth !== 24 && mapDepth !== 32) tga.fail(7, "a 24- or 32-bit colour map", String(mapDepth));
    const entry = mapDepth >> 3;
    tga.need(at, mapLength * entry, "Targa colour map");
    palette = new Uint8Array(256 * 4);
    for (let i = 0; i < mapLength && mapFirst + i < 256; i++) {
      const o = at + i * entry, p = (mapFirst + i) * 4;
      palette[p] = bytes[o + 2];
      palette[p + 1] = bytes[o + 1];
      palette[p + 2] = bytes[o];
      palette[p + 3] = entry === 4 ? bytes[o + 3] : 255;
    }
    at += mapLength * entry;
  } else if (imageType === TRUE_COLOR && depth !== 16 && depth !== 24 && depth !== 32) {
    tga.fail(16, "16, 24 or 32 bits per pixel", String(depth));
  } else if (imageType === GREY && depth !== 8) {
    tga.fail(16, "8-bit grey", String(depth));
  }
  const bpp = depth >> 3;
  tga.need(at, width * height * bpp, "Targa pixels");
  const out = new Uint8Array(width * height * 4);
  const flip = !(descriptor & TOP_LEFT_ORIGIN);
  // Without attribute bits in the descriptor, a 16-bit pixel's top bit is padding (X1R5G5B5), not alpha.
  const alphaBits = descriptor & ALPHA_BITS;
  for (let y = 0; y < height; y++) {
    const row = flip ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      const s = at + (y * width + x) * bpp, d = (row * width + x) * 4;
      if (palette) {
        out.set(palette.subarray(bytes[s] * 4, bytes[s] * 4 + 4), d);
      } else if (bpp === 1) {
        out[d] = out[d + 1] = out[d + 2] = bytes[s];
        out[d + 3] = 255;
      } else if (bpp === 2) {
        const v = bytes[s] | bytes[s + 1] << 8;
        out[d] = (v >> 10 & 31) * 255 / 31;
        out[d + 1] = (v >> 5 & 31) * 255 / 31;
        out[d + 2] = (v & 31) * 255 / 31;
        out[d + 3] = !alphaBits || v & 0x8000 ? 255 : 0;
      } else {
        out[d] = bytes[s + 2];
        out[d + 1] = bytes[s + 1];
        out[d + 2] = bytes[s];
        out[d + 3] = bpp === 4 ? bytes[s + 3] : 255;
      }
    }
  }
  return { width, height, data: out };
}
