/**
 * Scores the rig on {@link habitSample}: a panel is wrong when it is not rigged, its hinge's axis is
 * off by more than 5°, the fitted line strays from the true one by more than 2 % of the span at
 * either end, or its side is wrong; silently wrong when, besides, its fit is judged good and no
 * warning names it. `deno run -A habits_tally.ts 201 320 [habit]` prints the tally for any seeds.
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { type Habit, HABITS, habitSample } from "./exporter_habits.ts";
import { rig } from "./pipeline.ts";

/** One scene's verdict: its panels with a truth, the wrong ones and the silently wrong ones. */
export interface HabitVerdict {
  readonly description: string;
  readonly panels: number;
  readonly wrong: string[];
  readonly silent: string[];
}

/** Rigs the sample of `seed` (its own habit, or `habit`) and judges each panel. */
export async function judgeHabit(seed: number, habit?: Habit): Promise<HabitVerdict> {
  const { doc, truths, description } = habitSample(seed, habit);
  const { report, ctx } = await rig(doc);
  const wrong: string[] = [], silent: string[] = [];
  const used = new Set<unknown>();
  for (const truth of truths) {
    // Two objects of one name (a split surface) are two parts of that name, matched in turn.
    const part = report.parts.find((p) => p.panel === truth.name && !used.has(p));
    if (part) used.add(part);
    const error = part?.hinge ? hingeError(truth, part.hinge.world) : undefined;
    const right = !!error && error.degrees <= 5 && error.offset <= 0.02 * truth.span &&
      part!.side === truth.side;
    if (right) continue;
    const said = `${truth.name}: ${
      error
        ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.span).toFixed(1)} % of span`
        : "no hinge"
    }, ${part?.side} (${truth.side})`;
    wrong.push(said);
    const good = (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";
    const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
    if (part && good && !warned) silent.push(said);
  }
  return { description, panels: truths.length, wrong, silent };
}

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const only = Deno.args[2] as Habit | undefined;
  const byHabit: Record<string, { scenes: number; panels: number; wrong: number; silent: number }> = {};
  for (let seed = from; seed <= to; seed++) {
    const habit = HABITS[seed % HABITS.length];
    if (only && habit !== only) continue;
    const verdict = await judgeHabit(seed);
    const row = byHabit[habit] ??= { scenes: 0, panels: 0, wrong: 0, silent: 0 };
    row.scenes++, row.panels += verdict.panels, row.wrong += verdict.wrong.length;
    row.silent += verdict.silent.length;
    if (verdict.wrong.length) console.log(`${verdict.description}\n  wrong ${verdict.wrong.join("; ")}`);
    if (verdict.silent.length) console.log(`  SILENT ${verdict.silent.join("; ")}`);
  }
  console.table(byHabit);
}
