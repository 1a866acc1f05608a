/**
 * Tallies the rig on {@link finHornSample} (`fin_horns.ts`) by layout: a surface is wrong when it is
 * not rigged, its hinge's axis is off by more than 2°, its line strays by more than 5 % of its chord
 * at either end, or its side is wrong (a central fin's is the centre); an all-moving fin is judged against its
 * construction's quarter-chord shaft and its whole chord (`FinTruth.shaft`; until rig.fit_hinge v79 against the rig
 * of the same scene without its horns, which shared the rig's own errors). Silently wrong: wrong, judged good, and no warning naming it. A
 * false alarm: right but not judged good. A central rudder's side was read from its geometry with
 * the horn until rig.assign_side v32, which a horn on one face sided left or right (held-out seeds
 * 7000-7499, 21 of 200 central rudders, 14 silently). `deno run -A fin_horns_tally.ts 7000 7199 [layout]` prints it.
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { FIN_LAYOUTS, finHornSample, type FinLayout, type FinTruth } from "./fin_horns.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** Counts of one layout (or of all). */
export interface FinRow {
  panels: number;
  wrong: number;
  wrongGood: number;
  silent: number;
  alarms: number;
  /** Of `alarms`, surfaces whose horn is named a horn. */
  namedAlarms: number;
}

/** One scene's verdict lines. */
export interface FinVerdict {
  readonly description: string;
  readonly wrong: string[];
  readonly silent: string[];
  readonly alarms: string[];
  readonly row: FinRow;
}

const goodOf = (part: ReportPart | undefined) =>
  (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";

/** Rigs the sample of `seed` (its own layout, or `layout`) and judges each surface. */
export async function judgeFins(seed: number, layout?: FinLayout): Promise<FinVerdict> {
  const sample = finHornSample(seed, layout);
  const { report, ctx } = await rig(sample.doc);
  const row: FinRow = { panels: 0, wrong: 0, wrongGood: 0, silent: 0, alarms: 0, namedAlarms: 0 };
  const wrong: string[] = [], silent: string[] = [], alarms: string[] = [];
  for (const truth of sample.truths) {
    row.panels++;
    const part = report.parts.find((p) => p.panel === truth.name);
    const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
    const hinge: Pick<FinTruth, "origin" | "axis" | "span"> = truth.shaft
      ? { origin: truth.shaft.origin, axis: truth.shaft.axis, span: truth.span }
      : truth;
    const chord = truth.shaft?.chord ?? truth.chord;
    const error = part?.hinge ? hingeError(hinge, part.hinge.world) : undefined;
    const right = !!error && error.degrees <= 2 && error.offset <= 0.05 * chord &&
      part!.side === truth.side;
    const good = goodOf(part);
    const said = `${truth.name}: ${
      error
        ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / chord).toFixed(1)} % of chord`
        : "no hinge"
    }, ${part?.side} (${truth.side}), ${good ? "good" : part ? "not good" : "unrigged"}${
      warned ? ", warned" : ""
    }`;
    if (right) {
      if (!good) {
        alarms.push(said), row.alarms++;
        if (truth.named) row.namedAlarms++;
      }
      continue;
    }
    wrong.push(said), row.wrong++;
    if (part && good) row.wrongGood++;
    if (part && good && !warned) silent.push(said), row.silent++;
  }
  return { description: sample.description, wrong, silent, alarms, row };
}

/** Rigs and judges seeds `from`–`to` (only `only`'s layout when given), per layout and in all. */
export async function tallyFins(
  from: number,
  to: number,
  only?: FinLayout,
  each?: (verdict: FinVerdict) => void,
): Promise<Record<string, FinRow>> {
  const rows: Record<string, FinRow> = {};
  const all: FinRow = { panels: 0, wrong: 0, wrongGood: 0, silent: 0, alarms: 0, namedAlarms: 0 };
  for (let seed = from; seed <= to; seed++) {
    const layout = FIN_LAYOUTS[seed % FIN_LAYOUTS.length];
    if (only && layout !== only) continue;
    const v = await judgeFins(seed);
    const row = rows[layout] ??= { panels: 0, wrong: 0, wrongGood: 0, silent: 0, alarms: 0, namedAlarms: 0 };
    for (const r of [row, all]) {
      for (const k of Object.keys(r) as (keyof FinRow)[]) r[k] += v.row[k];
    }
    each?.(v);
  }
  return { ...rows, all };
}

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const rows = await tallyFins(from, to, Deno.args[2] as FinLayout | undefined, (v) => {
    if (!v.wrong.length && !v.alarms.length) return;
    console.log(v.description);
    if (v.wrong.length) console.log(`  wrong ${v.wrong.join("; ")}`);
    if (v.silent.length) console.log(`  SILENT ${v.silent.join("; ")}`);
    if (v.alarms.length) console.log(`  alarm ${v.alarms.join("; ")}`);
  });
  console.table(rows);
}
