/**
 * `.car` clip and sound counts that disagree with the sections the file holds. The header's AniCount
 * and SfxCount are the only way to find the sections after the texture, and a file whose counts were
 * edited by hand (a clip or sound cut out with a hex editor, a tool that wrote the count before
 * dropping a clip) no longer ends where its counts say. Read with the declared counts, a count too
 * low reads the next clip as a sound (its KPS as the sound's length) and frame data as the
 * anim→sound table; a count too high reads a sound as a clip.
 *
 * The sections themselves say where they end: a clip is `name, KPS ≥ 0, frames ≥ 0, frames × V × 6
 * bytes`, a sound is `name, length ≥ 0, length bytes`, and retail files end exactly after the sounds
 * or after the 256-byte anim→sound table. When the declared counts do not end so and other counts
 * do, those counts are the file's.
 *
 * @module
 */
import { NAME_BYTES, TEXTURE_ROW_BYTES } from "./model.ts";
import {
  frameLikeness,
  holdsName,
  POINT_LIKE_CORRELATION,
  POINT_LIKE_MARGIN,
  pointLikeness,
} from "./frame_likeness.ts";

/** Bytes before an animation's frame data: name, KPS, frame count. */
export const ANIMATION_HEADER_BYTES = NAME_BYTES + 8;
/** Bytes before a sound's PCM data: name, length. */
export const SOUND_HEADER_BYTES = NAME_BYTES + 4;
/** The engine's character arrays hold 64 animations and 64 sounds. */
export const ENGINE_MAX_CLIPS = 64;

/** Counts whose sections end at the file's end (or 256 bytes before it, the anim→sound table). */
export interface FittingCounts {
  readonly animations: number;
  readonly sounds: number;
  /** True when the 256-byte anim→sound table follows the sounds. */
  readonly table: boolean;
}

/**
 * Where the sections after the texture end for `animations` clips and `sounds` sounds starting at
 * `at`, or -1 when a header is implausible or a section runs past the file. A negative KPS makes a
 * header implausible unless `negativeKps` (for headers read where the stored counts put them: a
 * damaged KPS does not move anything, the frame count sizes the clip); so does a blank one (see
 * {@link blankClip}) with `noBlanks` (for headers read where no stored count puts them).
 */
export function tailEnd(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  negativeKps = false,
  noBlanks = false,
): number {
  const size = view.byteLength;
  for (let a = 0; a < animations; a++) {
    if (at + ANIMATION_HEADER_BYTES > size) return -1;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const frames = view.getInt32(at + NAME_BYTES + 4, true);
    // KPS 0 is read (see parseCar); a negative one is not a clip's, unless read where it is stored.
    if ((kps < 0 && !negativeKps) || frames < 0) return -1;
    if (noBlanks && blankClip(view, at)) return -1;
    at += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
    if (at > size) return -1;
  }
  for (let s = 0; s < sounds; s++) {
    if (at + SOUND_HEADER_BYTES > size) return -1;
    const length = view.getInt32(at + NAME_BYTES, true);
    if (length < 0 || (noBlanks && blankSound(view, at))) return -1;
    at += SOUND_HEADER_BYTES + length;
    if (at > size) return -1;
  }
  return at;
}

/**
 * The counts (at most 64 each) whose sections end exactly at the end of the file, or at the 256-byte
 * anim→sound table whose entries are all -1 or a sound of the file — the one nearest the declared
 * counts; undefined when none or several equally near fit.
 *
 * @example
 * ```ts
 * const fit = fittingCounts(view, textureEnd, 120, 1, 1, 256); // { animations: 2, sounds: 1, table: true }
 * ```
 */
export function fittingCounts(
  view: DataView,
  at: number,
  vertexCount: number,
  declaredAnimations: number,
  declaredSounds: number,
  tableBytes: number,
  appended?: AppendedBytes,
): FittingCounts | undefined {
  const fits = allFittingCounts(
    view,
    at,
    vertexCount,
    declaredAnimations,
    declaredSounds,
    tableBytes,
    appended,
  );
  const distance = (fit: FittingCounts) =>
    Math.abs(fit.animations - declaredAnimations) + Math.abs(fit.sounds - declaredSounds);
  const [best, next] = fits;
  return best && (!next || distance(next) > distance(best)) ? best : undefined;
}

/**
 * Every count pair of {@link fittingCounts}'s search that ends the file (with `appended`, before bytes
 * that may have been appended), nearest the declared counts first.
 */
export function allFittingCounts(
  view: DataView,
  at: number,
  vertexCount: number,
  declaredAnimations: number,
  declaredSounds: number,
  tableBytes: number,
  appended?: AppendedBytes,
): FittingCounts[] {
  const fits: FittingCounts[] = [];
  // A header the declared counts do not put where it is read must be one a tool wrote: not blank
  // (zeros or padding read as a clip of 0 frames, or a sound of 0 bytes, 40 and 36 bytes at a time,
  // which a tail of zeros fits at many counts), and a clip's named when the first clip's is.
  const declared = declaredHeaders(view, at, vertexCount, declaredAnimations, declaredSounds);
  const named = at + NAME_BYTES <= view.byteLength && holdsName(view, at);
  let clipsEnd = at;
  for (let animations = 0; animations <= ENGINE_MAX_CLIPS; animations++) {
    if (animations > 0) {
      // more clips cannot fit either: the walk is a prefix
      if (clipsEnd + ANIMATION_HEADER_BYTES > view.byteLength) break;
      if (!declared.has(clipsEnd) && (blankClip(view, clipsEnd) || (named && !holdsName(view, clipsEnd)))) {
        break;
      }
      clipsEnd = tailEnd(view, clipsEnd, vertexCount, 1, 0);
      if (clipsEnd < 0) break;
    }
    let end = clipsEnd;
    for (let sounds = 0; sounds <= ENGINE_MAX_CLIPS; sounds++) {
      if (sounds > 0) {
        if (end + SOUND_HEADER_BYTES > view.byteLength) break;
        if (!declared.has(end) && blankSound(view, end)) break;
        end = tailEnd(view, end, 0, 0, 1);
        if (end < 0) break;
      }
      if (!endsFile(view, end, tableBytes, sounds, appended)) continue;
      fits.push({ animations, sounds, table: !endsFile(view, end, 0, sounds, appended) });
    }
  }
  const distance = (fit: FittingCounts) =>
    Math.abs(fit.animations - declaredAnimations) + Math.abs(fit.sounds - declaredSounds);
  // Stable: equally near fits keep the search's order.
  return fits.map((fit, i) => ({ fit, i })).sort((a, b) => distance(a.fit) - distance(b.fit) || a.i - b.i)
    .map(({ fit }) => fit);
}

/** Where the declared counts put each clip and sound header (up to the first that does not fit). */
function declaredHeaders(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
): Set<number> {
  const headers = new Set<number>();
  for (let i = 0; i < animations + sounds && at >= 0; i++) {
    headers.add(at);
    at = i < animations ? tailEnd(view, at, vertexCount, 1, 0, true) : tailEnd(view, at, 0, 0, 1);
  }
  return headers;
}

/**
 * A clip header no tool writes: no name (empty, or not text), KPS 0 and no frames — zeros or padding
 * read as a header. Such a "clip" holds nothing; read where no stored count puts a clip, it is not one.
 */
export function blankClip(view: DataView, at: number): boolean {
  return view.getInt32(at + NAME_BYTES, true) === 0 && view.getInt32(at + NAME_BYTES + 4, true) === 0 &&
    !holdsName(view, at);
}

/** A sound header no tool writes: no name and no bytes (see {@link blankClip}). */
export function blankSound(view: DataView, at: number): boolean {
  return view.getInt32(at + NAME_BYTES, true) === 0 && !holdsName(view, at);
}

/** One clip's frame count read instead of the stored one. */
export interface FrameCountFix {
  /** Clip index. */
  readonly clip: number;
  /** Frames read. */
  readonly frames: number;
  /** The frame count stored. */
  readonly stored: number;
  /** Byte of the stored count (with the clips before it read at their corrected counts). */
  readonly at: number;
}

/** What {@link fittingFrameCounts} found. */
export type FrameCountSearch =
  | { readonly kind: "fixed"; readonly fixes: readonly FrameCountFix[] }
  /** Several sets of as few corrections fit equally: the first two found. */
  | { readonly kind: "ambiguous"; readonly candidates: readonly (readonly FrameCountFix[])[] }
  | { readonly kind: "none" };

/** How far from a stored frame count the search for several wrong counts looks. */
const FRAME_FIX_RANGE = 2;
/** At most this many clips corrected in one file. */
const MAX_FIXED_CLIPS = 4;
/** Clip headers the search may visit in all (a bound on the work for files of many clips). */
const SEARCH_BUDGET = 2_000_000;

/**
 * The fewest clips whose frame counts, each changed by at most 2 (a converter that stores a count as a
 * `.rsc` does, one less than its frames, or a hand edit), make the declared counts' sections end
 * exactly at the end of the file or at a valid anim→sound table. Tried with 1 corrected clip, then
 * every clip changed alike (one habit over the whole file), then 2, … up to 4 clips; at each step
 * every stored count is tried first, so no more clips are corrected than the file needs. Last, one
 * clip at any count (a count far off, or negative): the data's size decides it when exactly one fits.
 * A negative KPS where the stored counts put a header is a damaged field, not frame data, and does
 * not stop the search. Several sets of equally few corrections are settled by the frame data when
 * one reading's frames alone track the model's points (`base`), else `ambiguous` (nothing is read
 * from a guess); none within the bound (or more work than {@link SEARCH_BUDGET}) is `none`. Read
 * with the stored counts, the game takes the next clip's header from frame data.
 *
 * @example
 * ```ts
 * const found = fittingFrameCounts(view, textureEnd, 120, 3, 0, 256);
 * if (found.kind === "fixed") console.log(found.fixes); // [{ clip: 0, frames: 31, stored: 30, at: … }, …]
 * ```
 */
export function fittingFrameCounts(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  tableBytes: number,
  base?: Float32Array,
  appended?: AppendedBytes,
): FrameCountSearch {
  if (vertexCount <= 0 || animations <= 0) return { kind: "none" };
  const size = view.byteLength;
  const frameBytes = vertexCount * 6;
  let budget = SEARCH_BUDGET;
  const found: FrameCountFix[][] = [];
  const ends = (end: number) => endsFile(view, end, tableBytes, sounds, appended);
  // The readings from a clip on depend only on where its header is, the corrections left and whether
  // one was made before (a negative KPS is then frame data): memoised, so the many ways of reaching one
  // header (frame data read as headers of 0 frames, as zero-filled frames and padding give) are walked
  // once. Without it, 64 clips and a tail of zeros walked the 2,000,000-header budget twice (~1–2 s).
  const memo = new Map<number, readonly (readonly FrameCountFix[])[]>();
  const suffixes = (
    clip: number,
    clipAt: number,
    left: number,
    corrected: boolean,
  ): readonly (readonly FrameCountFix[])[] => {
    if (clip === animations) return left === 0 && ends(tailEnd(view, clipAt, 0, 0, sounds)) ? [[]] : [];
    const key = ((clipAt * (ENGINE_MAX_CLIPS + 1) + clip) * (MAX_FIXED_CLIPS + 1) + left) * 2 +
      (corrected ? 1 : 0);
    const known = memo.get(key);
    if (known) return known;
    if (--budget < 0) return [];
    const out: (readonly FrameCountFix[])[] = [];
    memo.set(key, out);
    if (clipAt + ANIMATION_HEADER_BYTES > size) return out;
    const kps = view.getInt32(clipAt + NAME_BYTES, true);
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    // A negative KPS where the stored counts put the header is a damaged field (the frame count still
    // sizes the clip); after a corrected count it is frame data read as a header, and so is a blank one.
    if (corrected && (kps < 0 || blankClip(view, clipAt))) return out;
    for (let delta = 0; delta <= 2 * FRAME_FIX_RANGE && out.length < 2; delta++) {
      // 0, -1, +1, -2, +2
      const change = delta === 0 ? 0 : (delta % 2 ? -1 : 1) * Math.ceil(delta / 2);
      const frames = stored + change;
      if (frames < 0 || (change && left === 0)) continue;
      // Frames added that are all zero bytes are what a tail of zeros reads as, not evidence.
      const next = clipAt + ANIMATION_HEADER_BYTES + frames * frameBytes;
      if (change > 0 && zeroFrom(view, next - change * frameBytes, next) >= next) continue;
      // The clips still to come need at least their headers.
      if (next + (animations - clip - 1) * ANIMATION_HEADER_BYTES > size) continue;
      const fix = change ? { clip, frames, stored, at: clipAt + NAME_BYTES + 4 } : undefined;
      for (const rest of suffixes(clip + 1, next, left - (change ? 1 : 0), corrected || change !== 0)) {
        out.push(fix ? [fix, ...rest] : rest);
        if (out.length === 2) break;
      }
    }
    return out;
  };
  const result = (): FrameCountSearch | undefined => {
    // Equally few corrections that fit more than one way: the frame data decide when exactly one
    // reading starts every corrected clip's frames where they look like the model's points.
    if (found.length > 1 && base) {
      const scored = found.map((fixes) => ({
        fixes,
        score: pointLikeness(view, at, vertexCount, animations, fixes, base),
      })).sort((a, b) => b.score - a.score);
      const [best, next] = scored;
      if (best.score >= POINT_LIKE_CORRELATION && best.score - next.score >= POINT_LIKE_MARGIN) {
        found.splice(0, found.length, best.fixes);
      }
    }
    return found.length === 1
      ? { kind: "fixed", fixes: found[0] }
      : found.length > 1
      ? { kind: "ambiguous", candidates: found.slice(0, 2) }
      : undefined;
  };
  for (let corrections = 1; corrections <= Math.min(MAX_FIXED_CLIPS, animations); corrections++) {
    found.push(...suffixes(0, at, corrections, false).map((fixes) => [...fixes]));
    if (budget < 0) return { kind: "none" };
    const done = result();
    if (done) return done;
    if (corrections === 1 && animations > 2) {
      // One habit for every clip: a converter that stores each count as a .rsc does (one less), or
      // one more, over a file of more clips than corrections are tried for one by one.
      for (const change of [-1, 1, -2, 2]) {
        const uniform = uniformFix(view, at, vertexCount, animations, change);
        if (uniform && ends(tailEnd(view, uniform.end, 0, 0, sounds))) found.push(uniform.fixes);
      }
      const same = result();
      if (same) return same;
    }
  }
  // One clip's count far off (left from another version of the clip): the data's size decides it
  // when exactly one count for exactly one clip makes the sections end there. Each count tried walks
  // the later clips, so the budget is charged per header read. When the first clip's header holds a
  // name, the header a count puts next must too (a real clip's header, not frame data or padding read
  // as one): most counts end there, so files of many clips are not walked once per count.
  const named = holdsName(view, at);
  const clipsEnd = (from: number, clips: number): number => {
    for (let c = 0; c < clips && from >= 0; c++) {
      if (--budget < 0) return -1;
      // After a changed count, a blank header is zeros read as a clip.
      if (from + ANIMATION_HEADER_BYTES <= size && blankClip(view, from)) return -1;
      from = tailEnd(view, from, vertexCount, 1, 0);
    }
    return from;
  };
  for (let clip = 0, clipAt = at; clip < animations && found.length < 4; clip++) {
    if (clipAt + ANIMATION_HEADER_BYTES > size) break;
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    const dataAt = clipAt + ANIMATION_HEADER_BYTES;
    const last = clip === animations - 1;
    // Frames past the stored count that are all zero bytes (every point at the origin) are what a tail
    // of zeros reads as, not evidence of frames: a count is not raised over them.
    const nonZero = zeroFrom(view, dataAt + Math.max(0, stored) * frameBytes);
    for (let frames = 0; dataAt + frames * frameBytes <= size && found.length < 4; frames++) {
      if (frames === stored) continue;
      if (--budget < 0) return { kind: "none" };
      const next = dataAt + frames * frameBytes;
      if (frames > stored && next <= nonZero) continue;
      if (named && !last && (next + NAME_BYTES > size || !holdsName(view, next))) continue;
      if (!last && next + ANIMATION_HEADER_BYTES <= size && blankClip(view, next)) continue;
      const end = clipsEnd(next, animations - clip - 1);
      if (budget < 0) return { kind: "none" };
      // With the model's points at hand, the clip's last frame so read must track them: a count far off
      // is read from its data's size only when the data are frames (not zeros, headers or padding).
      const framesReal = () =>
        !base || frames === 0 ||
        frameLikeness(view, next - frameBytes, vertexCount, base) >= POINT_LIKE_CORRELATION;
      if (end >= 0 && ends(tailEnd(view, end, 0, 0, sounds)) && framesReal()) {
        found.push([{ clip, frames, stored, at: clipAt + NAME_BYTES + 4 }]);
      }
    }
    if (stored < 0) break;
    clipAt = dataAt + stored * frameBytes;
  }
  return result() ?? { kind: "none" };
}

/** Bytes per block of {@link zeroBlocks}. */
const ZERO_BLOCK = 64;
const zeroBlockCache = new WeakMap<DataView, Int32Array>();

/**
 * For each 64-byte block of `view`, the first block at or after it holding a byte that is not zero:
 * the searches ask where zeros end from many places in a long tail of zeros, each in a few steps.
 */
function zeroBlocks(view: DataView): Int32Array {
  const known = zeroBlockCache.get(view);
  if (known) return known;
  const blocks = Math.ceil(view.byteLength / ZERO_BLOCK);
  const next = new Int32Array(blocks + 1).fill(blocks);
  for (let b = blocks - 1; b >= 0; b--) {
    let zero = true;
    for (let i = b * ZERO_BLOCK; i < Math.min((b + 1) * ZERO_BLOCK, view.byteLength) && zero; i++) {
      zero = view.getUint8(i) === 0;
    }
    next[b] = zero ? next[b + 1] : b;
  }
  zeroBlockCache.set(view, next);
  return next;
}

/** The first byte at or after `at` that is not zero, looking no further than `limit` (the file's end). */
function zeroFrom(view: DataView, at: number, limit = view.byteLength): number {
  const end = Math.min(limit, view.byteLength);
  const next = zeroBlocks(view);
  while (at < end) {
    if (at % ZERO_BLOCK === 0) {
      const block = next[at / ZERO_BLOCK];
      if (block * ZERO_BLOCK > at) {
        at = block * ZERO_BLOCK;
        continue;
      }
    }
    if (view.getUint8(at) !== 0) return at;
    at++;
  }
  return Math.min(at, end);
}

/**
 * Every clip read at its stored count plus `change`, where the clip headers so found are plausible
 * (the first may carry a damaged KPS): the fixes and where the clips end; undefined otherwise.
 */
function uniformFix(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  change: number,
): { fixes: FrameCountFix[]; end: number } | undefined {
  const fixes: FrameCountFix[] = [];
  const named = at + NAME_BYTES <= view.byteLength && holdsName(view, at);
  for (let clip = 0; clip < animations; clip++) {
    if (at + ANIMATION_HEADER_BYTES > view.byteLength) return undefined;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const stored = view.getInt32(at + NAME_BYTES + 4, true);
    const frames = stored + change;
    if ((kps < 0 && clip > 0) || stored < 0 || frames < 0) return undefined;
    // A later header is where the corrected counts put it: a blank one (zeros read as a clip), or one
    // without a name when the first clip has one, is frame data or padding, not a clip.
    if (clip > 0 && (blankClip(view, at) || (named && !holdsName(view, at)))) return undefined;
    fixes.push({ clip, frames, stored, at: at + NAME_BYTES + 4 });
    at += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
    if (at > view.byteLength) return undefined;
  }
  return { fixes, end: at };
}

/** The most texture rows {@link fittingTextureRows} tries (a 1024×512 picture written unscaled). */
const MAX_TEXTURE_ROWS = 2048;

/**
 * The texture heights (whole rows, other than the declared `declaredBytes`) from which the declared
 * clips and sounds, at their stored frame counts and lengths, end exactly at the end of the file or at
 * a valid anim→sound table — the file's texture when its size field was written from another picture
 * (a converter that writes the source image's size and the texture it resized). Empty when none does.
 * At most two are returned: more than one is ambiguous.
 *
 * @example
 * ```ts
 * fittingTextureRows(view, textureAt, 65536, 120, 2, 0, 256); // [64]: 64 rows of 256 are written
 * ```
 */
export function fittingTextureRows(
  view: DataView,
  textureAt: number,
  declaredBytes: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  tableBytes: number,
): number[] {
  const size = view.byteLength;
  const found: number[] = [];
  for (let rows = 0; rows <= MAX_TEXTURE_ROWS && found.length < 2; rows++) {
    const at = textureAt + rows * TEXTURE_ROW_BYTES;
    if (at > size) break;
    if (rows * TEXTURE_ROW_BYTES === declaredBytes) continue;
    // Another texture size moves every header: texels or frames of zeros read as one are blank.
    const end = tailEnd(view, at, vertexCount, animations, sounds, false, true);
    if (endsFile(view, end, tableBytes, sounds)) found.push(rows);
  }
  return found;
}

/** Longest run of bytes after a file's last section taken as a tool's padding (a 4,096-byte block). */
const MAX_PADDING = 4096;
const endsCache = new WeakMap<DataView, readonly number[]>();

/**
 * Where a `.car`'s sections may end: at the end of the file, or where the padding a tool added after
 * them begins — zero bytes up to a 512- to 4,096-byte block, and/or a DOS end-of-file byte 0x1A last.
 * A file whose last section itself ends in zero bytes has its padding start earlier: that reading is
 * taken only by the searches, which the declared counts ending at the end of the file never reach.
 *
 * @example
 * ```ts
 * sectionEnds(view); // [139264, 138625]: 639 bytes of zeros pad the file to a 512-byte block
 * ```
 */
export function sectionEnds(view: DataView): readonly number[] {
  const known = endsCache.get(view);
  if (known) return known;
  const size = view.byteLength;
  let at = size;
  if (at > 0 && view.getUint8(at - 1) === 0x1a) at--;
  while (at > 0 && size - at <= MAX_PADDING && view.getUint8(at - 1) === 0) at--;
  const ends = at < size && size - at <= MAX_PADDING ? [size, at] : [size];
  endsCache.set(view, ends);
  return ends;
}

/**
 * Whether the bytes from `end` to the end of the file may be bytes appended after it (see
 * `appendedRepair` in car_repair.ts): given only to the searches' last pass.
 */
export type AppendedBytes = (end: number) => boolean;

/** Most bytes other than zeros taken as appended after a file (a tool's or a transfer's trailer). */
export const MAX_APPENDED = 1024;

/**
 * {@link AppendedBytes} for `view`: zeros however many (a download manager's preallocated file, a
 * disk's slack copied along, a tool's padding to a block) and then at most {@link MAX_APPENDED} bytes
 * of anything (a trailer) up to the end of the file.
 */
export function appendedBytes(view: DataView): AppendedBytes {
  const size = view.byteLength;
  // Bytes before `zerosFrom` and before the last MAX_APPENDED are not all zeros.
  let zerosFrom = Math.max(0, size - MAX_APPENDED);
  while (zerosFrom > 0 && view.getUint8(zerosFrom - 1) === 0) zerosFrom--;
  return (end) => end >= zerosFrom && end < size;
}

/**
 * True when sections ending at `end` end the file: at one of {@link sectionEnds}, or at a valid
 * anim→sound table of `tableBytes` that does — or, given `appended`, with appended bytes after them.
 */
export function endsFile(
  view: DataView,
  end: number,
  tableBytes: number,
  sounds: number,
  appended?: AppendedBytes,
): boolean {
  if (end < 0) return false;
  const table = tableBytes > 0 && end + tableBytes <= view.byteLength &&
    validTable(view, end, tableBytes, sounds);
  return sectionEnds(view).some((e) => end === e || (table && end + tableBytes === e)) ||
    (appended !== undefined && (appended(end) || (table && appended(end + tableBytes))));
}

/** True when every int32 of the table is -1 or a sound index below `sounds`. */
export function validTable(view: DataView, at: number, bytes: number, sounds: number): boolean {
  for (let i = 0; i < bytes; i += 4) {
    const value = view.getInt32(at + i, true);
    if (value < -1 || value >= sounds) return false;
  }
  return true;
}
