/**
 * Evidence from a `.car`'s bytes that a reading of its clips is the file's: frames that track the
 * model's points (absolute positions ×16 correlate with the base points on every axis) and clip
 * headers that hold names. Frame data or padding read as a header shows neither.
 *
 * @module
 */
import { ANIMATION_HEADER_BYTES, NAME_BYTES } from "./model.ts";
import type { FrameCountFix } from "./car_frame_counts.ts";

/** Smallest point-likeness (see `pointLikeness`) of a reading the frame data may settle on. */
export const POINT_LIKE_CORRELATION = 0.3;
/** How much more point-like than every other reading it must be. */
export const POINT_LIKE_MARGIN = 0.2;

/**
 * How well, read with `fixes`, every clip's first and last frames track the model's points `base`:
 * the smallest over those frames of the mean per-axis correlation (frames are absolute positions ×16:
 * r 0.82–1.0 on every axis in retail files); -1 when a clip runs past the file. A clip header taken
 * from frame data, or a clip read past its own frames into the next clip's header, puts frames a few
 * bytes off a vertex, so their axes are mixed and the correlation falls. An axis along which the
 * model is flat says nothing and is left out.
 */
export function pointLikeness(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  fixes: readonly FrameCountFix[],
  base: Float32Array,
): number {
  const frameBytes = vertexCount * 6;
  const score = (frameAt: number) => frameLikeness(view, frameAt, vertexCount, base);
  let worst = 1;
  for (let clip = 0; clip < animations; clip++) {
    if (at + ANIMATION_HEADER_BYTES > view.byteLength) return -1;
    const frames = fixes.find((f) => f.clip === clip)?.frames ?? view.getInt32(at + NAME_BYTES + 4, true);
    const dataAt = at + ANIMATION_HEADER_BYTES;
    if (frames < 0 || dataAt + frames * frameBytes > view.byteLength) return -1;
    if (frames > 0) {
      const lastAt = dataAt + (frames - 1) * frameBytes;
      // A last frame that is the anim→sound table (-1 entries) and padding zeros is no frame, however
      // its -1s and zeros happen to line up with the points (a grid's rows do).
      const last = tableFrame(view, lastAt, frameBytes) ? 0 : score(lastAt);
      worst = Math.min(worst, score(dataAt), last);
    }
    at = dataAt + frames * frameBytes;
  }
  return worst;
}

/** Bytes of the anim→sound table (64 int32 entries), as model.ts's slots × 4. */
const TABLE_BYTES = 256;

/**
 * Whether the `frameBytes` at `frameAt` are the anim→sound table of no sounds (256 bytes of 0xFF, 64
 * entries of -1, running on past a shorter frame) followed by zeros to the frame's end: what a clip
 * count stored one frame too long reads as its last frame over the table and a tool's padding. No
 * model's frame holds every coordinate at -1 or 0.
 */
export function tableFrame(view: DataView, frameAt: number, frameBytes: number): boolean {
  if (frameAt < 0 || frameAt + TABLE_BYTES > view.byteLength) return false;
  for (let i = 0; i < TABLE_BYTES; i++) if (view.getUint8(frameAt + i) !== 0xff) return false;
  const end = Math.min(frameAt + frameBytes, view.byteLength);
  for (let i = frameAt + TABLE_BYTES; i < end; i++) if (view.getUint8(i) !== 0) return false;
  return true;
}

/**
 * How well the frame at `frameAt` tracks the model's points `base`: the mean per-axis correlation
 * (axes along which the model is flat left out; 1 when it is flat along all). A frame of zeros, or
 * bytes a few off a vertex, scores near 0.
 */
export function frameLikeness(
  view: DataView,
  frameAt: number,
  vertexCount: number,
  base: Float32Array,
): number {
  const rs = [0, 1, 2].map((axis) =>
    correlation(
      vertexCount,
      (v) => view.getInt16(frameAt + (v * 3 + axis) * 2, true),
      (v) => base[v * 3 + axis],
    )
  ).filter((r) => !Number.isNaN(r));
  return rs.length ? rs.reduce((x, y) => x + y, 0) / rs.length : 1;
}

/** Pearson correlation of `a(v)` and `b(v)` over `n` values; NaN when `b` is constant (no evidence). */
export function correlation(n: number, a: (v: number) => number, b: (v: number) => number): number {
  let ma = 0, mb = 0;
  for (let v = 0; v < n; v++) [ma, mb] = [ma + a(v), mb + b(v)];
  [ma, mb] = [ma / n, mb / n];
  let ab = 0, aa = 0, bb = 0;
  for (let v = 0; v < n; v++) {
    const [da, db] = [a(v) - ma, b(v) - mb];
    [ab, aa, bb] = [ab + da * db, aa + da * da, bb + db * db];
  }
  if (bb === 0) return NaN;
  if (aa === 0) return 0;
  return ab / Math.sqrt(aa * bb);
}

/**
 * Whether the 32-byte name at `at` is a clip name as tools write them: before a NUL, at least two
 * bytes with a letter among them, printable ASCII and Windows-1251 letters only, the Cyrillic ones in
 * words of three or more — or, with no NUL, a name a tool copied into the fixed field with `strncpy` or
 * a space-padded fixed string ("Velociraptor_run_fast_loop_v2_01"; the format's `char name[32]` need
 * not end in a NUL): see {@link fullName}. Names are the source VTL's ("run", "walk1", "Fall",
 * "swim_2", "Бег"). Frame data read as a name are int16 coordinates: one printable byte and a NUL (a
 * small positive one) took 22 % of frame windows of generated models and 2.6 % of random bytes; a
 * small negative one is a byte 0xC0–0xFF and 0xFF, two "Cyrillic letters" ("ея"). A name with no ASCII
 * letter must also leave the rest of its field zeros or text (a reused buffer's older name), as frame
 * data seldom do.
 */
export function holdsName(view: DataView, at: number): boolean {
  let ascii = false, cyrillic = false, run = 0;
  for (let i = 0; i < NAME_BYTES; i++) {
    const byte = view.getUint8(at + i);
    if (byte === 0) {
      if (i < 2 || (run > 0 && run < 3)) return false;
      if (ascii) return true;
      return cyrillic && textOrZeros(view, at + i + 1, at + NAME_BYTES);
    }
    if (cyrillicLetter(byte)) {
      [run, cyrillic] = [run + 1, true];
      continue;
    }
    if (run > 0 && run < 3) return false;
    run = 0;
    if (byte < 0x20 || byte > 0x7e) return false;
    if ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) ascii = true;
  }
  return fullName(view, at);
}

/** Whether `byte` is a Windows-1251 letter (А–я, Ё, ё). */
export function cyrillicLetter(byte: number): boolean {
  return byte >= 0xc0 || byte === 0xa8 || byte === 0xb8;
}

/** Whether the bytes from `from` to `to` are zeros, printable ASCII or Windows-1251 letters. */
function textOrZeros(view: DataView, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const byte = view.getUint8(i);
    if (byte !== 0 && (byte < 0x20 || byte > 0x7e) && !cyrillicLetter(byte)) return false;
  }
  return true;
}

/**
 * Whether the 32 bytes at `at` (no NUL among them) are a name filling its field: all printable ASCII
 * (0x20–0x7E), a letter among them, and — trailing spaces aside — not two-byte words alike. Bytes past
 * ASCII count only before a NUL: frame data read as a name are int16 coordinates, and 16 negative ones
 * in a row are 32 bytes of 0x80–0xFF. 32 ASCII bytes are 16 coordinates 514–2,023 file units out
 * (×16: 0x2020–0x7E7E) whose low bytes all fall in ASCII's printable 95 of 256. Texels are 16-bit words
 * too, and a flat or graded stretch of a texture (a high byte 0RRRRRGG of R ≥ 8 is printable) repeats a
 * byte every other place ("gDgDgDgHgH…"): a name whose bytes at even (or odd) places take at most two
 * values is not taken.
 */
function fullName(view: DataView, at: number): boolean {
  let letter = false, end = NAME_BYTES;
  while (end > 0 && view.getUint8(at + end - 1) === 0x20) end--;
  for (let i = 0; i < NAME_BYTES; i++) {
    const byte = view.getUint8(at + i);
    if (byte > 0x7e) return false;
    if ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) letter = true;
  }
  if (!letter) return false;
  if (end < 8) return true;
  for (const parity of [0, 1]) {
    const seen = new Set<number>();
    for (let i = parity; i < end; i += 2) seen.add(view.getUint8(at + i));
    if (seen.size <= 2) return false;
  }
  return true;
}
