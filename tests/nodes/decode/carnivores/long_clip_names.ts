/**
 * Clip names that fill all 32 bytes of their field with no NUL, as tools that copy a name into the
 * fixed field with `strncpy` (or a Pascal fixed string, space-padded) leave them: a long descriptive
 * name cut at 32 characters ("Velociraptor_run_fast_loop_v2_01"), a source path cut at 32 characters
 * ("C:\CARNIVORES\ANIMS\RAPTOR\run_f"), a short name padded with spaces to 32. The format's
 * `char name[32]` is not said to be NUL-terminated, and such names are ASCII.
 *
 * {@link fillLongClipNames} rewrites some clip name fields of an encoded `.car` so; it draws from its
 * own seeded stream, so the file's other bytes are those the generator wrote without it.
 *
 * @module
 */
import { NAME_BYTES } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { prng } from "../../../support/prng.ts";
import { clipHeaders, draws } from "./car_layout.ts";

const MODELS = [
  "Velociraptor",
  "Tyrannosaurus",
  "Stegosaurus",
  "Allosaurus",
  "Triceratops",
  "Parasaur",
  "Hunter",
];
const ACTIONS = [
  "run_fast_loop",
  "walk_cycle",
  "idle_breathe_long",
  "attack_bite_left",
  "die_fall_side",
  "swim_slow",
  "jump_start_high",
  "look_around",
];
const SUFFIXES = ["_v2_01", "_final_final", "_new_export", "_fixed_02", "_backup", "_loop_test", "_01"];

/** One 32-character name as a tool with a fixed field leaves it (see the module doc). */
export function longClipName(random: () => number): string {
  const { pick } = draws(random);
  const kind = Math.floor(random() * 3);
  let name: string;
  if (kind === 0) {
    // A descriptive name, cut by strncpy (or, too short, lengthened with take numbers).
    name = `${pick(MODELS)}_${pick(ACTIONS)}${pick(SUFFIXES)}`;
    while (name.length < NAME_BYTES) name += `_${Math.floor(random() * 100)}`;
  } else if (kind === 1) {
    // The source .vtl path the clip came from, cut by strncpy.
    name = `C:\\CARNIVORES\\ANIMS\\${pick(MODELS).toUpperCase()}\\${pick(ACTIONS)}.vtl`;
  } else {
    // A short name in a Pascal fixed string, padded with spaces to the field's width.
    name = pick(ACTIONS).split("_")[0].padEnd(NAME_BYTES, " ");
  }
  return name.slice(0, NAME_BYTES);
}

/**
 * Rewrites the name fields of some clips of the `.car` in `bytes` (clips from `clipsAt`, `vertices`
 * points a frame, true frame counts `frames`) to 32-character names with no NUL: each clip one time in
 * two, and at least one. Returns the clips rewritten.
 */
export function fillLongClipNames(
  bytes: Uint8Array,
  clipsAt: number,
  vertices: number,
  frames: readonly number[],
  seed: number,
): number[] {
  const random = prng(seed * 2654435761 + 11);
  const chosen = frames.map(() => random() < 0.5);
  if (frames.length && !chosen.includes(true)) chosen[Math.floor(random() * frames.length)] = true;
  const rewritten: number[] = [];
  const headers = clipHeaders(clipsAt, vertices, frames);
  frames.forEach((_, clip) => {
    if (chosen[clip]) {
      const name = longClipName(random);
      for (let i = 0; i < NAME_BYTES; i++) bytes[headers[clip] + i] = name.charCodeAt(i);
      rewritten.push(clip);
    }
  });
  return rewritten;
}
