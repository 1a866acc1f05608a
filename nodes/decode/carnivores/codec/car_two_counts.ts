/**
 * A `.car` with two damaged counts and nothing appended: a clip or sound count edited by hand (a
 * clip count raised for a clip never added, a sound count lowered for a sound "cut" without its bytes)
 * and one clip's frame count off as well (a count stored as a `.rsc` stores it, or a slip). Neither
 * other counts alone nor corrected frame counts alone end the sections at the end of the file, so the
 * single repairs (`car_fitting_counts.ts`, `car_frame_counts.ts`) find nothing and the game (and a reader of the stored counts) takes
 * the next header from frame data.
 *
 * The frame-count search is run for each clip and sound count pair one edit from the declared ones; a
 * reading is read only when exactly one, over all those pairs, is vouched for by the file (frames that
 * track the model's points, headers that hold names when the first does, no sound whose bytes are
 * frames — `vouchedSections`). The warning names both counts assumed damaged. Otherwise nothing is
 * read from the guess.
 *
 * @module
 */
import { ANIMATION_HEADER_BYTES, type SectionSearch } from "./car_sections.ts";
import { sectionEnds } from "./car_section_ends.ts";
import { fittingFrameCounts, type FrameCountFix } from "./car_frame_counts.ts";
import { NAME_BYTES } from "./model.ts";
import { vouchedSections } from "./car_appended.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** The counts {@link twoCountRepair} read. */
export interface TwoCountReading {
  readonly animationCount: number;
  readonly soundCount: number;
  readonly frameFixes: readonly FrameCountFix[];
}

/**
 * The clip and sound counts (one edit from the search's, the declared ones) and corrected frame counts
 * with which the sections from `at` end at the end of the file (or at the anim→sound table of
 * `tableBytes`), when the file vouches for exactly one such reading; undefined otherwise. Without
 * `base` (the model's points) nothing is vouched for.
 */
export function twoCountRepair(search: SectionSearch, warn: WarningSink): TwoCountReading | undefined {
  const { view, at, vertexCount, animations: declaredAnimations, sounds: declaredSounds, base } = search;
  if (!base || vertexCount <= 0) return undefined;
  const pairs: [number, number][] = [
    [declaredAnimations - 1, declaredSounds],
    [declaredAnimations + 1, declaredSounds],
    [declaredAnimations, declaredSounds + 1],
    [declaredAnimations, declaredSounds - 1],
  ];
  const vouched: TwoCountReading[] = [];
  for (const [animations, sounds] of pairs) {
    if (animations <= 0 || sounds < 0 || animations > 64 || sounds > 64) continue;
    const found = fittingFrameCounts({ ...search, animations, sounds });
    const candidates = found.kind === "fixed"
      ? [found.fixes]
      : found.kind === "ambiguous"
      ? found.candidates
      : [];
    for (const frameFixes of candidates) {
      const reading = { animationCount: animations, soundCount: sounds, frameFixes };
      if (cutLike(view, at, vertexCount, declaredAnimations, reading)) continue;
      if (vouchedSections({ ...search, base }, reading)) vouched.push(reading);
    }
    // Two readings vouched for: the file does not say which.
    if (vouched.length > 1) return undefined;
  }
  if (vouched.length !== 1) return undefined;
  const [reading] = vouched;
  const fixes = reading.frameFixes.map((f) =>
    `animation ${f.clip}'s frame count at byte ${f.at} read as ${f.frames}, not ${f.stored}`
  ).join(", ");
  warn(
    `the header declares ${declaredAnimations} animation(s) and ${declaredSounds} sound(s) at byte 32, and ` +
      `neither other counts nor corrected frame counts alone end their sections at the end of the file; with ` +
      `${reading.animationCount} animation(s) and ${reading.soundCount} sound(s), and ${fixes}, they do, and ` +
      `only so do the clips' frames track the model's points and their headers hold names: read so, assuming ` +
      "two damaged counts (a count edited by hand and a frame count off)",
    {
      offset: 32,
      declared: [declaredAnimations, declaredSounds],
      read: [reading.animationCount, reading.soundCount],
      frames: reading.frameFixes.map((f) => [f.clip, f.frames]),
    },
  );
  return reading;
}

/**
 * Whether `reading` is what a file cut short at a frame boundary reads as: fewer clips or sounds than
 * declared (the pairs tried are one edit away, so none more), no sounds, the last clip read with fewer frames than it stores and the file ending right after them
 * (no anim→sound table). The cut lost the clips and sounds after it; the reading would blame a count
 * edited by hand, so it is not taken: the parser keeps the clip's frames there and names both readings
 * (`car_cut_clip.ts`).
 */
function cutLike(
  view: DataView,
  at: number,
  vertexCount: number,
  declaredAnimations: number,
  reading: TwoCountReading,
): boolean {
  const last = reading.frameFixes.find((f) => f.clip === reading.animationCount - 1);
  // A cut only loses sections: a clip or sound more than declared is no cut.
  if (reading.animationCount > declaredAnimations || reading.soundCount > 0) return false;
  if (!last || last.frames >= last.stored) return false;
  let end = at;
  for (let clip = 0; clip < reading.animationCount; clip++) {
    const frames = reading.frameFixes.find((f) => f.clip === clip)?.frames ??
      view.getInt32(end + NAME_BYTES + 4, true);
    end += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
  }
  return sectionEnds(view).includes(end);
}
