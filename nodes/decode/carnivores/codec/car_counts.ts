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
 * `at`, or -1 when a header is implausible or a section runs past the file.
 */
export function tailEnd(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
): number {
  const size = view.byteLength;
  for (let a = 0; a < animations; a++) {
    if (at + ANIMATION_HEADER_BYTES > size) return -1;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const frames = view.getInt32(at + NAME_BYTES + 4, true);
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

/** True when every int32 of the table is -1 or a sound index below `sounds`. */
function validTable(view: DataView, at: number, bytes: number, sounds: number): boolean {
  for (let i = 0; i < bytes; i += 4) {
    const value = view.getInt32(at + i, true);
    if (value < -1 || value >= sounds) return false;
  }
  return true;
}
