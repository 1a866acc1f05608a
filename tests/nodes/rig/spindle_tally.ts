/**
 * All-moving surfaces with the habits of real files (`all_moving_surfaces.ts` with
 * {@link SpindleHabits}: spindles at 20–45 % of the MAC, shafts drawn as rods or bosses, authored on
 * the node's origin or not shown at all, stabilators behind cropped deltas, `Elevator`-named
 * stabilators and conventional tails with a fixed `Stabilizer`), tallied against the construction: a
 * hinge off is more than 2° or 2 % of the mean aerodynamic chord from the designer's line at either end
 * of the span; silent when the fit is `good` and no warning names the panel; warned-right when it is
 * within both and a warning names it; refused when not rigged or `failed`.
 * `deno run -A spindle_tally.ts 9000 9299` prints it.
 *
 * @module
 */
import { allMovingSample, SPINDLE_LAYOUTS } from "./all_moving_surfaces.ts";
import { type ReportPart, rig } from "./pipeline.ts";
import { hingeError } from "./coarse_panels.ts";

/** Counts of one layout (or of all). */
export interface SpindleRow {
  surfaces: number;
  off: number;
  silent: number;
  warnedRight: number;
  refused: number;
  /** Off where the file shows the shaft (drawn, or authored on the node's origin). */
  shownOff: number;
}

const confidenceOf = (part: ReportPart | undefined) =>
  (part?.fit as { confidence?: string } | null | undefined)?.confidence;

/** Rigs seeds `from`–`to` and counts hinges off, per layout and in all; `each` hears every one off. */
export async function tallySpindles(
  from: number,
  to: number,
  each?: (line: string) => void,
): Promise<Record<string, SpindleRow>> {
  const rows: Record<string, SpindleRow> = {};
  const empty = (): SpindleRow => ({
    surfaces: 0,
    off: 0,
    silent: 0,
    warnedRight: 0,
    refused: 0,
    shownOff: 0,
  });
  const all = empty();
  for (let seed = from; seed <= to; seed++) {
    const layout = SPINDLE_LAYOUTS[seed % SPINDLE_LAYOUTS.length];
    const sample = allMovingSample(seed, layout, { spindles: true });
    const { report, ctx } = await rig(sample.doc, sample.frame);
    const row = rows[layout] ??= empty();
    for (const truth of sample.truths) {
      const part = report.parts.find((p) => p.panel === truth.name);
      const said = ctx.warnings.filter((w) => w.message.includes(`'${truth.name}'`)).map((w) => w.message);
      const error = part?.hinge && hingeError(truth, part.hinge.world);
      const confidence = confidenceOf(part);
      const refused = !error || confidence === "failed";
      const off = !refused && (error.degrees > 2 || error.offset > 0.02 * truth.chord);
      const silent = off && confidence === "good" && said.length === 0;
      const warnedRight = !refused && !off && said.length > 0;
      for (const r of [row, all]) {
        r.surfaces++, r.off += +off, r.silent += +silent, r.warnedRight += +warnedRight;
        r.refused += +refused, r.shownOff += +(off && truth.shown === true);
      }
      if (off || refused) {
        const rule = (part?.fit as { rule?: string } | null | undefined)?.rule;
        each?.(
          `${sample.description} ${truth.name} (${part?.kind ?? "not rigged"}, ${rule}, ${confidence}): ${
            error
              ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.chord).toFixed(1)} % of MAC`
              : "none"
          }${silent ? " SILENT" : said.length ? ` warned: ${said.join(" | ").slice(0, 160)}` : ""}`,
        );
      }
    }
  }
  return { ...rows, all };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  console.table(await tallySpindles(from, to, (line) => console.log(line)));
}
