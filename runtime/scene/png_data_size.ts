/**
 * Whether a PNG's image data fills the size its header declares. `fast-png` allocates the rows its
 * IHDR declares and reads them from whatever the IDAT chunks inflate to: a header one pixel wider (or
 * a row taller) than the data decodes without an error into a sheared or half-blank image. Inflating
 * the data once more (zlib, native: a fraction of the decode's own time) and comparing its length with
 * the header's rows tells — before a repair redraws the texture from the wrong pixels. Where nothing
 * decodes the image (`export.gltf` passes it through), {@link pngDataPrefixProblem} checks what is
 * cheap: the header's size against what deflate can hold, the whole data of a small image, and the
 * row filter bytes of a large one's first rows — a fraction of a millisecond where the whole 4K
 * texture would take 0.1–0.7 s.
 *
 * @module
 */
import { constants, inflateSync } from "node:zlib";
import { DecodeError } from "../errors.ts";

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
 * data that does not inflate: the decoder names those itself). With a `limit`, at most `limit` + 1
 * bytes are inflated (the cost of a 1024² texture, not a 4K one): data that ends within them is
 * compared whole, whatever the header declares; data past them tells only a header declaring at most
 * `limit` (undefined otherwise: unsure); and data cut off mid-stream (a truncated file) is named with
 * the bytes it holds.
 *
 * @example
 * ```ts ignore
 * const fault = pngDataSizeFault(png);
 * if (fault) throw fault; // "png at byte 41: expected 72 bytes of image data … found 64"
 * ```
 */
export function pngDataSizeFault(png: Uint8Array, limit = Infinity): DecodeError | undefined {
  if (png.length < 33) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(12) !== 0x49484452) return undefined;
  const width = view.getUint32(16), height = view.getUint32(20);
  const depth = png[24], colourType = png[25], interlaced = png[28] === 1;
  const channels = CHANNELS[colourType];
  if (!channels) return undefined;
  const expected = pngDataBytes(width, height, depth * channels, interlaced);
  const { parts, first, truncated } = idatChunks(png, view);
  if (first < 0) return undefined;
  let found: number, cut = false;
  const most = Math.min(expected, limit);
  const data = concat(parts);
  try {
    // One byte past the header's size is enough to tell there is more: the rest is not inflated.
    found = inflateSync(data, { maxOutputLength: most + 1 }).byteLength;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Limited, or known cut (the file ends inside an IDAT chunk, perhaps before any of its data): a
    // stream cut short is measured by what it holds so far.
    if (code === "Z_BUF_ERROR" && (limit !== Infinity || truncated)) {
      try {
        found =
          inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: most + 1 }).byteLength;
        cut = true;
      } catch {
        return undefined;
      }
      if (found > most) return undefined;
    } else if (code !== "ERR_BUFFER_TOO_LARGE" || most < expected) return undefined;
    else found = expected + 1;
  }
  if (found === expected) return undefined;
  const kind = colourType === 3 ? "palette " : "";
  return new DecodeError({
    format: "png",
    at: { offset: first },
    expected: `${expected} bytes of image data, as its header's ${width} × ${height} ${kind}image ` +
      `(${depth}-bit${interlaced ? ", interlaced" : ""}) takes`,
    found: cut
      ? `${found} before its data ends mid-stream (cut short)`
      : found > expected
      ? `more than ${expected}`
      : `${found} (a header of another size than its data)`,
  });
}

/**
 * The IDAT chunks' data of `png` up to IEND, the offset of the first (-1 without one), and whether
 * the file ends inside an IDAT chunk's data (a truncated file or download): then its last part is
 * the bytes that chunk holds before the end, possibly none. Any chunk running past the end ends the
 * walk.
 */
function idatChunks(
  png: Uint8Array,
  view: DataView,
): { parts: Uint8Array[]; first: number; truncated: boolean } {
  const parts: Uint8Array[] = [];
  let first = -1, truncated = false;
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at), type = view.getUint32(at + 4);
    if (type === IEND) break;
    if (type === IDAT) {
      if (first < 0) first = at;
      // Past the file's end: the data part that is present (a cut CRC alone leaves it whole).
      parts.push(png.subarray(at + 8, Math.min(at + 8 + length, png.length)));
      truncated = at + 8 + length > png.length;
    }
    if (at + 12 + length > png.length) break;
    at += 12 + length;
  }
  return { parts, first, truncated };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}

/** Image data {@link pngDataPrefixProblem} inflates at most: a 256² RGBA texture whole, the first rows of larger ones. */
export const PREFIX_BYTES = 512 * 1024;

/** deflate's largest expansion: a 258-byte match per ~2 bits, plus the zlib and block overhead. */
const MAX_DEFLATE_RATIO = 1032;

/**
 * What tells cheaply that `png`'s image data is not the size its header declares, or undefined
 * (also when unsure, or when it is not a PNG this reads): more bytes than its compressed data can
 * inflate to at deflate's largest ratio; for an image whose data inflates to at most
 * {@link PREFIX_BYTES}, any other length than the header's; for a larger one (not interlaced), a row
 * within the first {@link PREFIX_BYTES} whose filter byte is no filter (rows of the header's width
 * would start on one), or more data than the header's. Costs one inflation of at most
 * {@link PREFIX_BYTES}; a larger image's height is not checked (that takes inflating it all).
 *
 * @example
 * ```ts ignore
 * pngDataPrefixProblem(png); // "PNG data is 36 bytes where its header's 9×4 pixels take 40"
 * ```
 */
export function pngDataPrefixProblem(png: Uint8Array): string | undefined {
  if (WELL_SIZED.has(png)) return undefined;
  if (png.length < 33) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(12) !== 0x49484452) return undefined;
  const width = view.getUint32(16), height = view.getUint32(20);
  const depth = png[24], channels = CHANNELS[png[25]], interlaced = png[28] === 1;
  if (!channels) return undefined;
  const expected = pngDataBytes(width, height, depth * channels, interlaced);
  const { parts, truncated } = idatChunks(png, view);
  const compressed = parts.reduce((sum, part) => sum + part.length, 0);
  if (parts.length === 0) return undefined;
  const size = `its header's ${width}×${height} pixels`;
  // A file that ends inside its image data: no decoder draws the rows it lacks (nor, cut before
  // any, a single one); said as such rather than as a header of another size.
  const cutNote = truncated ? ` (the file ends inside an IDAT chunk, at byte ${png.length})` : "";
  if (truncated && compressed === 0) return `PNG has no image data${cutNote}`;
  if (expected > MAX_DEFLATE_RATIO * compressed + 1024) {
    return `PNG data of ${compressed} compressed bytes cannot hold the ${expected} bytes ${size} take${cutNote}`;
  }
  // The image's own ratio tells how much input the prefix takes: usually one inflation is enough.
  const prefix = inflatedPrefix(
    parts,
    PREFIX_BYTES,
    Math.ceil((1.25 * PREFIX_BYTES * compressed) / expected),
  );
  if (!prefix) return undefined;
  const { bytes, whole } = prefix;
  if (bytes.length > expected || (whole && bytes.length !== expected)) {
    const found = whole ? `${bytes.length} bytes` : `more than ${expected} bytes`;
    return `PNG data is ${found} where ${size} take ${expected}${cutNote}`;
  }
  if (interlaced) return undefined;
  const row = 1 + Math.ceil((width * depth * channels) / 8);
  for (let r = 0; (r + 1) * row <= bytes.length; r++) {
    if (bytes[r * row] > 4) {
      return `PNG data's row ${r} starts with filter ${
        bytes[r * row]
      }, which is none: its rows are not the ` +
        `${row} bytes ${size} take`;
    }
  }
  return undefined;
}

/** PNGs this process wrote from pixels of their header's size (`png.ts`), by the array. */
const WELL_SIZED = new WeakSet<Uint8Array>();

/**
 * Records that `png`, which `png.ts` just wrote from pixels of its header's size, has data of that size:
 * {@link pngDataPrefixProblem} of it then inflates nothing (every export checks every texture, and a
 * decoded Freelancer or Carnivores scene's textures are all such PNGs). The array must not change
 * afterwards, as no scene's data may (a caller that edits a PNG edits a copy, which is checked).
 */
export function rememberWellSizedPng(png: Uint8Array): void {
  WELL_SIZED.add(png);
}

/**
 * Whether `png` is an array {@link rememberWellSizedPng} recorded: one {@link pngDataPrefixProblem}
 * takes as well sized without inflating it (a scene copy shares its images, so a copy's are too).
 */
export function isWellSizedPng(png: Uint8Array): boolean {
  return WELL_SIZED.has(png);
}

/**
 * At least the first `limit` bytes `parts` (a zlib stream) inflate to (or all of them, `whole`, when
 * fewer); undefined when the stream is damaged. Inflates a prefix of the input of `guess` bytes (at
 * least 1 KB), twice as long each time it gives less than `limit`, and never more than
 * {@link MAX_PREFIX_OUTPUT} at once (a flat texture inflates a thousandfold).
 */
function inflatedPrefix(
  parts: readonly Uint8Array[],
  limit: number,
  guess: number,
): { bytes: Uint8Array; whole: boolean } | undefined {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  for (let take = Math.max(1024, guess);; take *= 2) {
    const input = firstBytes(parts, Math.min(take, total));
    const whole = input.length === total;
    let bytes: Uint8Array;
    try {
      // A sync flush gives what the input so far inflates to, without asking for the stream's end.
      bytes = inflateSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_PREFIX_OUTPUT });
    } catch {
      return undefined; // damaged, or past the cap: nothing is sure
    }
    if (whole || bytes.length >= limit) return { bytes, whole };
  }
}

/** Output one prefix inflation may give: 16 × {@link PREFIX_BYTES} (8 MB). */
const MAX_PREFIX_OUTPUT = 16 * PREFIX_BYTES;

/** The first `count` bytes of `parts` joined. */
function firstBytes(parts: readonly Uint8Array[], count: number): Uint8Array {
  if (parts[0].length >= count) return parts[0].subarray(0, count);
  const out = new Uint8Array(count);
  let at = 0;
  for (const part of parts) {
    if (at >= count) break;
    const piece = part.subarray(0, count - at);
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
