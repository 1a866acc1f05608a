/**
 * A `.car` whose last clip's frame count is stored one too high over the first sound's header: the clip's
 * extra "frame" takes in that header and the start of the sound's bytes, and the first sound is read
 * further on, its name and length from the sound's own bytes. When the length so read happens to end the
 * sections where the file (or its anim→sound table) does — a sound ending in silence reads as length 0 —
 * the stored counts fit and no count repair runs (seed 97054 of `padded_counts.ts`: 2 frames read as 3, the
 * sound of 144 bytes as one of 0 bytes named with PCM).
 *
 * The bytes tell: read with the last clip a frame shorter, the first sound's header holds a name where the
 * stored reading's does not, and the sections so read end the file as well — read so, warned naming both.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { lastClip, type SectionSearch, SOUND_HEADER_BYTES, tailEnd } from "./car_sections.ts";
import { endsFile } from "./car_section_ends.ts";
import { holdsName } from "./frame_likeness.ts";
import { lastClipRead, type TableFrameReading } from "./car_table_frame.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/**
 * With the search's (declared) counts' sections ending the file, the reading with the last clip one frame
 * shorter when only that reading's sound headers hold names and it ends the file too (see the module doc),
 * warned; undefined otherwise.
 */
export function unnamedSoundRepair(search: SectionSearch, warn: WarningSink): TableFrameReading | undefined {
  const { view, vertexCount, animations, sounds } = search;
  if (sounds <= 0 || animations <= 0 || vertexCount <= 0) return undefined;
  const last = lastClip(search);
  const { frameBytes, countAt, stored, dataAt } = last;
  const soundAt = dataAt + stored * frameBytes;
  if (stored < 2 || soundAt + SOUND_HEADER_BYTES > view.byteLength || holdsName(view, soundAt)) {
    return undefined;
  }
  const shorterAt = soundAt - frameBytes;
  if (!holdsName(view, shorterAt)) return undefined;
  // Every sound header of the shorter reading holds a name, and its sections end the file.
  let at = shorterAt;
  for (let s = 0; s < sounds; s++) {
    if (at < 0 || at + SOUND_HEADER_BYTES > view.byteLength || !holdsName(view, at)) return undefined;
    at = tailEnd(view, at, 0, 0, 1);
  }
  if (!endsFile({ ...search, appended: undefined, trailingZeros: 0 }, at)) return undefined;
  const clip = animations - 1;
  warn(
    `animation ${clip} stores ${stored} frame(s) at byte ${countAt}; so read, sound 0's header (byte ${soundAt}) ` +
      `holds no name, its bytes the sound's own. Read as ${
        stored - 1
      } frames, sound 0 is the named header at ` +
      `byte ${shorterAt} (${
        view.getInt32(shorterAt + NAME_BYTES, true)
      } bytes) and the sections end the file ` +
      `as well: read so, not ${stored} frames and a sound of the bytes after them (a count stored one too high ` +
      "took in the sound's header)",
    { offset: countAt, stored, read: stored - 1 },
  );
  return lastClipRead(search, last, stored - 1);
}
