/**
 * Targa: colour-mapped, true-colour and grey-scale images, plain or run-length encoded (types 9, 10,
 * 11), to RGBA8, rows in file order whatever origin the descriptor declares: which row is the top
 * depends on the reader the file was made for (Freelancer samples a Targa's rows in file order; glTF
 * tools honour the descriptor's origin), so each caller orders them (`targaTopLeft` tells).
 * 15- and 16-bit pixels and colour maps are X1R5G5B5 (the top bit is alpha only when the descriptor
 * declares an attribute bit).
 *
 * @module
 */
import type { ByteWindow } from "../binary.ts";
import type { RgbaImage } from "./dds.ts";

/** Whether a Targa's descriptor (byte 17) declares its first stored row the top one. */
export function targaTopLeft(tga: ByteWindow): boolean {
  return (tga.bytes[tga.start + 17] & 0x20) !== 0;
}

const COLOR_MAPPED = 1;
const TRUE_COLOR = 2;
const GREY = 3;
/** Added to an image type for its run-length encoded form. */
const RLE = 8;
const ALPHA_BITS = 0x0f;
/** Pixels one RLE packet can hold at most. */
const RLE_PACKET_PIXELS = 128;

/**
 * Decodes a Targa image.
 *
 * @example
 * ```ts
 * import { ByteWindow } from "../binary.ts";
 *
 * const file = await Deno.readFile("cockpit.tga");
 * const { width, height, data } = decodeTga(ByteWindow.of(file, "tga", "cockpit.tga"));
 * ```
 */
export function decodeTga(tga: ByteWindow): RgbaImage {
  tga.need(0, 18, "Targa header");
  const bytes = tga.view(0, tga.length);
  const idLength = bytes[0];
  const storedType = bytes[2];
  const mapFirst = tga.u16(3, "colour map first entry");
  const mapLength = tga.u16(5, "colour map length");
  const mapDepth = bytes[7];
  const width = tga.u16(12, "Targa width");
  const height = tga.u16(14, "Targa height");
  const depth = bytes[16];
  const descriptor = bytes[17];
  const rle = storedType > RLE;
  const imageType = rle ? storedType - RLE : storedType;
  if (imageType !== COLOR_MAPPED && imageType !== TRUE_COLOR && imageType !== GREY) {
    tga.fail(2, "Targa image type 1, 2 or 3, or 9, 10 or 11 (run-length encoded)", String(storedType));
  }
  if (width < 1 || height < 1) tga.fail(12, "a non-empty Targa image", `${width}×${height}`);
  // Without attribute bits in the descriptor, a 16-bit pixel's top bit is padding (X1R5G5B5), not alpha.
  const alphaBits = descriptor & ALPHA_BITS;
  let at = 18 + idLength;
  let palette: Uint8Array | undefined;
  if (imageType === COLOR_MAPPED) {
    if (depth !== 8) tga.fail(16, "8-bit colour-map indices", String(depth));
    if (mapDepth !== 15 && mapDepth !== 16 && mapDepth !== 24 && mapDepth !== 32) {
      tga.fail(7, "a 15-, 16-, 24- or 32-bit colour map", String(mapDepth));
    }
    const entry = (mapDepth + 1) >> 3;
    tga.need(at, mapLength * entry, "Targa colour map");
    palette = new Uint8Array(256 * 4);
    for (let i = 0; i < mapLength && mapFirst + i < 256; i++) {
      readPixel(bytes, at + i * entry, entry, alphaBits, palette, (mapFirst + i) * 4);
    }
    at += mapLength * entry;
  } else if (imageType === TRUE_COLOR && depth !== 15 && depth !== 16 && depth !== 24 && depth !== 32) {
    tga.fail(16, "15, 16, 24 or 32 bits per pixel", String(depth));
  } else if (imageType === GREY && depth !== 8) {
    tga.fail(16, "8-bit grey", String(depth));
  }
  const bpp = (depth + 1) >> 3;
  let pixels: Uint8Array, pixelAt: number;
  if (rle) {
    pixels = expandRle(tga, bytes, at, width * height, bpp);
    pixelAt = 0;
  } else {
    tga.need(at, width * height * bpp, "Targa pixels");
    pixels = bytes;
    pixelAt = at;
  }
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = pixelAt + (y * width + x) * bpp, d = (y * width + x) * 4;
      if (palette) {
        out.set(palette.subarray(pixels[s] * 4, pixels[s] * 4 + 4), d);
      } else if (bpp === 1) {
        out[d] = out[d + 1] = out[d + 2] = pixels[s];
        out[d + 3] = 255;
      } else {
        readPixel(pixels, s, bpp, alphaBits, out, d);
      }
    }
  }
  return { width, height, data: out };
}

/** One 2-, 3- or 4-byte Targa pixel (or colour-map entry) at `s` as RGBA at `d`. */
function readPixel(
  src: Uint8Array,
  s: number,
  bpp: number,
  alphaBits: number,
  out: Uint8Array,
  d: number,
): void {
  if (bpp === 2) {
    const v = src[s] | src[s + 1] << 8;
    out[d] = (v >> 10 & 31) * 255 / 31;
    out[d + 1] = (v >> 5 & 31) * 255 / 31;
    out[d + 2] = (v & 31) * 255 / 31;
    out[d + 3] = !alphaBits || v & 0x8000 ? 255 : 0;
  } else {
    out[d] = src[s + 2];
    out[d + 1] = src[s + 1];
    out[d + 2] = src[s];
    out[d + 3] = bpp === 4 ? src[s + 3] : 255;
  }
}

/**
 * Expands run-length encoded pixels (a packet header byte: top bit set = the next pixel repeated
 * `(header & 127) + 1` times, clear = that many literal pixels). Runs may cross rows, as the
 * format allows; a packet past the image or past the data is a DecodeError at its header.
 */
function expandRle(tga: ByteWindow, bytes: Uint8Array, at: number, count: number, bpp: number): Uint8Array {
  // Every packet holds at most 128 pixels in at least 1 + bpp bytes: refuse a size the data cannot
  // hold before allocating it.
  tga.need(at, Math.ceil(count / RLE_PACKET_PIXELS) * (1 + bpp), "Targa run-length packets");
  const out = new Uint8Array(count * bpp);
  let pixel = 0;
  while (pixel < count) {
    tga.need(at, 1, "Targa RLE packet header");
    const header = bytes[at];
    const run = (header & 127) + 1;
    if (pixel + run > count) {
      tga.fail(at, `an RLE packet within the image's ${count} pixels`, `${run} pixels from pixel ${pixel}`);
    }
    if (header & 0x80) {
      tga.need(at + 1, bpp, "Targa RLE pixel");
      for (let i = 0; i < run; i++) out.set(bytes.subarray(at + 1, at + 1 + bpp), (pixel + i) * bpp);
      at += 1 + bpp;
    } else {
      tga.need(at + 1, run * bpp, "Targa RLE pixels");
      out.set(bytes.subarray(at + 1, at + 1 + run * bpp), pixel * bpp);
      at += 1 + run * bpp;
    }
    pixel += run;
  }
  return out;
}
