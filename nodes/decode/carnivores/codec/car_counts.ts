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
import { NAME_BYTES } from "./model.ts";

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
 * `at` (one clip's frame count replaced by `frameOverride`), or -1 when a header is implausible or a
 * section runs past the file.
 */
export function tailEnd(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  frameOverride?: FrameCountFix,
): number {
  const size = view.byteLength;
  for (let a = 0; a < animations; a++) {
    if (at + ANIMATION_HEADER_BYTES > size) return -1;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const frames = frameOverride?.clip === a
      ? frameOverride.frames
      : view.getInt32(at + NAME_BYTES + 4, true);
    if (kps < 0 || frames < 0) return -1; // KPS 0 is read (see parseCar); a negative one is not a clip
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
  const size = view.byteLength;
  let best: FittingCounts | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (let animations = 0; animations <= ENGINE_MAX_CLIPS; animations++) {
    const clipsEnd = tailEnd(view, at, vertexCount, animations, 0);
    if (clipsEnd < 0) break; // more clips cannot fit either: the walk is a prefix
    for (let sounds = 0; sounds <= ENGINE_MAX_CLIPS; sounds++) {
      const end = tailEnd(view, clipsEnd, 0, 0, sounds);
      if (end < 0) break;
      const table = end + tableBytes === size && validTable(view, end, tableBytes, sounds);
      if (end !== size && !table) continue;
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
}

/** How far from the stored frame count {@link fittingFrameCount} looks. */
const FRAME_FIX_RANGE = 2;

/**
 * The one clip whose frame count, changed by at most 2 (a converter that stores a count as a `.rsc`
 * does, one less than its frames, or a hand edit), makes the declared counts' sections end exactly at
 * the end of the file or at a valid anim→sound table; undefined when none or several do. Read with
 * the stored count, the game takes the next clip's header from frame data.
 *
 * @example
 * ```ts
 * const fix = fittingFrameCount(view, textureEnd, 120, 2, 0, 256); // { clip: 0, frames: 31, stored: 30 }
 * ```
 */
export function fittingFrameCount(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  tableBytes: number,
): FrameCountFix | undefined {
  if (vertexCount <= 0) return undefined;
  const size = view.byteLength;
  let found: FrameCountFix | undefined;
  let clipAt = at;
  for (let clip = 0; clip < animations && clipAt + ANIMATION_HEADER_BYTES <= size; clip++) {
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    for (let delta = -FRAME_FIX_RANGE; delta <= FRAME_FIX_RANGE; delta++) {
      const fix = { clip, frames: stored + delta, stored };
      if (!delta || fix.frames < 0) continue;
      const end = tailEnd(view, at, vertexCount, animations, 0, fix);
      const tail = end < 0 ? -1 : tailEnd(view, end, 0, 0, sounds);
      if (tail < 0) continue;
      if (tail !== size && !(tail + tableBytes === size && validTable(view, tail, tableBytes, sounds))) {
        continue;
      }
      if (found) return undefined;
      found = fix;
    }
    // The clips before the fixed one are read as stored.
    if (stored < 0) break;
    clipAt += ANIMATION_HEADER_BYTES + stored * vertexCount * 6;
  }
  return found;
}

/** True when every int32 of the table is -1 or a sound index below `sounds`. */
function validTable(view: DataView, at: number, bytes: number, sounds: number): boolean {
  for (let i = 0; i < bytes; i += 4) {
    const value = view.getInt32(at + i, true);
    if (value < -1 || value >= sounds) return false;
  }
  return true;
}
