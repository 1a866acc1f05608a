/**
 * Scores the rig on {@link modellerSample}: a panel is wrong when it is not rigged, its hinge's axis
 * is off by more than 5°, its line strays by more than 5 % of its chord at either end of the span,
 * its side is wrong, or a positive angle moves its trailing edge against its `positive` word (the
 * sense). Silently wrong: wrong, judged `good`, and no warning naming it; or not rigged, and no
 * warning naming it.
 * `deno run -A tests/nodes/rig/modeller_habits_tally.ts 1 80 [habit]` prints the tally (`clean`: every
 * seed's aircraft without its habit; a fourth argument `auto` finds the frame: `1 80 "" auto`).
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { turnAttached } from "./fixtures.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import {
  MODELLER_HABITS,
  type ModellerHabit,
  type ModellerSample,
  modellerSample,
} from "./modeller_habits.ts";

/** One scene's verdict: its panels, the wrong, silently wrong and needlessly doubted ones. */
export interface ModellerVerdict {
  readonly description: string;
  readonly panels: number;
  readonly wrong: string[];
  readonly silent: string[];
  readonly alarms: string[];
  /** How many panels a warning names. */
  readonly warned: number;
}

/** Rigs the sample of `seed` (its own habit, or `habit`) and judges each panel. */
export function judgeModeller(
  seed: number,
  habit?: ModellerHabit,
  frame: Record<string, string> = {},
): Promise<ModellerVerdict> {
  return judgeModellerScene(modellerSample(seed, habit), frame);
}

/** Rigs a scene whose panels have {@link ModellerTruth}s (a {@link modellerSample}, or one made from it) and judges each. */
export async function judgeModellerScene(
  { doc, truths, description }: Pick<ModellerSample, "doc" | "truths" | "description">,
  frame: Record<string, string> = {},
): Promise<ModellerVerdict> {
  const { scene, report, ctx } = await rig(doc, frame);
  const wrong: string[] = [], silent: string[] = [], alarms: string[] = [];
  let named = 0;
  for (const truth of truths) {
    const names = [truth.name, ...truth.aliases ?? []];
    const part = report.parts.find((p) => names.includes(p.panel ?? ""));
    const warned = ctx.warnings.some((w) => names.some((name) => w.message.includes(`'${name}'`)));
    const error = part?.hinge ? hingeError(truth, part.hinge.world) : undefined;
    let sense = "none";
    if (part?.hinge) {
      const pivot = nodeNamed(scene, part.name);
      const aft: Vec3 = [truth.origin[0], truth.origin[1], truth.origin[2] + truth.chord];
      const moved = turnAttached(pivot, aft, 10);
      const down = moved[1] - aft[1], right = moved[0] - aft[0];
      sense = part.positive === "trailing_edge_down"
        ? (down < 0 ? "ok" : "reversed")
        : part.positive === "trailing_edge_right"
        ? (right > 0 ? "ok" : "reversed")
        : `${part.positive}`;
    }
    const right = !!error && error.degrees <= 5 && error.offset <= 0.05 * truth.chord &&
      part!.side === truth.side && sense === "ok";
    if (warned) named++;
    const good = (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";
    const said = `${truth.name}: ${
      error
        ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.chord).toFixed(1)} % of chord`
        : "no hinge"
    }, ${part?.side} (${truth.side}), sense ${sense}, ${good ? "good" : part ? "not good" : "unrigged"}${
      warned ? ", warned" : ""
    }`;
    if (right) {
      if (!good) alarms.push(said);
      continue;
    }
    wrong.push(said);
    // Unrigged with no word is as silent as wrong and good.
    if ((part && good && !warned) || (!part && !warned)) silent.push(said);
  }
  return { description, panels: truths.length, wrong, silent, alarms, warned: named };
}

/** `count` seeds of `habit` for tests, past the ranges the fixes were made and measured on (0–219, 1000–1219). */
export const seedsOf = (habit: ModellerHabit, count: number): number[] => {
  const at = MODELLER_HABITS.indexOf(habit as (typeof MODELLER_HABITS)[number]), n = MODELLER_HABITS.length;
  const first = 3000 + ((at - 3000 % n) + n) % n;
  return Array.from({ length: count }, (_, k) => first + k * n);
};

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const only = (Deno.args[2] || undefined) as ModellerHabit | undefined;
  const auto = Deno.args[3] === "auto";
  const rows: Record<
    string,
    { scenes: number; panels: number; wrong: number; silent: number; alarms: number }
  > = {};
  for (let seed = from; seed <= to; seed++) {
    const own = MODELLER_HABITS[seed % MODELLER_HABITS.length];
    if (only && only !== "clean" && own !== only) continue;
    const habit = only ?? own;
    const v = await judgeModeller(seed, habit, auto ? { forward: "auto", up: "auto" } : {});
    const row = rows[habit] ??= { scenes: 0, panels: 0, wrong: 0, silent: 0, alarms: 0 };
    row.scenes++, row.panels += v.panels, row.wrong += v.wrong.length;
    row.silent += v.silent.length, row.alarms += v.alarms.length;
    if (v.wrong.length || v.alarms.length) console.log(v.description);
    if (v.wrong.length) console.log(`  wrong ${v.wrong.join("; ")}`);
    if (v.silent.length) console.log(`  SILENT ${v.silent.join("; ")}`);
    if (v.alarms.length) console.log(`  alarm ${v.alarms.join("; ")}`);
  }
  console.table(rows);
}
