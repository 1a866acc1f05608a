/**
 * A `.car` whose last clip's frame count is stored one (or two) too high, in a file with no sounds and no
 * anim→sound table that a tool padded with zeros to a block: the clip's extra "frame" is the padding's
 * zeros, and the stored counts end the sections inside the padding, so they fit and no count repair runs
 * (seed 96021 of `tool_saves.ts` with `padded_block` and `frame_count_off`: 2 frames read as 3, the last
 * one every point at the origin, and the padding after it warned as "not a table").
 *
 * The bytes tell: a last frame of zero bytes only that lies wholly in the padding, after a frame that is
 * not zeros and ends where the padding starts, is padding — no tool bakes a frame that folds every point
 * onto the origin. Read shorter, warned naming both readings (a tail of zero frames after zero frames —
 * a clip a tool could not bake — is left as stored: nothing tells it from zeros).
 *
 * @module
 */
import { lastClip, type SectionSearch } from "./car_sections.ts";
import { atSectionEnd, inPadding, TRAILING_ZEROS } from "./car_section_ends.ts";
import { zeroFrom } from "./zero_runs.ts";
import { lastClipRead, type TableFrameReading } from "./car_table_frame.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** At most this many trailing frames of zeros are read as padding (the frame-count searches' range). */
const MAX_PADDING_FRAMES = 2;

/**
 * With the search's (declared) counts' sections ending the file and no sounds, the reading with the last
 * clip's trailing frames of zeros in the padding left out (see the module doc), warned; undefined
 * otherwise.
 */
export function paddingFrameRepair(search: SectionSearch, warn: WarningSink): TableFrameReading | undefined {
  const { view, vertexCount, animations, sounds } = search;
  if (sounds !== 0 || animations <= 0 || vertexCount <= 0) return undefined;
  const last = lastClip(search);
  const { frameBytes, countAt, stored, dataAt } = last;
  const zeroFrame = (f: number) => {
    const from = dataAt + f * frameBytes;
    return zeroFrom(view, from, from + frameBytes) >= from + frameBytes;
  };
  let frames = stored;
  while (
    stored - frames < MAX_PADDING_FRAMES && frames > 1 &&
    inPadding(view, dataAt + (frames - 1) * frameBytes) &&
    zeroFrame(frames - 1)
  ) frames--;
  // The frame left last is a frame (not zeros), and the sections so read end where the padding starts.
  if (
    frames === stored || zeroFrame(frames - 1) ||
    !atSectionEnd(view, dataAt + frames * frameBytes, TRAILING_ZEROS)
  ) {
    return undefined;
  }
  const clip = animations - 1;
  const dropped = stored - frames;
  warn(
    `animation ${clip} stores ${stored} frame(s) at byte ${countAt}, but its last ${
      dropped > 1
        ? `${dropped} frames (from byte ${dataAt + frames * frameBytes}) are`
        : `frame (byte ${dataAt + frames * frameBytes}) is`
    } zero bytes only, in the zeros a tool padded the file with: read as ${frames} frames and the padding, ` +
      `or as ${stored} frames whose last folds every point onto the origin — no tool bakes such a frame, so ` +
      `${frames} are read (a count edited by hand or stored too high; the game plays the zeros as a frame)`,
    { offset: countAt, stored, read: frames },
  );
  return lastClipRead(search, last, frames);
}
