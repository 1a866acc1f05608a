/**
 * Tallies skinned surfaces on aircraft carrying weighted leftovers (`skinned_leftovers.ts`): each
 * surface bone's hinge (`hinges`: fitted in the given frame), its hinge under `"auto"` frame detection
 * (`frames`) and its side when the pair is named without a side word (`sides`: Blender's mirrored
 * `Aileron`/`Aileron.001`, 3ds Max's `Elevator01`/`Elevator02`), with `skinned_aircraft.ts`'s surfaces
 * (a `rudder` and `rudder_tab` on the centre line, named without a side) given the same habit. Each surface is `right` (right and
 * judged good), `weak` (right, not good), `named` (wrong, and not good or a warning names it) or
 * `silent` (wrong, judged good, nothing names it).
 * `deno run -A tests/nodes/rig/skinned_leftovers_tally.ts 71 8 [family] [habit]` prints them.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { judgeModellerScene } from "./modeller_habits_tally.ts";
import { rig } from "./pipeline.ts";
import type { ModellerTruth } from "./modeller_habits.ts";
import { SKINNED_SURFACES, skinnedAircraft } from "./skinned_aircraft.ts";
import {
  giveWeightedLeftovers,
  SKINNED_LEFTOVER_HABITS,
  type SkinnedLeftoverHabit,
  skinnedLeftovers,
} from "./skinned_leftovers.ts";
import { addSide, sideless, type UndrawnTally } from "./undrawn_tally.ts";

/** The families tallied. */
export const SKINNED_FAMILIES = ["hinges", "frames", "sides"] as const;

/** One family of {@link SKINNED_FAMILIES}. */
export type SkinnedFamily = (typeof SKINNED_FAMILIES)[number];

/** `family` over the `count` samples from `seed` on, given `habit`. */
export async function tallySkinned(
  family: SkinnedFamily,
  seed: number,
  count: number,
  habit: SkinnedLeftoverHabit,
): Promise<UndrawnTally> {
  const t: UndrawnTally = { right: 0, weak: 0, named: 0, silent: 0, notes: [] };
  for (let s = seed; s < seed + count; s++) {
    const sample = skinnedLeftovers(s, habit);
    if (family === "sides") {
      const naming = (["mirrored_copy", "numbered"] as const)[s % 2];
      const truths = sideless(sample.doc, sample.truths, naming, prng(s * 31 + 5));
      const result = await rig(sample.doc);
      for (const truth of truths) addSide(t, result, truth, `${sample.description}, ${naming}`);
      const fixed = skinnedAircraft();
      giveWeightedLeftovers(fixed.doc, habit, s);
      const rigged = await rig(fixed.doc);
      for (const surface of SKINNED_SURFACES) {
        const truth = { name: surface.bone, side: surface.side } as unknown as ModellerTruth;
        addSide(t, rigged, truth, `skinned aircraft, ${habit} ${s}`);
      }
      continue;
    }
    const v = await judgeModellerScene(sample, family === "frames" ? { forward: "auto", up: "auto" } : {});
    const wrong = v.wrong.length, silent = v.silent.length;
    t.right += v.panels - wrong - v.alarms.length, t.weak += v.alarms.length;
    t.named += wrong - silent, t.silent += silent;
    t.notes.push(...v.wrong.map((w) => `${v.description}: ${w}`), ...v.alarms.map((a) => `weak ${a}`));
  }
  return t;
}

if (import.meta.main) {
  const seed = Number(Deno.args[0] ?? 71), count = Number(Deno.args[1] ?? 8);
  const families = Deno.args[2] ? [Deno.args[2] as SkinnedFamily] : SKINNED_FAMILIES;
  const habits: SkinnedLeftoverHabit[] = Deno.args[3]
    ? [Deno.args[3] as SkinnedLeftoverHabit]
    : ["clean", ...SKINNED_LEFTOVER_HABITS];
  for (const family of families) {
    for (const habit of habits) {
      const { notes, ...t } = await tallySkinned(family, seed, count, habit);
      console.log(`${family} seeds ${seed}-${seed + count - 1} ${habit}: ${JSON.stringify(t)}`);
      if (Deno.env.get("NOTES")) { for (const note of notes) console.log(`   ${note}`); }
    }
  }
}
