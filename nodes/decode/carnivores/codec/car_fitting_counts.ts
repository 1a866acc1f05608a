/**
 * `.car` clip and sound counts that disagree with the sections the file holds. A file whose counts
 * were edited by hand (a clip or sound cut out with a hex editor, a tool that wrote the count before
 * dropping a clip) no longer ends where its counts say. Read with the declared counts, a count too low
 * reads the next clip as a sound (its KPS as the sound's length) and frame data as the anim→sound
 * table; a count too high reads a sound as a clip.
 *
 * The sections themselves say where they end: a clip is `name, KPS ≥ 0, frames ≥ 0, frames × V × 6
 * bytes`, a sound is `name, length ≥ 0, length bytes`, and retail files end exactly after the sounds
 * or after the 256-byte anim→sound table. When the declared counts do not end so and other counts
 * do, those counts are the file's.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { holdsName } from "./frame_likeness.ts";
import {
  ANIMATION_HEADER_BYTES,
  blankClip,
  blankSound,
  ENGINE_MAX_CLIPS,
  type SectionSearch,
  SOUND_HEADER_BYTES,
  tailEnd,
} from "./car_sections.ts";
import { endsFile, soundHeaderInPadding } from "./car_section_ends.ts";

/** Counts whose sections end at the file's end (or 256 bytes before it, the anim→sound table). */
export interface FittingCounts {
  readonly animations: number;
  readonly sounds: number;
  /** True when the 256-byte anim→sound table follows the sounds. */
  readonly table: boolean;
}

/**
 * The counts (at most 64 each) whose sections end exactly at the end of the file, or at the 256-byte
 * anim→sound table whose entries are all -1 or a sound of the file — the one nearest the search's
 * (declared) counts; undefined when none or several equally near fit.
 *
 * @example
 * ```ts
 * const fit = fittingCounts({ view, at: textureEnd, vertexCount: 120, animations: 1, sounds: 1, tableBytes: 256 });
 * // { animations: 2, sounds: 1, table: true }
 * ```
 */
export function fittingCounts(search: SectionSearch): FittingCounts | undefined {
  const [best, next] = allFittingCounts(search);
  return best && (!next || distance(search, next) > distance(search, best)) ? best : undefined;
}

/** How far `fit`'s counts are from the search's. */
function distance(search: SectionSearch, fit: FittingCounts): number {
  return Math.abs(fit.animations - search.animations) + Math.abs(fit.sounds - search.sounds);
}

/**
 * Every count pair of {@link fittingCounts}'s search that ends the file (with `appended`, before bytes
 * that may have been appended), nearest the declared counts first.
 */
export function allFittingCounts(search: SectionSearch): FittingCounts[] {
  const { view, at, vertexCount } = search;
  const fits: FittingCounts[] = [];
  // A header the declared counts do not put where it is read must be one a tool wrote: not blank
  // (zeros or padding read as a clip of 0 frames, or a sound of 0 bytes, 40 and 36 bytes at a time,
  // which a tail of zeros fits at many counts), and a clip's named when the first clip's is.
  const declared = declaredHeaders(search);
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
        // A sound header read from a padded file's zeros is no sound, wherever a count puts it.
        if ((!declared.has(end) && blankSound(view, end)) || soundHeaderInPadding(view, end)) break;
        end = tailEnd(view, end, 0, 0, 1);
        if (end < 0) break;
      }
      if (!endsFile({ ...search, sounds }, end)) continue;
      fits.push({ animations, sounds, table: !endsFile({ ...search, sounds, tableBytes: 0 }, end) });
    }
  }
  // Stable: equally near fits keep the search's order.
  return fits.map((fit, i) => ({ fit, i }))
    .sort((a, b) => distance(search, a.fit) - distance(search, b.fit) || a.i - b.i)
    .map(({ fit }) => fit);
}

/** Where the declared counts put each clip and sound header (up to the first that does not fit). */
function declaredHeaders({ view, at, vertexCount, animations, sounds }: SectionSearch): Set<number> {
  const headers = new Set<number>();
  for (let i = 0; i < animations + sounds && at >= 0; i++) {
    headers.add(at);
    at = i < animations
      ? tailEnd(view, at, vertexCount, 1, 0, { negativeKps: true })
      : tailEnd(view, at, 0, 0, 1);
  }
  return headers;
}
