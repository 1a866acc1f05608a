/**
 * Windows bitmaps (BMP) built byte by byte, for the image decoder's tests.
 *
 * @module
 */

/** `value` as 4 little-endian bytes. */
export const u32 = (value: number): number[] =>
  [value, value >> 8, value >> 16, value >>> 24].map((b) => b & 255);
/** `value` as 2 little-endian bytes. */
export const u16 = (value: number): number[] => [value & 255, value >> 8 & 255];

/**
 * The fields of a 40-byte info header after its size: `width`, `height` (negative: top row first),
 * planes, `bits` per pixel, `compression` (0 plain, 1 RLE8, 3 bit fields), then zeros (the palette
 * size among them: a full palette).
 */
export function bmpInfo40(width: number, height: number, bits: number, compression = 0): number[] {
  return [
    ...u32(width),
    ...u32(height >>> 0),
    ...u16(1),
    ...u16(bits),
    ...u32(compression),
    ...new Array(20).fill(0),
  ];
}

/** A BMP file: its info header's fields after the size (`info`), its `palette` (4 bytes a colour) and `pixels` as stored. */
export function bmpFile(
  info: readonly number[],
  pixels: readonly number[],
  palette: readonly number[] = [],
): Uint8Array {
  const pixelsAt = 14 + 4 + info.length + palette.length;
  return new Uint8Array([
    0x42,
    0x4d,
    ...u32(pixelsAt + pixels.length),
    0,
    0,
    0,
    0,
    ...u32(pixelsAt),
    ...u32(4 + info.length),
    ...info,
    ...palette,
    ...pixels,
  ]);
}
