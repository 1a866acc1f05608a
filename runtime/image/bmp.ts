/**
 * Windows bitmaps (BMP): the info-header family (40, 52, 56, 108 and 124 bytes), 1-, 4- and 8-bit palettes,
 * 16-, 24- and 32-bit pixels, plain or with bit-field masks, to RGBA8 rows top first. Run-length and
 * embedded JPEG/PNG compression are refused. Sizes are checked against the data before the output is
 * allocated. Where writers differ from the format's letter, pixels are read as browsers read them: a
 * pixel data offset of 0 means right after the palette, and a plain 32-bit pixel's fourth byte is
 * alpha unless it is zero throughout.
 *
 * @module
 */
import type { ByteWindow } from "../binary.ts";

/** Decoded RGBA8 pixels, top row first. */
export interface BmpImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

const HEADER_SIZES = [40, 52, 56, 108, 124];
const BI_RGB = 0, BI_BITFIELDS = 3, BI_ALPHABITFIELDS = 6;
const MAX_SIDE = 16384;

/**
 * Decodes a BMP file; a {@link ByteWindow} failure (typed, with its byte offset) otherwise.
 *
 * @example
 * ```ts
 * import { ByteWindow } from "../binary.ts";
 *
 * const file = await Deno.readFile("wing.bmp");
 * const { width, height, data } = decodeBmp(ByteWindow.of(file, "bmp", "wing.bmp"));
 * ```
 */
export function decodeBmp(bmp: ByteWindow): BmpImage {
  bmp.need(0, 54, "BMP file and info headers");
  const bytes = bmp.view(0, bmp.length);
  if (bytes[0] !== 0x42 || bytes[1] !== 0x4d) bmp.fail(0, "the BMP signature 'BM'", "other bytes");
  const pixelsAt = bmp.u32(10, "BMP pixel data offset");
  const headerSize = bmp.u32(14, "BMP info header size");
  if (!HEADER_SIZES.includes(headerSize)) {
    bmp.fail(14, `a BMP info header of ${HEADER_SIZES.join(", ")} bytes`, String(headerSize));
  }
  bmp.need(14, headerSize, "BMP info header");
  const width = bmp.i32(18, "BMP width");
  const signedHeight = bmp.i32(22, "BMP height");
  const height = Math.abs(signedHeight);
  const bits = bmp.u16(28, "BMP bits per pixel");
  const compression = bmp.u32(30, "BMP compression");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    bmp.fail(18, `a BMP of 1..${MAX_SIDE} pixels a side`, `${width}×${signedHeight}`);
  }
  const masked = compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS;
  if (compression !== BI_RGB && !(masked && (bits === 16 || bits === 32))) {
    bmp.fail(
      30,
      "uncompressed BMP pixels (or bit-field masks on 16 or 32 bits)",
      `compression ${compression}`,
    );
  }
  if (![1, 4, 8, 16, 24, 32].includes(bits)) {
    bmp.fail(28, "1, 4, 8, 16, 24 or 32 bits per pixel", String(bits));
  }
  const masks = masked ? readMasks(bmp, headerSize, compression) : defaultMasks(bits, bmp, headerSize);
  const entries = bits <= 8 ? paletteEntries(bmp, bits) : 0;
  const palette = entries ? readPalette(bmp, 14 + headerSize, entries) : undefined;
  // Masks follow a 40-byte header; larger ones hold them.
  const masksAfter = masked && headerSize === 40 ? (compression === BI_ALPHABITFIELDS ? 16 : 12) : 0;
  const headersEnd = 14 + headerSize + masksAfter + 4 * entries;
  const pixels = pixelsStart(bmp, pixelsAt, headersEnd);
  const stride = Math.ceil((width * bits) / 32) * 4;
  bmp.need(pixels, stride * height, "BMP pixel rows");
  const data = new Uint8Array(width * height * 4);
  const fields = masks?.map(field);
  for (let row = 0; row < height; row++) {
    // Rows are stored bottom first unless the height is negative.
    const source = pixels + stride * (signedHeight > 0 ? height - 1 - row : row);
    for (let x = 0; x < width; x++) {
      const out = 4 * (row * width + x);
      if (palette) {
        const bit = x * bits;
        const index = (bytes[source + (bit >> 3)] >> (8 - bits - (bit & 7))) & ((1 << bits) - 1);
        data.set(palette.subarray(4 * index, 4 * index + 4), out);
        continue;
      }
      const at = source + x * (bits >> 3);
      const pixel = bits === 16
        ? bytes[at] | bytes[at + 1] << 8
        : bits === 24
        ? bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16
        : (bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24) >>> 0;
      for (let c = 0; c < 4; c++) data[out + c] = fields![c](pixel);
    }
  }
  if (fields && !masked && bits === 32) opaqueWithoutAlpha(data);
  return { width, height, data };
}

/**
 * Where the pixel rows start. An offset of 0 means right after the headers, masks and palette, as
 * browsers read it (some writers leave the field unset); one pointing into them is damage that would
 * draw the header as pixels, and is refused as browsers refuse it.
 */
function pixelsStart(bmp: ByteWindow, declared: number, headersEnd: number): number {
  if (declared === 0) return headersEnd;
  if (declared < headersEnd) {
    bmp.fail(
      10,
      `a BMP pixel data offset past the headers and palette (${headersEnd}..) or 0`,
      String(declared),
    );
  }
  return declared;
}

/**
 * Red, green, blue and alpha masks of plain 16-, 24- and 32-bit pixels (X1R5G5B5, BGR, BGRA). A
 * 32-bit pixel's fourth byte is alpha, as browsers and Blender read it — from a V4 or later header's
 * alpha mask when it has one — and an image whose alpha is zero throughout is opaque
 * ({@link opaqueWithoutAlpha}).
 */
function defaultMasks(bits: number, bmp: ByteWindow, headerSize: number): number[] | undefined {
  if (bits === 16) return [0x7c00, 0x03e0, 0x001f, 0];
  if (bits === 24) return [0xff0000, 0x00ff00, 0x0000ff, 0];
  if (bits === 32) {
    const alpha = headerSize >= 56 ? bmp.u32(66, "BMP alpha mask") & 0xff000000 : 0xff000000;
    return [0xff0000, 0x00ff00, 0x0000ff, alpha];
  }
  return undefined;
}

/**
 * Sets alpha to 255 where every pixel's is 0: most 32-bit writers leave the fourth byte zero, and
 * that is no transparency (Chromium reads BMPs so).
 */
function opaqueWithoutAlpha(data: Uint8Array): void {
  for (let at = 3; at < data.length; at += 4) if (data[at] !== 0) return;
  for (let at = 3; at < data.length; at += 4) data[at] = 255;
}

/** Masks after a 40-byte header, or inside a larger one (alpha from 56 bytes on). */
function readMasks(bmp: ByteWindow, headerSize: number, compression: number): number[] {
  const withAlpha = headerSize >= 56 || compression === BI_ALPHABITFIELDS;
  bmp.need(54, withAlpha ? 16 : 12, "BMP bit-field masks");
  return [0, 1, 2, 3].map((i) => i < 3 || withAlpha ? bmp.u32(54 + 4 * i, "BMP bit-field mask") : 0);
}

/** A channel's reader: its bits scaled to 0..255; no mask is 255 (opaque, for alpha). */
function field(mask: number): (pixel: number) => number {
  if (!mask) return () => 255;
  let shift = 0;
  while (!((mask >>> shift) & 1)) shift++;
  const max = mask >>> shift;
  return (pixel) => Math.round((((pixel & mask) >>> shift) * 255) / max);
}

/** The palette's entry count: as declared, or all of the depth's when 0. */
function paletteEntries(bmp: ByteWindow, bits: number): number {
  const declared = bmp.u32(46, "BMP palette size");
  if (declared > 1 << bits) bmp.fail(46, `at most ${1 << bits} palette entries`, String(declared));
  return declared || 1 << bits;
}

function readPalette(bmp: ByteWindow, at: number, entries: number): Uint8Array {
  bmp.need(at, entries * 4, "BMP palette");
  const palette = new Uint8Array(256 * 4);
  const bytes = bmp.view(at, entries * 4);
  for (let i = 0; i < entries; i++) {
    palette[4 * i] = bytes[4 * i + 2];
    palette[4 * i + 1] = bytes[4 * i + 1];
    palette[4 * i + 2] = bytes[4 * i];
    palette[4 * i + 3] = 255;
  }
  return palette;
}
