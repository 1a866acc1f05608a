/**
 * A `.car` that ends inside a clip's frames exactly on a frame boundary. Two readings give the same
 * bytes: the file cut short there (by an old tool or a download), or the clip whole with its frame count
 * stored more and the counts of the sections after it raised by hand (a clip count raised for a clip
 * never added, with the clip's count one off, reads just so). The file does not tell them apart, but both
 * agree on the clip's first frames: they are all there. The clip is kept with those, and the warning
 * names both readings; a file ending anywhere else in a clip loses the clip (`parse_car.ts`).
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";

/** More frames than any tool writes in one clip (int16 frame indices in the editors). */
export const MAX_TOOL_FRAMES = 65_535;

/** A clip the file ends inside: where its header and data are, and what it stores. */
export interface CutClip {
  /** The clip's index and name. */
  readonly clip: number;
  readonly name: string;
  /** Its header's byte and the byte its frame data starts at. */
  readonly headerAt: number;
  readonly dataAt: number;
  /** The frame count read for it (stored, or corrected by a repair). */
  readonly frames: number;
  /** Bytes of one frame (6 per vertex the frames hold). */
  readonly frameBytes: number;
  /** The file's length. */
  readonly fileBytes: number;
  /** Clips and sounds declared after it. */
  readonly clipsAfter: number;
  readonly soundsAfter: number;
}

/**
 * The whole frames of `cut` the file holds when it ends exactly on one of its frame boundaries after at
 * least one frame, and the count is one a tool writes; 0 otherwise (the clip is then dropped as cut).
 */
export function wholeFramesAtCut(cut: CutClip): number {
  const left = cut.fileBytes - cut.dataAt;
  if (cut.frames > MAX_TOOL_FRAMES || cut.frameBytes <= 0 || left <= 0 || left % cut.frameBytes !== 0) {
    return 0;
  }
  const whole = left / cut.frameBytes;
  return whole < cut.frames ? whole : 0;
}

/** Names both readings of a clip kept with its `whole` frames (see {@link wholeFramesAtCut}). */
export function warnCutOnFrame(cut: CutClip, whole: number, warn: WarningSink): void {
  const lost = [
    cut.clipsAfter ? `${cut.clipsAfter} animation(s)` : "",
    cut.soundsAfter ? `${cut.soundsAfter} sound(s)` : "",
  ].filter(Boolean).join(" and ");
  const raised = [
    cut.clipsAfter ? `the animation count raised by ${cut.clipsAfter}` : "",
    cut.soundsAfter ? `the sound count raised by ${cut.soundsAfter}` : "",
  ].filter(Boolean).join(" and ");
  warn(
    `the file ends at byte ${cut.fileBytes}, inside animation ${cut.clip} ('${cut.name}') at byte ` +
      `${cut.headerAt}, exactly after its first ${whole} of ${cut.frames} stored frame(s). It reads two ways ` +
      `the file does not tell apart: cut short inside the clip${
        lost ? ` (the ${lost} declared after it missing)` : ""
      }, or animation ${cut.clip} whole with ${whole} frame(s), its frame count stored ${
        cut.frames - whole
      } ` +
      `more${
        raised ? ` and ${raised}` : ""
      } (counts edited by hand). Both hold its first ${whole} frame(s): ` +
      "the clip is read with those",
    { offset: cut.headerAt, stored: cut.frames, read: whole },
  );
}
