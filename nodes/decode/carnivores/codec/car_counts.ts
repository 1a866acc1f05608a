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
import { holdsName, POINT_LIKE_CORRELATION, POINT_LIKE_MARGIN, pointLikeness } from "./frame_likeness.ts";

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
 * damaged KPS does not move anything, the frame count sizes the clip).
 */
export function tailEnd(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  negativeKps = false,
): number {
  const size = view.byteLength;
  for (let a = 0; a < animations; a++) {
    if (at + ANIMATION_HEADER_BYTES > size) return -1;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const frames = view.getInt32(at + NAME_BYTES + 4, true);
    // KPS 0 is read (see parseCar); a negative one is not a clip's, unless read where it is stored.
    if ((kps < 0 && !negativeKps) || frames < 0) return -1;
    at += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
    if (at > size) return -1;
  }
  for (let s = 0; s < sounds; s++) {
    if (at + SOUND_HEADER_BYTES > size) return -1;
    const length = view.getInt32(at + NAME_BYTES, true);
    if (length < 0) return -1;
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
): FittingCounts | undefined {
  let best: FittingCounts | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (let animations = 0; animations <= ENGINE_MAX_CLIPS; animations++) {
    const clipsEnd = tailEnd(view, at, vertexCount, animations, 0);
    if (clipsEnd < 0) break; // more clips cannot fit either: the walk is a prefix
    for (let sounds = 0; sounds <= ENGINE_MAX_CLIPS; sounds++) {
      const end = tailEnd(view, clipsEnd, 0, 0, sounds);
      if (end < 0) break;
      if (!endsFile(view, end, tableBytes, sounds)) continue;
      const table = !sectionEnds(view).includes(end);
      const distance = Math.abs(animations - declaredAnimations) + Math.abs(sounds - declaredSounds);
      if (distance < bestDistance) {
        [best, bestDistance, tied] = [{ animations, sounds, table }, distance, false];
      } else if (distance === bestDistance) {
        tied = true;
      }
    }
  }
  return tied ? undefined : best;
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
): FrameCountSearch {
  if (vertexCount <= 0 || animations <= 0) return { kind: "none" };
  const size = view.byteLength;
  const frameBytes = vertexCount * 6;
  let budget = SEARCH_BUDGET;
  const found: FrameCountFix[][] = [];
  const ends = (end: number) => endsFile(view, end, tableBytes, sounds);
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
    // sizes the clip); after a corrected count it is frame data read as a header.
    if (kps < 0 && corrected) return out;
    for (let delta = 0; delta <= 2 * FRAME_FIX_RANGE && out.length < 2; delta++) {
      // 0, -1, +1, -2, +2
      const change = delta === 0 ? 0 : (delta % 2 ? -1 : 1) * Math.ceil(delta / 2);
      const frames = stored + change;
      if (frames < 0 || (change && left === 0)) continue;
      // The clips still to come need at least their headers.
      const next = clipAt + ANIMATION_HEADER_BYTES + frames * frameBytes;
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
      from = tailEnd(view, from, vertexCount, 1, 0);
    }
    return from;
  };
  for (let clip = 0, clipAt = at; clip < animations && found.length < 4; clip++) {
    if (clipAt + ANIMATION_HEADER_BYTES > size) break;
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    const dataAt = clipAt + ANIMATION_HEADER_BYTES;
    const last = clip === animations - 1;
    for (let frames = 0; dataAt + frames * frameBytes <= size && found.length < 4; frames++) {
      if (frames === stored) continue;
      if (--budget < 0) return { kind: "none" };
      const next = dataAt + frames * frameBytes;
      if (named && !last && (next + NAME_BYTES > size || !holdsName(view, next))) continue;
      const end = clipsEnd(next, animations - clip - 1);
      if (budget < 0) return { kind: "none" };
      if (end >= 0 && ends(tailEnd(view, end, 0, 0, sounds))) {
        found.push([{ clip, frames, stored, at: clipAt + NAME_BYTES + 4 }]);
      }
    }
    if (stored < 0) break;
    clipAt = dataAt + stored * frameBytes;
  }
  return result() ?? { kind: "none" };
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
  for (let clip = 0; clip < animations; clip++) {
    if (at + ANIMATION_HEADER_BYTES > view.byteLength) return undefined;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const stored = view.getInt32(at + NAME_BYTES + 4, true);
    const frames = stored + change;
    if ((kps < 0 && clip > 0) || stored < 0 || frames < 0) return undefined;
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
    const end = tailEnd(view, at, vertexCount, animations, sounds);
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
 * True when sections ending at `end` end the file: at one of {@link sectionEnds}, or at a valid
 * anim→sound table of `tableBytes` that does.
 */
export function endsFile(view: DataView, end: number, tableBytes: number, sounds: number): boolean {
  if (end < 0) return false;
  return sectionEnds(view).some((e) =>
    end === e || (end + tableBytes === e && validTable(view, end, tableBytes, sounds))
  );
}

/** True when every int32 of the table is -1 or a sound index below `sounds`. */
export function validTable(view: DataView, at: number, bytes: number, sounds: number): boolean {
  for (let i = 0; i < bytes; i += 4) {
    const value = view.getInt32(at + i, true);
    if (value < -1 || value >= sounds) return false;
  }
  return true;
}
