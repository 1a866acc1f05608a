/**
 * Scores the rig on {@link kinkedSample}: a piece is wrong when it is not rigged, its hinge's axis is
 * off by more than 5°, its line strays by more than 2 % of the piece's span at either end, or its
 * side is wrong (pieces of one name are matched to the part nearest each); a bent single mesh is
 * wrong when its line is neither segment's. Silently wrong: wrong, or a bent single mesh at all
 * (one straight line is wrong for one of its segments), judged good with no warning naming it.
 * `deno run -A kinks_tally.ts 101 200` prints the tally for any seeds.
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import type { HabitTruth } from "./exporter_habits.ts";
import { kinkedSample, KINKS } from "./kinked_surfaces.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** One scene's verdict: its kinked panels' pieces, the wrong ones and the silently wrong ones. */
export interface KinkVerdict {
  readonly description: string;
  readonly panels: number;
  readonly wrong: string[];
  readonly silent: string[];
}

const fits = (truth: HabitTruth, part: ReportPart | undefined) => {
  const error = part?.hinge ? hingeError(truth, part.hinge.world) : undefined;
  return { error, right: !!error && error.degrees <= 5 && error.offset <= 0.02 * truth.span };
};

/** Rigs the sample of `seed` and judges each piece. */
export async function judgeKink(seed: number): Promise<KinkVerdict> {
  const { doc, truths, description } = kinkedSample(seed);
  const { report, ctx } = await rig(doc);
  const wrong: string[] = [], silent: string[] = [];
  const used = new Set<unknown>();
  for (const truth of truths) {
    // Parts named as the truth (or rigged from it, `<name>_1`), the nearest one.
    const named = report.parts.filter((p) =>
      !used.has(p) && (p.panel === truth.name || p.panel?.startsWith(`${truth.name}_`))
    );
    const scored = named.map((p) => ({ part: p, ...fits(truth, p) }))
      .sort((a, b) => (a.error?.offset ?? Infinity) - (b.error?.offset ?? Infinity));
    let best = scored.find((s) => s.right) ?? scored[0];
    if (truth.other && !best?.right) {
      const alt = named.map((p) => ({ part: p, ...fits(truth.other!, p) })).find((s) => s.right);
      if (alt) best = alt;
    }
    const part = best?.part;
    if (part) used.add(part);
    const right = !!best?.right && part!.side === truth.side;
    const good = (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";
    const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}`));
    const said = `${truth.name}${truth.other ? " (bent, one mesh)" : ""}: ${
      best?.error
        ? `${best.error.degrees.toFixed(1)}°, ${(100 * best.error.offset / truth.span).toFixed(1)} % of span`
        : "no hinge"
    }, ${part?.side} (${truth.side}), ${good ? "good" : "not good"}${warned ? ", warned" : ""}`;
    if (!right) wrong.push(said);
    if ((!right || truth.other) && part && good && !warned) silent.push(said);
  }
  return { description, panels: truths.length, wrong, silent };
}

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const rows: Record<string, { scenes: number; panels: number; wrong: number; silent: number }> = {};
  for (let seed = from; seed <= to; seed++) {
    const verdict = await judgeKink(seed);
    const row = rows[KINKS[seed % KINKS.length]] ??= { scenes: 0, panels: 0, wrong: 0, silent: 0 };
    row.scenes++, row.panels += verdict.panels, row.wrong += verdict.wrong.length;
    row.silent += verdict.silent.length;
    if (verdict.wrong.length) console.log(`${verdict.description}\n  wrong ${verdict.wrong.join("; ")}`);
    if (verdict.silent.length) console.log(`${verdict.description}\n  SILENT ${verdict.silent.join("; ")}`);
  }
  console.table(rows);
}
