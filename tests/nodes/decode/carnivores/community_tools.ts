/**
 * A seeded generator of Carnivores files as community tools leave them (CarnivoresIO, io_carnivores,
 * C3Dit, the 3DF editors, hand edits): faces left pointing at a deleted vertex (the uint16 sentinel
 * 65535 or -1 written into the int32 index, or an index past a shortened point table), clips of 0
 * frames, a clip's frame count raised past the data, bones whose parent is themselves or that form a
 * cycle, `.vtl` files of another version of the model, and Carnivores 2 / Ice Age name fields as
 * controls. Each case says what a correct decoder gives: a scene with a warning naming the problem
 * and what the scene must hold, or a `DecodeError`. The habits live by wave in
 * `community_tools_wave{1,2,3}.ts`; the grading of a decode is in `community_outcome.ts`.
 *
 * @module
 */
import type { CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animation, faceTable, pointTable } from "./fixtures.ts";
import { seeded } from "./pictures.ts";
import { boxes, type Expectation, TEXTURE } from "./community_checks.ts";
import { WAVE1_HABITS, wave1Case, type Wave1Habit } from "./community_tools_wave1.ts";
import { WAVE2_HABITS, wave2Case, type Wave2Habit } from "./community_tools_wave2.ts";
import { WAVE3_HABITS, wave3Case, type Wave3Habit } from "./community_tools_wave3.ts";

export { type CaseOutcome, type Outcome, outcomeOf } from "./community_outcome.ts";

/** Habits the generator reproduces. */
export const TOOL_HABITS = [...WAVE1_HABITS, ...WAVE2_HABITS, ...WAVE3_HABITS] as const;

/** One habit. */
export type ToolHabit = typeof TOOL_HABITS[number];

export type { Expectation } from "./community_checks.ts";

/** One generated file (and the `.vtl` files beside it). */
export interface ToolCase {
  readonly habit: ToolHabit;
  readonly seed: number;
  readonly format: "3df" | "car" | "rsc";
  readonly bytes: Uint8Array;
  /** `.vtl` files by name, read through `decode.3df`'s `animations` (all of them, in name order). */
  readonly vtls?: Record<string, Uint8Array>;
  readonly expect: Expectation;
}

/** The case of `habit` for `seed`. */
export function toolCase(habit: ToolHabit, seed: number): ToolCase {
  const random = seeded(seed * 7919 + TOOL_HABITS.indexOf(habit) * 104729 + 1);
  const { faces, points, owners, bones } = boxes(random);
  const asCar = random() < 0.5;
  const model3df = (): Model3df => ({
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones,
    texture: TEXTURE,
  });
  const car = (animations: CarModel["animations"], name = "Raptor", msc = "msc: 2"): CarModel => ({
    name,
    msc,
    faces: faceTable(faces),
    points: pointTable(points, owners),
    texture: TEXTURE,
    animations,
    sounds: [],
    animSounds: new Int32Array(64).fill(-1),
  });
  const table = pointTable(points, owners);
  const clip = (name: string, c: number, frames = 2 + Math.floor(random() * 6)) =>
    animation(name, 8 + Math.floor(random() * 12), frames, table, c);
  const kit = { random, faces, points, bones, asCar, model3df, car, clip };
  const base = { habit, seed };
  if ((WAVE2_HABITS as readonly string[]).includes(habit)) {
    return { ...base, ...wave2Case(habit as Wave2Habit, kit) };
  }
  if ((WAVE3_HABITS as readonly string[]).includes(habit)) {
    return { ...base, ...wave3Case(habit as Wave3Habit, kit) };
  }
  return { ...base, ...wave1Case(habit as Wave1Habit, kit) };
}

/** Every habit for seeds `first` … `first + count − 1`. */
export function* toolCases(first: number, count: number): Generator<ToolCase> {
  for (const habit of TOOL_HABITS) for (let s = first; s < first + count; s++) yield toolCase(habit, s);
}
