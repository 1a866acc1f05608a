/**
 * A `.car` whose last clip's frame count is stored one too high, over the anim→sound table and a tool's
 * padding: with no sounds, the clip's one extra "frame" is the table of no sounds (256 bytes of 0xFF, 64
 * entries of -1) and the padding's zeros, and the stored counts end the sections inside the padding, so
 * they fit and no count repair runs (seed 70077 of `tool_saves.ts` with `padded_block` and
 * `frame_count_off`: 2 frames read as 3, the table warned as "not a table").
 *
 * The bytes tell: a frame that is the 0xFF run followed by zeros to its end and on to the end of the file
 * (or its DOS end-of-file byte) is the table and padding, not a frame — read one frame shorter, warned
 * naming both readings. A last frame that starts with the 0xFF run but goes on with other bytes may be
 * either: the stored count is read and the warning names both.
 *
 * @module
 */
import { type LastClip, lastClip, type SectionSearch } from "./car_sections.ts";
import { sectionEnds } from "./car_section_ends.ts";
import { tableFrame } from "./frame_likeness.ts";
import type { FrameCountFix } from "./car_frame_counts.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** Bytes of the anim→sound table (as car_repair.ts). */
const TABLE_BYTES = 256;

/** The counts {@link tableFrameRepair} reads. */
export interface TableFrameReading {
  readonly animationCount: number;
  readonly soundCount: number;
  readonly frameFixes: readonly FrameCountFix[];
}

/** The reading of `search`'s counts with its last clip (`last`) read as `frames` frames. */
export function lastClipRead(search: SectionSearch, last: LastClip, frames: number): TableFrameReading {
  const fix = { clip: search.animations - 1, frames, stored: last.stored, at: last.countAt };
  return { animationCount: search.animations, soundCount: search.sounds, frameFixes: [fix] };
}

/**
 * With the search's (declared) counts' sections ending the file and no sounds, the reading with the last
 * clip one frame shorter when its last frame is the anim→sound table and padding (see the module doc),
 * warned; undefined otherwise (the stored reading stands, warned when its last frame starts like the
 * table).
 */
export function tableFrameRepair(search: SectionSearch, warn: WarningSink): TableFrameReading | undefined {
  const { view, vertexCount, animations, sounds } = search;
  if (sounds !== 0 || animations <= 0 || vertexCount <= 0) return undefined;
  const last = lastClip(search);
  const { frameBytes, countAt, stored, dataAt } = last;
  // One frame left after the correction: a clip of no frames is no reading the bytes can vouch for.
  if (stored < 2) return undefined;
  const lastAt = dataAt + (stored - 1) * frameBytes;
  if (lastAt + TABLE_BYTES > view.byteLength) return undefined;
  for (let i = 0; i < TABLE_BYTES; i++) if (view.getUint8(lastAt + i) !== 0xff) return undefined;
  const clip = animations - 1;
  // The table then padding: zeros (and a DOS end-of-file byte) from the table's end to the file's.
  const padded = tableFrame(view, lastAt, frameBytes) &&
    sectionEnds(view).some((end) => end === lastAt + TABLE_BYTES);
  if (!padded) {
    // The 0xFF run, then bytes that are neither zeros nor the file's end: a frame starting with 128
    // coordinates of -1, or the table and bytes after it. Both readings are named.
    warn(
      `animation ${clip} stores ${stored} frame(s) at byte ${countAt}; its last frame (byte ${lastAt}) starts ` +
        `with ${TABLE_BYTES} bytes of 0xFF, as the anim→sound table of no sounds does, and goes on with ` +
        `other bytes: read as ${stored} frames, or as ${stored - 1} frames and the table at byte ${lastAt} ` +
        "with bytes after it — the file does not tell which, so the stored count is read",
      { offset: countAt, stored, other: stored - 1 },
    );
    return undefined;
  }
  warn(
    `animation ${clip} stores ${stored} frame(s) at byte ${countAt}, but its last frame (byte ${lastAt}) is ` +
      `the anim→sound table of no sounds (${TABLE_BYTES} bytes of 0xFF) and the padding's zeros after it: ` +
      `read as ${stored - 1} frames and the table, not ${stored} frames (a count edited by hand or stored ` +
      "by a tool one too high; the game plays the table as a frame)",
    { offset: countAt, stored, read: stored - 1 },
  );
  return lastClipRead(search, last, stored - 1);
}
