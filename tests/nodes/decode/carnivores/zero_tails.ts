/**
 * `.car` files with zeros where the parser may look for clips, seeded: a tail of zero bytes after the
 * file (a download manager's preallocated file never filled, a disk image's slack copied along, a tool
 * that pads to a cluster), clips a tool wrote without data (empty names, frames of zeros, KPS 0 as
 * CarnivoresIO writes it), many clips, and a damaged count on top — the clip count raised for clips
 * never added, or every frame count stored as a `.rsc` stores it (one less). Zeros read 40 bytes at a
 * time are clip headers of no name, KPS 0 and 0 frames, which fit a tail of zeros at many counts; a
 * repair that takes them read 44 "clips" of zeros and warned 150 times.
 * {@link zeroTailOutcome} grades the parse: right when every clip is read at its own frame count, and
 * no more clips; noisy when it said more than {@link NOISY_WARNINGS} things.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import type { CarAnimation, CarModel } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { carClipsAt, draws, frameCountAt } from "./car_layout.ts";
import { animation, gridCar } from "./fixtures.ts";
import type { Graded } from "./habit_outcome.ts";
import { type CarParser, carReadOutcome } from "./car_reads.ts";
import { fillLongClipNames } from "./long_clip_names.ts";

/** What left zeros in the file, and what count was damaged with them. */
export const ZERO_TAILS = [
  "zero_tail",
  "zero_tail_blank_clips",
  "zero_tail_count_raised",
  "zero_tail_rsc_counts",
  "zero_tail_headers",
] as const;

/** One habit. */
export type ZeroTail = typeof ZERO_TAILS[number];

/** More warnings than this for one file is noise: the one that matters is lost. */
export const NOISY_WARNINGS = 8;

/** A file written for `seed`: its bytes, habit and true clips' frame counts. */
export interface ZeroTailFile {
  readonly bytes: Uint8Array;
  readonly habit: ZeroTail;
  readonly frames: readonly number[];
  /** Whether the clips have names (else they are empty). */
  readonly named: boolean;
  /** Whether the clips are blank: no name, frames of zeros (a tool that could not bake them). */
  readonly blank: boolean;
}

/**
 * The file of `seed` (the habit drawn, or `habit`). With `longNames`, some of a file's named clips have
 * names filling their 32-byte field with no NUL (`long_clip_names.ts`; the other bytes unchanged).
 */
export function zeroTailFile(seed: number, habit?: ZeroTail, longNames = false): ZeroTailFile {
  const random = prng(seed * 4099 + 3);
  const { int, pick } = draws(random);
  const kind = habit ?? pick(ZERO_TAILS);
  const grid = gridCar(int(3, 12), int(3, 10), 0);
  const v = grid.points.count;
  const blank = kind === "zero_tail_blank_clips" || random() < 0.3;
  const named = !blank && random() < 0.7;
  const clipCount = pick([int(3, 8), int(9, 40), 64]);
  const animations: CarAnimation[] = Array.from({ length: clipCount }, (_, c) => {
    const frames = int(1, 6);
    const name = named ? `clip${c}` : "";
    if (!blank) return animation(name, pick([10, 15, 20]), frames, grid.points, c % 4);
    // A tool that writes a clip it could not bake: no name, frames of zeros, KPS 0 or a default.
    return { name, kps: pick([0, 10]), frameCount: frames, positions: new Int16Array(frames * v * 3) };
  });
  const model: CarModel = { ...grid, name: "Raptor", msc: "msc: 2", animations, sounds: [] };
  const car = encodeCar(model);
  const view = new DataView(car.buffer);
  const clipsAt = carClipsAt(car);
  if (longNames && named) fillLongClipNames(car, clipsAt, v, animations.map((a) => a.frameCount), seed);
  if (kind === "zero_tail_count_raised") view.setInt32(32, clipCount + int(1, 3), true);
  // Where a walk of the stored counts, each read one more (or two more), ends: a tail of zeros that
  // reaches there is what a lenient repair fits with headers read from zeros.
  let walk = clipsAt;
  const change = pick([1, 2]);
  for (const clip of animations) {
    if (kind === "zero_tail_rsc_counts") view.setInt32(frameCountAt(walk), clip.frameCount - 1, true);
    walk += 40 + (clip.frameCount + (kind === "zero_tail_rsc_counts" ? 0 : change)) * v * 6;
  }
  const tailBytes = kind === "zero_tail_headers"
    ? Math.max(40, walk - car.length) // exactly as far as a walk read one more frame a clip
    : pick([int(1, 4096), int(4097, 65_536), 40 * int(1, 64), 36 * int(1, 64), 4096 - (car.length % 4096)]);
  const bytes = new Uint8Array(car.length + tailBytes);
  bytes.set(car);
  return { bytes, habit: kind, frames: animations.map((a) => a.frameCount), named, blank };
}

export type { CarParser } from "./car_reads.ts";

/** Parses the file of `seed` and grades it; `warnings`: how many the parse gave. */
export function zeroTailOutcome(
  seed: number,
  parse: CarParser,
  habit?: ZeroTail,
  longNames = false,
): Graded & { warnings: number; file: ZeroTailFile } {
  const file = zeroTailFile(seed, habit, longNames);
  const read = carReadOutcome(parse, file.bytes, `zeros${seed}.car`, file);
  return { outcome: read.outcome, detail: read.detail, warnings: read.warnings.length, file };
}
