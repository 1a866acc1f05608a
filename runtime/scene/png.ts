/**
 * PNG encoding for decoders whose formats carry textures. The bytes are exactly fast-png 8's
 * (`encode` of 8-bit RGBA: no filter on any row, one IDAT chunk, zlib by fflate at level 3), which
 * earlier releases wrote, so every output stays as it was ({@link encodePng}, which a decoder opts into,
 * writes opaque pixels as RGB in the same layout). The container is written here because
 * fast-png copies every pixel through a byte-at-a-time buffer, a third of its run time.
 *
 * fflate (the deflate, the largest module a node definition would otherwise pull in) and
 * `node:crypto` load when a decoder first runs rather than at start-up: `partgraph nodes`,
 * validation and graphs without such decoders never load them.
 *
 * Encodings are remembered in-process by a SHA-256 of the pixels: models share texture libraries,
 * and a batch build decodes the same library textures for every model. Deflate is by far the
 * largest cost of a texture, so a repeated image costs one hash. {@link pngOfEncodedImage}
 * remembers them by a digest of the stored (compressed) image instead, so a repeated texture is
 * neither decoded nor hashed as pixels again — and, in a run with a disk cache, across processes too
 * (`runtime/derived.ts`): the next run, or another batch worker, that meets the image reads its PNG.
 * A new stored image is hashed once (its stored bytes, not its pixels as well) and its pixels are
 * copied once (into the scanlines deflate reads, dropping the alpha of an opaque image on the way).
 *
 * @module
 */

import { recallDerived, rememberDerived } from "../derived.ts";
import { rememberWellSizedPng } from "./png_data_size.ts";

type Fflate = typeof import("fflate");
type Crypto = typeof import("node:crypto");

let fflate: Fflate | undefined;
let crypto: Crypto | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the encoder once; a decoder node awaits this before it builds a scene with textures.
 *
 * @example
 * ```ts
 * import { encodeRgbaPng, loadPngEncoder } from "./png.ts";
 *
 * await loadPngEncoder();
 * const pixels = new Uint8Array(4 * 256 * 256).fill(255); // opaque white
 * const png = encodeRgbaPng(256, 256, pixels);
 * ```
 */
export function loadPngEncoder(): Promise<void> {
  loading ??= Promise.all([import("fflate"), import("node:crypto")]).then(([deflate, hash]) => {
    fflate = deflate;
    crypto = hash;
  });
  return loading;
}

/** fast-png's zlib level, part of the image bytes. */
const ZLIB_LEVEL = 3;
/** PNG colour type 6: truecolour with alpha. */
const COLOR_RGBA = 6;
/** PNG colour type 2: truecolour. */
const COLOR_RGB = 2;
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bytes of the PNG encodings remembered; the oldest are forgotten first. */
const MEMO_BYTES = 32 << 20;

const memo = new Map<string, Uint8Array>();
let memoBytes = 0;

/**
 * Encodes 8-bit RGBA pixels (`4 · width · height` bytes, rows top to bottom) as PNG;
 * {@link loadPngEncoder} must have run. The same pixels give the same bytes, and the same array:
 * callers must not modify it (scenes are immutable by contract).
 */
export function encodeRgbaPng(width: number, height: number, data: Uint8Array): Uint8Array {
  return encode(width, height, data, false);
}

/**
 * {@link encodeRgbaPng}, but pixels whose every alpha is 255 are written as an RGB PNG (colour type
 * 2): a quarter fewer bytes to deflate, a few per cent smaller files, and a reader sees at once that
 * the image is opaque. glTF reads a missing alpha channel as 1, so what is drawn is the same. The
 * choice depends on the pixels alone, so the same pixels still give the same bytes.
 */
export function encodePng(width: number, height: number, data: Uint8Array): Uint8Array {
  return encode(width, height, data, isOpaque(data));
}

/**
 * Work the encoder has done since the process started, for tests that count it: SHA-256 digests
 * taken (of pixels or of stored images) and copies of a whole image's pixels made before deflate.
 */
export const pngWork = { hashes: 0, copies: 0 };

/**
 * The PNG of RGBA `data`, without its alpha channel when `rgb`; remembered by a digest of the
 * pixels when `byPixels` (a caller that remembers the PNG under its own key passes false: hashing
 * the pixels too would cost a second hash of every new image).
 */
function encode(width: number, height: number, data: Uint8Array, rgb: boolean, byPixels = true): Uint8Array {
  if (!fflate || !crypto) {
    throw new Error("internal: a PNG encoded before loadPngEncoder() was awaited");
  }
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
    throw new RangeError(`internal: PNG size ${width}×${height} is not positive integers`);
  }
  if (data.length !== 4 * width * height) {
    throw new RangeError(`internal: ${data.length} bytes of RGBA for ${width}×${height} pixels`);
  }
  // Two key spaces: the same pixels have an RGBA and an RGB encoding.
  const key = byPixels ? `${rgb ? "rgb:" : ""}${width}x${height}:${sha256(data)}` : undefined;
  const known = key === undefined ? undefined : recall(key);
  if (known) return known;
  const png = writePng(
    width,
    height,
    fflate.zlibSync(scanlines(width, height, data, rgb), { level: ZLIB_LEVEL }),
    rgb ? COLOR_RGB : COLOR_RGBA,
  );
  rememberWellSizedPng(png);
  if (key !== undefined) remember(key, png);
  return png;
}

/** The base64 SHA-256 of `bytes`, counted in {@link pngWork}. */
function sha256(bytes: Uint8Array): string {
  pngWork.hashes++;
  return crypto!.createHash("sha256").update(bytes).digest("base64");
}

/** Every fourth byte (alpha) is 255. */
function isOpaque(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/** How {@link pngOfEncodedImage} writes what it decodes. */
export interface PngOptions {
  /** Opaque pixels as an RGB PNG ({@link encodePng}); default false (always RGBA). */
  readonly opaqueAsRgb?: boolean;
}

/** Decoded 8-bit RGBA pixels, as {@link encodeRgbaPng} takes them. */
export interface RgbaPixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/**
 * The PNG of the image stored as `stored` in `format` (a name that tells which decoder `decode` is,
 * e.g. `"dds"`): remembered by a SHA-256 of the stored bytes, so the same stored image is decoded
 * and encoded once per process. `decode` must be a pure function of `stored`; what it throws is
 * passed on and nothing is remembered. {@link loadPngEncoder} must have run.
 *
 * @example
 * ```ts
 * import { loadPngEncoder, pngOfEncodedImage } from "./png.ts";
 *
 * await loadPngEncoder();
 * const stored = new Uint8Array([2, 2, 0x80, 0x80]); // a made-up 2×2 grey format
 * const png = pngOfEncodedImage(stored, "grey", () => ({
 *   width: stored[0],
 *   height: stored[1],
 *   data: new Uint8Array(16).fill(0x80),
 * }));
 * ```
 */
export function pngOfEncodedImage(
  stored: Uint8Array,
  format: string,
  decode: () => RgbaPixels,
  options: PngOptions = {},
): Uint8Array {
  const entry = lookUp(stored, format, options);
  return entry.known ?? entry.keep(decode());
}

/**
 * {@link pngOfEncodedImage} for a decoder that answers asynchronously (a WebAssembly codec's
 * binding): a remembered image is not decoded again.
 */
export async function pngOfEncodedImageAsync(
  stored: Uint8Array,
  format: string,
  decode: () => Promise<RgbaPixels>,
): Promise<Uint8Array> {
  const entry = lookUp(stored, format);
  return entry.known ?? entry.keep(await decode());
}

/** What is remembered of `stored` as `format`, and how to remember the PNG of its pixels. */
function lookUp(stored: Uint8Array, format: string, options: PngOptions = {}): {
  known?: Uint8Array;
  keep: (pixels: RgbaPixels) => Uint8Array;
} {
  if (!crypto) throw new Error("internal: pngOfEncodedImage called before loadPngEncoder() was awaited");
  // A NUL cannot occur in a format name we choose, so no key of this kind equals a pixel key.
  const digest = sha256(stored);
  const rgb = options.opaqueAsRgb === true;
  const key = `${format}\0${rgb ? "rgb\0" : ""}${digest}`;
  // The function of the stored bytes whose result the disk cache keeps: this encoder, this format.
  const kind = `PNG of a stored ${format} image, v1${rgb ? ", opaque as RGB" : ""}`;
  const keep = ({ width, height, data }: RgbaPixels) => {
    // Remembered by the stored bytes' digest alone: the same bytes as encodePng's, one hash fewer.
    const png = encode(width, height, data, rgb && isOpaque(data), false);
    remember(key, png);
    rememberDerived(kind, digest, png);
    return png;
  };
  const known = recall(key);
  if (known) return { known, keep };
  const kept = recallDerived(kind, digest);
  if (kept) remember(key, kept);
  return { known: kept, keep };
}

/** Forgets every remembered encoding, so a benchmark can measure the cost of new images. */
export function forgetPngEncodings(): void {
  memo.clear();
  memoBytes = 0;
}

/** The remembered encoding of `key`, now the most recently used. */
function recall(key: string): Uint8Array | undefined {
  const known = memo.get(key);
  if (known) {
    memo.delete(key); // re-inserted: most recently used last
    memo.set(key, known);
  }
  return known;
}

/** Remembers `png` under `key`; an encoding remembered under two keys counts twice against the cap. */
function remember(key: string, png: Uint8Array): void {
  memo.set(key, png);
  memoBytes += png.byteLength;
  for (const [oldKey, old] of memo) {
    if (memoBytes <= MEMO_BYTES) break;
    memo.delete(oldKey);
    memoBytes -= old.byteLength;
  }
}

/**
 * The scanlines of RGBA `data`, each after its filter-type byte 0 (none), with 3-byte pixels (alpha
 * dropped) when `rgb`: the one copy of the pixels an encoding makes.
 */
function scanlines(width: number, height: number, data: Uint8Array, rgb: boolean): Uint8Array {
  pngWork.copies++;
  const row = (rgb ? 3 : 4) * width;
  const out = new Uint8Array((row + 1) * height); // zeroed: every filter byte is 0 already
  if (!rgb) {
    for (let y = 0; y < height; y++) out.set(data.subarray(row * y, row * (y + 1)), (row + 1) * y + 1);
    return out;
  }
  for (let y = 0, i = 0; y < height; y++) {
    for (let o = (row + 1) * y + 1, end = o + row; o < end; o += 3, i += 4) {
      out[o] = data[i];
      out[o + 1] = data[i + 1];
      out[o + 2] = data[i + 2];
    }
  }
  return out;
}

/** Signature, IHDR, one IDAT holding `zlib`, IEND. */
function writePng(width: number, height: number, zlib: Uint8Array, colourType: number): Uint8Array {
  const out = new Uint8Array(8 + (12 + 13) + (12 + zlib.length) + 12);
  const view = new DataView(out.buffer);
  out.set(SIGNATURE);
  let at = 8;
  const chunk = (type: string, length: number, fill: (dataAt: number) => void) => {
    view.setUint32(at, length);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
    fill(at + 8);
    view.setUint32(at + 8 + length, crc32(out, at + 4, at + 8 + length));
    at += 12 + length;
  };
  chunk("IHDR", 13, (p) => {
    view.setUint32(p, width);
    view.setUint32(p + 4, height);
    out.set([8, colourType, 0, 0, 0], p + 8); // depth, colour type, deflate, adaptive filtering, no interlace
  });
  chunk("IDAT", zlib.length, (p) => out.set(zlib, p));
  chunk("IEND", 0, () => {});
  return out;
}

/**
 * CRC-32 tables for four bytes a step ("slicing by 4"): entry `256·k + n` is the CRC of byte `n`
 * followed by `k` zero bytes. Int32, as the arithmetic stays: with the plain unsigned table, V8 met
 * CRCs past 2³¹ as doubles and threw its compiled loop away ("lost precision"), running it
 * interpreted a good part of the time — about 4 % of decode.cmp's own work on new textures.
 */
let crcTables: Int32Array | undefined;

function crcTablesOnce(): Int32Array {
  if (crcTables) return crcTables;
  const tables = new Int32Array(4 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[n];
    for (let k = 1; k < 4; k++) tables[256 * k + n] = c = tables[c & 0xff] ^ (c >>> 8);
  }
  return crcTables = tables;
}

/** CRC-32 (ISO 3309, as PNG chunks use) of `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start: number, end: number): number {
  const t = crcTablesOnce();
  let c = -1, i = start;
  for (const last = end - 3; i < last; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = t[768 + (c & 0xff)] ^ t[512 + ((c >>> 8) & 0xff)] ^ t[256 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
