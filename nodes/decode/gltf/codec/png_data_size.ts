/**
 * Whether a PNG's image data fills the size its header declares. `fast-png` allocates the rows its
 * IHDR declares and reads them from whatever the IDAT chunks inflate to: a header one pixel wider (or
 * a row taller) than the data decodes without an error into a sheared or half-blank image. Inflating
 * the data once more (zlib, native: a fraction of the decode's own time) and comparing its length with
 * the header's rows tells — before a repair redraws the texture from the wrong pixels.
 *
 * @module
 */
import { inflateSync } from "node:zlib";
import { DecodeError } from "../../../../runtime/errors.ts";

/** Samples per pixel of each PNG colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Adam7's passes: first column and row, then column and row steps. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [
  0,
  1,
  1,
  2,
]];

const IDAT = 0x49444154, IEND = 0x49454e44;

/**
 * The bytes a PNG's inflated image data holds for a `width` × `height` image of `bitsPerPixel`: each
 * row (of each Adam7 pass when `interlaced`) one filter byte and its samples, packed.
 */
export function pngDataBytes(
  width: number,
  height: number,
  bitsPerPixel: number,
  interlaced: boolean,
): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  return ADAM7.reduce(
    (sum, [x, y, dx, dy]) => sum + rows(Math.ceil((width - x) / dx), Math.ceil((height - y) / dy)),
    0,
  );
}

/**
 * A {@link DecodeError} at the first IDAT chunk of `png` when its image data inflates to other than
 * the bytes its header declares (`expected` and `found` name both, and the header's size); undefined
 * when they agree, or when the PNG is not one this can read (no IHDR first, an unknown colour type,
 * data that does not inflate: the decoder names those itself).
 *
 * @example
 * ```ts ignore
 * const fault = pngDataSizeFault(png);
 * if (fault) throw fault; // "png at byte 41: expected 72 bytes of image data … found 64"
 * ```
 */
export function pngDataSizeFault(png: Uint8Array): DecodeError | undefined {
  if (png.length < 33) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(12) !== 0x49484452) return undefined;
  const width = view.getUint32(16), height = view.getUint32(20);
  const depth = png[24], colourType = png[25], interlaced = png[28] === 1;
  const channels = CHANNELS[colourType];
  if (!channels) return undefined;
  const expected = pngDataBytes(width, height, depth * channels, interlaced);
  const parts: Uint8Array[] = [];
  let first = -1;
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at), type = view.getUint32(at + 4);
    if (type === IEND || at + 12 + length > png.length) break;
    if (type === IDAT) {
      if (first < 0) first = at;
      parts.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  if (first < 0) return undefined;
  let found: number;
  try {
    // One byte past the header's size is enough to tell there is more: the rest is not inflated.
    found = inflateSync(concat(parts), { maxOutputLength: expected + 1 }).byteLength;
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") return undefined;
    found = expected + 1;
  }
  if (found === expected) return undefined;
  const kind = colourType === 3 ? "palette " : "";
  return new DecodeError({
    format: "png",
    at: { offset: first },
    expected: `${expected} bytes of image data, as its header's ${width} × ${height} ${kind}image ` +
      `(${depth}-bit${interlaced ? ", interlaced" : ""}) takes`,
    found: found > expected ? `more than ${expected}` : `${found} (a header of another size than its data)`,
  });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
