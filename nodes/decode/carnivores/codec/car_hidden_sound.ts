/**
 * A `.car` whose stored counts end its sections at the end of the file although two are damaged: a
 * sound count lowered by hand (a sound "cut" without its bytes) and the last clip's frame count raised
 * by as many frames as that sound's header and bytes fill. A sound of `36 + length` bytes that is a
 * whole number of frames long is then read as the clip's last frames, and nothing else in the file
 * says so: every count fits, so no count repair runs, and the clip plays a frame of sound
 * bytes (seed 9278 of `tool_saves.ts` with `count_edited` and `frame_count_off`: 9 frames and 2 sounds
 * read as 10 frames and 1 sound, silently).
 *
 * The bytes tell: the frames taken from the sound start with a header holding a name whose length ends
 * the sound exactly where the declared sounds start (or the file ends), the frame before them tracks
 * the model's points, and they track them clearly less. Read so, with a warning naming the clip and both readings.
 *
 * @module
 */
import {
  ANIMATION_HEADER_BYTES,
  ENGINE_MAX_CLIPS,
  type SectionSearch,
  SOUND_HEADER_BYTES,
} from "./car_sections.ts";
import type { FrameCountFix } from "./car_frame_counts.ts";
import { validTable } from "./car_section_ends.ts";
import { NAME_BYTES } from "./model.ts";
import { NameReader } from "./names.ts";
import { frameLikeness, holdsName, POINT_LIKE_CORRELATION, POINT_LIKE_MARGIN } from "./frame_likeness.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** The counts {@link hiddenSound} reads. */
export interface HiddenSoundReading {
  readonly animationCount: number;
  readonly soundCount: number;
  readonly frameFixes: readonly FrameCountFix[];
}

/**
 * With the search's (declared) counts' sections ending the file (from `at`, the texture's end), read
 * with the frame counts `fixes` corrects (none, or a frame-count repair that raised the last clip's):
 * the reading with the last clip's final frames read as one more sound, when those frames are a sound
 * (see the module doc), warned; undefined otherwise (the reading stands). Without `base` (the model's
 * points) nothing is vouched for.
 */
export function hiddenSound(
  search: SectionSearch,
  warn: WarningSink,
  fixes: readonly FrameCountFix[] = [],
): HiddenSoundReading | undefined {
  const { view, at, vertexCount, animations, sounds, tableBytes, base } = search;
  if (!base || vertexCount <= 0 || animations <= 0 || sounds + 1 > ENGINE_MAX_CLIPS) return undefined;
  const frameBytes = vertexCount * 6;
  let clipAt = at;
  const framesOf = (clip: number, headerAt: number) =>
    fixes.find((f) => f.clip === clip)?.frames ?? view.getInt32(headerAt + NAME_BYTES + 4, true);
  for (let clip = 0; clip < animations - 1; clip++) {
    clipAt += ANIMATION_HEADER_BYTES + framesOf(clip, clipAt) * frameBytes;
  }
  const clip = animations - 1;
  const countAt = clipAt + NAME_BYTES + 4;
  const stored = view.getInt32(countAt, true);
  const read = framesOf(clip, clipAt);
  const dataAt = clipAt + ANIMATION_HEADER_BYTES;
  // The sections so read end the file, so the clip's frames are within it.
  for (let kept = read - 1; kept >= 1; kept--) {
    const soundAt = dataAt + kept * frameBytes;
    if (soundAt + SOUND_HEADER_BYTES > view.byteLength) continue;
    const length = view.getInt32(soundAt + NAME_BYTES, true);
    // The sound fills the frames after `kept` exactly: its header and bytes end the clip — or the sound
    // and the anim→sound table after it do (the frame count raised over both, the table's entries -1
    // or one of the sounds so read).
    const soundEnd = soundAt + SOUND_HEADER_BYTES + length;
    const clipEnd = dataAt + read * frameBytes;
    const table = tableBytes > 0 && soundEnd + tableBytes === clipEnd &&
      validTable(view, soundEnd, tableBytes, sounds + 1);
    if (length < 0 || (soundEnd !== clipEnd && !table)) continue;
    if (!holdsName(view, soundAt)) continue;
    // The clip's frame before the sound tracks the model's points, and the sound's bytes read as a
    // frame track them clearly less (a frame of a 9-point model can correlate 0.4 by chance).
    const before = frameLikeness(view, soundAt - frameBytes, vertexCount, base);
    if (before < POINT_LIKE_CORRELATION) continue;
    const likeness = frameLikeness(view, soundAt, vertexCount, base);
    if (likeness > before - POINT_LIKE_MARGIN) continue;
    const others = fixes.filter((f) => f.clip !== clip);
    const how = read !== stored
      ? `stores ${stored} frames at byte ${countAt}, which correcting the frame counts would read as ${read}, ` +
        `and the header declares ${sounds} sound(s) at byte 36: so the sections end where the file does`
      : `stores ${stored} frames at byte ${countAt} and the header declares ${sounds} sound(s) at byte 36: so ` +
        (others.length ? "with the other clips' frame counts corrected, " : "") +
        "every section ends where the file does";
    warn(
      `animation ${clip} ('${fieldName(view, clipAt)}') ${how}; but the clip's last ${
        read - kept
      } frame(s), ` +
        `from byte ${soundAt}, are a sound header ('${fieldName(view, soundAt)}', ${length} bytes)${
          table ? ` and the anim→sound table after it (byte ${soundEnd})` : ""
        } ending exactly where the clip does, and track the model's points less (${
          likeness.toFixed(2)
        }) than ` +
        `frame ${kept - 1} before them (${before.toFixed(2)}). Read as ${kept} frames and ${sounds + 1} ` +
        `sound(s), not ${read} frames and ${sounds} sound(s) — assuming a sound count lowered by hand and ` +
        `the frame count raised over the sound's bytes; read with ${read}, the clip ends on that sound's bytes`,
      {
        offset: countAt,
        clip,
        stored,
        read: kept,
        declared: [animations, sounds],
        sounds: sounds + 1,
      },
    );
    return {
      animationCount: animations,
      soundCount: sounds + 1,
      frameFixes: kept === stored ? others : [...others, { clip, frames: kept, stored, at: countAt }],
    };
  }
  return undefined;
}

/** The name field at `at` as the parser reads it (its code page; for the warning only). */
function fieldName(view: DataView, at: number): string {
  return new NameReader(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)).read(
    at,
    NAME_BYTES,
    "",
  );
}
