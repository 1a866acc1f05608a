/**
 * A `.car`'s sections after the texture — clips (`name, KPS, frames, frames × V × 6 bytes`) and sounds
 * (`name, length, length bytes`) — walked as a header's counts put them, and the one set of facts the
 * count searches share ({@link SectionSearch}). The header's AniCount and SfxCount are the only way to
 * find these sections, and real tools often store them (or a clip's frame count) wrong; the searches
 * that recover them live beside this module, one per thing recovered: clip and sound counts
 * (`car_fitting_counts.ts`), frame counts (`car_frame_counts.ts`, `car_far_frame_count.ts`), the
 * texture's size (`car_texture_rows.ts`); where sections may end is `car_section_ends.ts`.
 *
 * @module
 */
import { ANIMATION_HEADER_BYTES, NAME_BYTES, SOUND_HEADER_BYTES } from "./model.ts";
import { holdsName } from "./frame_likeness.ts";
import type { AppendedBytes } from "./car_section_ends.ts";

// The header sizes live in model.ts (frame_likeness.ts, which this module imports, needs them too);
// re-exported for the count searches that take them from here.
export { ANIMATION_HEADER_BYTES, SOUND_HEADER_BYTES } from "./model.ts";
/** The engine's character arrays hold 64 animations and 64 sounds. */
export const ENGINE_MAX_CLIPS = 64;

/**
 * What a count search reads: the file, where its clips start, how long a frame is, the counts it starts
 * from and what may follow the sounds. One object, so each search and repair takes the same facts by
 * name rather than six numbers in an order.
 */
export interface SectionSearch {
  /** The whole file. */
  readonly view: DataView;
  /** Byte of the first clip header: where the texture ends. */
  readonly at: number;
  /** The model's points: each frame holds `vertexCount × 6` bytes (int16 x, y, z). */
  readonly vertexCount: number;
  /** The clip count the search starts from: the header's (byte 32), or one a repair tries. */
  readonly animations: number;
  /** The sound count the search starts from: the header's (byte 36), or one a repair tries. */
  readonly sounds: number;
  /** Bytes of the anim→sound table that may follow the sounds (256; 0 when none is looked for). */
  readonly tableBytes: number;
  /**
   * The model's points (file units): frames that track them vouch for a reading. Searches that need
   * evidence from the frames find nothing without them.
   */
  readonly base?: Float32Array;
  /**
   * Zero bytes a reading's last section may end in past where a padded file's zeros start (see
   * `atSectionEnd`): 0, or `TRAILING_ZEROS` for the count searches' second try, after none fit exactly.
   */
  readonly trailingZeros?: number;
  /** Given to the last pass only: whether the bytes from an end on may have been appended to the file. */
  readonly appended?: AppendedBytes;
}

/** Where a search's last clip sits, walked by the stored frame counts of the clips before it. */
export interface LastClip {
  /** Bytes of one frame: `vertexCount × 6`. */
  readonly frameBytes: number;
  /** Byte of the last clip's header. */
  readonly headerAt: number;
  /** Byte of its stored frame count. */
  readonly countAt: number;
  /** Its stored frame count. */
  readonly stored: number;
  /** Byte of its first frame. */
  readonly dataAt: number;
}

/**
 * The search's last clip (`animations - 1`), found through the stored frame counts of the clips before
 * it: the repairs that question only the last clip's count (`car_table_frame.ts`, `car_padding_frame.ts`,
 * `car_unnamed_sound.ts`) take the others as stored. Callers check `animations > 0`.
 */
export function lastClip(search: SectionSearch): LastClip {
  const { view, vertexCount, animations } = search;
  const frameBytes = vertexCount * 6;
  let headerAt = search.at;
  for (let clip = 0; clip < animations - 1; clip++) {
    headerAt += ANIMATION_HEADER_BYTES + view.getInt32(headerAt + NAME_BYTES + 4, true) * frameBytes;
  }
  const countAt = headerAt + NAME_BYTES + 4;
  return {
    frameBytes,
    headerAt,
    countAt,
    stored: view.getInt32(countAt, true),
    dataAt: headerAt + ANIMATION_HEADER_BYTES,
  };
}

/** How {@link tailEnd} reads headers that are not where the file's stored counts put them. */
export interface WalkRules {
  /**
   * Read a negative KPS as a damaged field (for headers read where the stored counts put them: a damaged
   * KPS moves nothing, the frame count sizes the clip). Otherwise it makes the header implausible.
   */
  readonly negativeKps?: boolean;
  /**
   * A blank header (see {@link blankClip}, {@link blankSound}) is implausible: for headers read where no
   * stored count puts them, where zeros read as headers fit at many counts.
   */
  readonly noBlanks?: boolean;
}

/**
 * Where the sections after the texture end for `animations` clips and `sounds` sounds starting at
 * `at`, or -1 when a header is implausible (see {@link WalkRules}) or a section runs past the file.
 */
export function tailEnd(
  view: DataView,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  rules: WalkRules = {},
): number {
  const size = view.byteLength;
  for (let a = 0; a < animations; a++) {
    if (at + ANIMATION_HEADER_BYTES > size) return -1;
    const kps = view.getInt32(at + NAME_BYTES, true);
    const frames = view.getInt32(at + NAME_BYTES + 4, true);
    // KPS 0 is read (see parseCar); a negative one is not a clip's, unless read where it is stored.
    if ((kps < 0 && !rules.negativeKps) || frames < 0) return -1;
    if (rules.noBlanks && blankClip(view, at)) return -1;
    at += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
    if (at > size) return -1;
  }
  for (let s = 0; s < sounds; s++) {
    if (at + SOUND_HEADER_BYTES > size) return -1;
    const length = view.getInt32(at + NAME_BYTES, true);
    if (length < 0 || (rules.noBlanks && blankSound(view, at))) return -1;
    at += SOUND_HEADER_BYTES + length;
    if (at > size) return -1;
  }
  return at;
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
