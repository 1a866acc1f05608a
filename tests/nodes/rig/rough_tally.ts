/**
 * Scores the rig on {@link roughSample}: a surface is wrong when it is not rigged, its hinge's axis is
 * off by more than 5°, its line strays by more than 2 % of the span at either end, or its side is
 * wrong; a damage copy is right rigged so on its intact surface's hinge, or left out when a warning
 * names it. Silently wrong: wrong, judged good, and no warning naming it. A false alarm: an intact
 * surface right but not judged good. `deno run -A rough_tally.ts 301 400 [habit]` prints the tally.
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import type { Document } from "@gltf-transform/core";
import { type Rough, ROUGHS, roughSample, type RoughTruth } from "./rough_surfaces.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** One scene's verdict: its surfaces and copies, the wrong, silently wrong and falsely alarmed ones. */
export interface RoughVerdict {
  readonly description: string;
  readonly panels: number;
  readonly copies: number;
  readonly wrong: string[];
  readonly silent: string[];
  readonly alarms: string[];
  /** Wrong and judged good, warned or not (a warning naming pieces does not say the hinge is off). */
  readonly wrongGood: string[];
}

const goodOf = (part: ReportPart | undefined) =>
  (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";

/** A scene with its surfaces' truths, as {@link judgeSample} takes it. */
export interface JudgedSample {
  readonly doc: Document;
  readonly truths: RoughTruth[];
  readonly description: string;
}

/** Rigs the sample of `seed` (its own habit, or `rough`) and judges each surface and copy. */
export function judgeRough(seed: number, rough?: Rough): Promise<RoughVerdict> {
  return judgeSample(roughSample(seed, rough));
}

/** Rigs a generated scene and judges each surface and copy against its truth. */
export async function judgeSample({ doc, truths, description }: JudgedSample): Promise<RoughVerdict> {
  const { report, ctx } = await rig(doc);
  const wrong: string[] = [], silent: string[] = [], alarms: string[] = [], wrongGood: string[] = [];
  for (const truth of truths) {
    const part = report.parts.find((p) => p.panel === truth.name);
    const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
    if (truth.copyOf && !part && warned) continue; // left out, with a note
    const error = part?.hinge ? hingeError(truth, part.hinge.world) : undefined;
    const right = !!error && error.degrees <= 5 && error.offset <= 0.02 * truth.span &&
      part!.side === truth.side;
    const good = goodOf(part);
    const said = `${truth.name}${truth.copyOf ? " (copy)" : ""}: ${
      error
        ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.span).toFixed(1)} % of span`
        : "no hinge"
    }, ${part?.side} (${truth.side}), ${good ? "good" : part ? "not good" : "unrigged"}${
      warned ? ", warned" : ""
    }`;
    if (right) {
      if (!good && !truth.copyOf) alarms.push(said);
      continue;
    }
    wrong.push(said);
    if (part && good) wrongGood.push(said);
    if (part && good && !warned) silent.push(said);
  }
  return {
    description,
    panels: truths.filter((t) => !t.copyOf).length,
    copies: truths.filter((t) => t.copyOf).length,
    wrong,
    silent,
    alarms,
    wrongGood,
  };
}

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const only = Deno.args[2] as Rough | undefined;
  const rows: Record<
    string,
    {
      scenes: number;
      panels: number;
      copies: number;
      wrong: number;
      wrongGood: number;
      silent: number;
      alarms: number;
    }
  > = {};
  for (let seed = from; seed <= to; seed++) {
    const rough = ROUGHS[seed % ROUGHS.length];
    if (only && rough !== only) continue;
    const v = await judgeRough(seed);
    const row = rows[rough] ??= {
      scenes: 0,
      panels: 0,
      copies: 0,
      wrong: 0,
      wrongGood: 0,
      silent: 0,
      alarms: 0,
    };
    row.scenes++, row.panels += v.panels, row.copies += v.copies, row.wrong += v.wrong.length;
    row.wrongGood += v.wrongGood.length;
    row.silent += v.silent.length, row.alarms += v.alarms.length;
    if (v.wrong.length || v.alarms.length) console.log(v.description);
    if (v.wrong.length) console.log(`  wrong ${v.wrong.join("; ")}`);
    if (v.silent.length) console.log(`  SILENT ${v.silent.join("; ")}`);
    if (v.alarms.length) console.log(`  alarm ${v.alarms.join("; ")}`);
  }
  console.table(rows);
}
