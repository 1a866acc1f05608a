/**
 * One `.car` clip whose frame count is far off (left from another version of the clip, or negative):
 * the last pass of `fittingFrameCounts` (car_frame_counts.ts), after corrections of at most 2 frames
 * found nothing. The data's size decides it when exactly one count for exactly one clip makes the
 * sections end the file.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { frameLikeness, holdsName, POINT_LIKE_CORRELATION } from "./frame_likeness.ts";
import { ANIMATION_HEADER_BYTES, blankClip, type SectionSearch, tailEnd } from "./car_sections.ts";
import { endsFile } from "./car_section_ends.ts";
import { zeroFrom } from "./zero_runs.ts";
import type { FrameCountFix, SearchBudget } from "./car_frame_counts.ts";

/** The search stops once it has found this many readings (more than one is ambiguous anyway). */
const MOST_FOUND = 4;

/**
 * Each reading (one clip at another count, any distance from the stored one) that ends the file, at
 * most four; undefined when the search ran out of `budget`. Each count tried walks the later clips, so
 * the budget is charged per header read. When the first clip's header holds a name, the header a count
 * puts next must too (a real clip's header, not frame data or padding read as one): most counts end
 * there, so files of many clips are not walked once per count; so must the header of the clip whose count
 * is changed.
 */
export function farFrameCounts(search: SectionSearch, budget: SearchBudget): FrameCountFix[][] | undefined {
  const { view, at, vertexCount, animations, sounds, base } = search;
  const size = view.byteLength;
  const frameBytes = vertexCount * 6;
  const found: FrameCountFix[][] = [];
  const named = holdsName(view, at);
  const clipsEnd = (from: number, clips: number): number => {
    for (let c = 0; c < clips && from >= 0; c++) {
      if (--budget.left < 0) return -1;
      // After a changed count, a blank header is zeros read as a clip.
      if (from + ANIMATION_HEADER_BYTES <= size && blankClip(view, from)) return -1;
      from = tailEnd(view, from, vertexCount, 1, 0);
    }
    return from;
  };
  for (let clip = 0, clipAt = at; clip < animations && found.length < MOST_FOUND; clip++) {
    if (clipAt + ANIMATION_HEADER_BYTES > size) break;
    const stored = view.getInt32(clipAt + NAME_BYTES + 4, true);
    const dataAt = clipAt + ANIMATION_HEADER_BYTES;
    const last = clip === animations - 1;
    // A clip whose count is read far off is a clip a tool wrote: its own header holds a name when the
    // first clip's does. Bytes appended after the file and read as a header (a clip count raised by one)
    // are not, though a count of 0 there ends the file.
    const ownHeader = clip === 0 || !named || holdsName(view, clipAt);
    // Frames past the stored count that are all zero bytes (every point at the origin) are what a tail
    // of zeros reads as, not evidence of frames: a count is not raised over them.
    const nonZero = zeroFrom(view, dataAt + Math.max(0, stored) * frameBytes);
    for (
      let frames = 0;
      ownHeader && dataAt + frames * frameBytes <= size && found.length < MOST_FOUND;
      frames++
    ) {
      if (frames === stored) continue;
      if (--budget.left < 0) return undefined;
      const next = dataAt + frames * frameBytes;
      if (frames > stored && next <= nonZero) continue;
      if (named && !last && (next + NAME_BYTES > size || !holdsName(view, next))) continue;
      if (!last && next + ANIMATION_HEADER_BYTES <= size && blankClip(view, next)) continue;
      const end = clipsEnd(next, animations - clip - 1);
      if (budget.left < 0) return undefined;
      // With the model's points at hand, the clip's last frame so read must track them: a count far off
      // is read from its data's size only when the data are frames (not zeros, headers or padding).
      const framesReal = () =>
        !base || frames === 0 ||
        frameLikeness(view, next - frameBytes, vertexCount, base) >= POINT_LIKE_CORRELATION;
      if (end >= 0 && endsFile(search, tailEnd(view, end, 0, 0, sounds)) && framesReal()) {
        found.push([{ clip, frames, stored, at: clipAt + NAME_BYTES + 4 }]);
      }
    }
    if (stored < 0) break;
    clipAt = dataAt + stored * frameBytes;
  }
  return found;
}
