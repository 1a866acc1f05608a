/**
 * How a parse read a damaged `.car` against what the file holds, for the count generators' tests
 * (`zero_tails.ts`, the two-count and appended-bytes tests): right when every clip is read at its own
 * frame count (and the sounds, when the truth gives them, are all read), refused on a `DecodeError`,
 * else wrong — warned when the parse said anything, silent when it did not. Each of them graded so
 * with its own copy.
 *
 * @module
 */
import type { Graded } from "./habit_outcome.ts";

/** A parser of `.car` bytes (this tree's, or another's for before → after figures). */
export type CarParser = (
  bytes: Uint8Array,
  file: string | undefined,
  warn: (message: string) => void,
) => { animations: readonly { frameCount: number }[]; sounds?: readonly unknown[] };

/** What the file holds: each clip's frame count and, when known, how many sounds. */
export interface CarTruth {
  readonly frames: readonly number[];
  readonly sounds?: number;
}

/** A graded read, with the warnings the parse gave. */
export type CarRead = Graded & { readonly warnings: readonly string[] };

/** Parses `bytes` (named `name`) with `parse` and grades the read against `truth`. */
export function carReadOutcome(parse: CarParser, bytes: Uint8Array, name: string, truth: CarTruth): CarRead {
  const warnings: string[] = [];
  let model: ReturnType<CarParser>;
  try {
    model = parse(bytes, name, (m) => warnings.push(m));
  } catch (error) {
    if ((error as Error).name === "DecodeError") {
      return { outcome: "refused", detail: (error as Error).message, warnings };
    }
    throw error;
  }
  const read = model.animations.map((a) => a.frameCount);
  const sounds = model.sounds?.length;
  if (read.join() === truth.frames.join() && (truth.sounds === undefined || sounds === truth.sounds)) {
    return { outcome: "right", detail: "", warnings };
  }
  const counted = (frames: readonly number[], n?: number) =>
    `${frames.length} clips [${frames.slice(0, 8)}${frames.length > 8 ? "…" : ""}]` +
    (truth.sounds === undefined ? "" : ` and ${n} sounds`);
  return {
    outcome: warnings.length ? "wrong_warned" : "wrong_silent",
    detail: `read ${counted(read, sounds)}, file has ${counted(truth.frames, truth.sounds)} | ${
      warnings.slice(0, 3).join(" / ")
    }`,
    warnings,
  };
}
