/**
 * `.car` clips whose stored frame counts disagree with their frame data: a converter that stores each
 * count as a `.rsc` does (one less than the frames), a hand edit, or a count left from another version
 * of the clip. Read with the stored counts, the game takes the next clip's header from frame data. The
 * fewest clips whose counts, corrected, make the sections end the file are the file's (see
 * {@link fittingFrameCounts}); a count far off is `car_far_frame_count.ts`'s.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { holdsName, POINT_LIKE_CORRELATION, POINT_LIKE_MARGIN, pointLikeness } from "./frame_likeness.ts";
import {
  ANIMATION_HEADER_BYTES,
  blankClip,
  ENGINE_MAX_CLIPS,
  type SectionSearch,
  tailEnd,
} from "./car_sections.ts";
import { endsFile } from "./car_section_ends.ts";
import { zeroFrom } from "./zero_runs.ts";
import { farFrameCounts } from "./car_far_frame_count.ts";

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

/** Clip headers a frame-count search may still visit (shared by its passes). */
export interface SearchBudget {
  /** Headers left; below 0, the search gives up with nothing found. */
  left: number;
}

/** How far from a stored frame count the search for several wrong counts looks. */
const FRAME_FIX_RANGE = 2;
/** At most this many clips corrected in one file. */
const MAX_FIXED_CLIPS = 4;
/** Clip headers the search may visit in all (a bound on the work for files of many clips). */
const SEARCH_BUDGET = 2_000_000;

/**
 * The fewest clips whose frame counts, each changed by at most 2 (a converter that stores a count as a
 * `.rsc` does, one less than its frames, or a hand edit), make the search's counts' sections end
 * exactly at the end of the file or at a valid anim→sound table. Tried with 1 corrected clip, then
 * every clip changed alike (one habit over the whole file), then 2, … up to 4 clips; at each step
 * every stored count is tried first, so no more clips are corrected than the file needs. Last, one
 * clip at any count (a count far off, or negative; `car_far_frame_count.ts`): the data's size decides
 * it when exactly one fits. A negative KPS where the stored counts put a header is a damaged field,
 * not frame data, and does not stop the search; a header a corrected reading reads as a clip (its own
 * count corrected, or found after a correction) holds a name when the first clip's does. Several sets of equally few corrections are settled
 * by the frame data when one reading's frames alone track the model's points (`base`), else
 * `ambiguous` (nothing is read from a guess); none within the bound (or more work than
 * {@link SEARCH_BUDGET}) is `none`. With `vouch` (the last pass, which takes only readings the file
 * vouches for), readings it refuses are dropped at each step, so they do not hide one with more
 * corrections that it takes. Read with the stored counts, the game takes the next clip's header
 * from frame data.
 *
 * @example
 * ```ts
 * const found = fittingFrameCounts({ view, at: textureEnd, vertexCount: 120, animations: 3, sounds: 0, tableBytes: 256 });
 * if (found.kind === "fixed") console.log(found.fixes); // [{ clip: 0, frames: 31, stored: 30, at: … }, …]
 * ```
 */
export function fittingFrameCounts(
  search: SectionSearch,
  vouch?: (fixes: readonly FrameCountFix[]) => boolean,
): FrameCountSearch {
  const { view, at, vertexCount, animations, sounds, base } = search;
  if (vertexCount <= 0 || animations <= 0) return { kind: "none" };
  const size = view.byteLength;
  const frameBytes = vertexCount * 6;
  const budget: SearchBudget = { left: SEARCH_BUDGET };
  const found: FrameCountFix[][] = [];
  const ends = (end: number) => endsFile(search, end);
  // The readings from a clip on depend only on where its header is, the corrections left and whether
  // one was made before (a negative KPS is then frame data): memoised, so the many ways of reaching one
  // header (frame data read as headers of 0 frames, as zero-filled frames and padding give) are walked
  // once. Without it, 64 clips and a tail of zeros walked the 2,000,000-header budget twice (~1–2 s).
  const memo = new Map<number, readonly (readonly FrameCountFix[])[]>();
  const named = holdsName(view, at);
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
    if (--budget.left < 0) return [];
    const out: (readonly FrameCountFix[])[] = [];
    memo.set(key, out);
    if (clipAt + ANIMATION_HEADER_BYTES > size) return out;
    const kps = view.getInt32(clipAt + NAME_BYTES, true);
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    // A negative KPS where the stored counts put the header is a damaged field (the frame count still
    // sizes the clip); after a corrected count it is frame data read as a header, and so is a blank one.
    if (corrected && (kps < 0 || blankClip(view, clipAt))) return out;
    // A clip a correction reads — its count corrected, or its header found after one — is a clip a
    // tool wrote: named when the first clip is. Bytes of the anim→sound table or frame data read as a
    // header (a name field of 0xFF bytes, KPS -1) are not, though a count of 0 there may end the file.
    const unnamed = named && !holdsName(view, clipAt);
    if (corrected && unnamed) return out;
    for (let delta = 0; delta <= 2 * FRAME_FIX_RANGE && out.length < 2; delta++) {
      // 0, -1, +1, -2, +2
      const change = delta === 0 ? 0 : (delta % 2 ? -1 : 1) * Math.ceil(delta / 2);
      const frames = stored + change;
      if (frames < 0 || (change && (left === 0 || unnamed))) continue;
      // A frame added that is all zero bytes (every point at the origin) is what a tail of zeros reads
      // as, not evidence: a count is not raised over one, even with a real frame before it.
      const next = clipAt + ANIMATION_HEADER_BYTES + frames * frameBytes;
      if (change > 0 && zeroFrameIn(view, next - change * frameBytes, next, frameBytes)) continue;
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
    // Readings the file does not vouch for are no answer: the search goes on to more corrections.
    if (vouch) found.splice(0, found.length, ...found.filter((fixes) => vouch(fixes)));
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
    if (budget.left < 0) return { kind: "none" };
    const done = result();
    if (done) return done;
    if (corrections === 1 && animations > 2) {
      // One habit for every clip: a converter that stores each count as a .rsc does (one less), or
      // one more, over a file of more clips than corrections are tried for one by one.
      for (const change of [-1, 1, -2, 2]) {
        const uniform = uniformFix(search, change);
        if (uniform && ends(tailEnd(view, uniform.end, 0, 0, sounds))) found.push(uniform.fixes);
      }
      const same = result();
      if (same) return same;
    }
  }
  const far = farFrameCounts(search, budget);
  if (!far) return { kind: "none" };
  found.push(...far);
  return result() ?? { kind: "none" };
}

/**
 * Every clip read at its stored count plus `change`, where the clip headers so found are plausible
 * (the first may carry a damaged KPS): the fixes and where the clips end; undefined otherwise.
 */
function uniformFix(
  { view, at, vertexCount, animations }: SectionSearch,
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

/** Whether one of the frames of `frameBytes` from `from` to `to` is all zero bytes. */
function zeroFrameIn(view: DataView, from: number, to: number, frameBytes: number): boolean {
  for (let at = from; at < to; at += frameBytes) {
    if (zeroFrom(view, at, at + frameBytes) >= at + frameBytes) return true;
  }
  return false;
}
