/**
 * All-moving surfaces' shafts against the construction's, tallied (`all_moving_surfaces.ts`): a hinge
 * off is more than 2° or 5 % of the mean aerodynamic chord from the designer's shaft at either end of
 * the span; silent when the fit is `good` and no warning names the panel.
 * `deno run -A all_moving_tally.ts 500 599` prints it.
 *
 * @module
 */
import { ALL_MOVING_LAYOUTS, allMovingSample } from "./all_moving_surfaces.ts";
import { type ReportPart, rig } from "./pipeline.ts";
import { hingeError } from "./coarse_panels.ts";

/** Counts of one layout (or of all). */
export interface ShaftRow {
  surfaces: number;
  off: number;
  silent: number;
  weak: number;
}

const goodOf = (part: ReportPart | undefined) =>
  (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";

/** Rigs seeds `from`–`to` and counts shafts off, per layout and in all; `each` hears every one off. */
export async function tallyShafts(
  from: number,
  to: number,
  each?: (line: string) => void,
): Promise<Record<string, ShaftRow>> {
  const rows: Record<string, ShaftRow> = {};
  const all: ShaftRow = { surfaces: 0, off: 0, silent: 0, weak: 0 };
  for (let seed = from; seed <= to; seed++) {
    const sample = allMovingSample(seed);
    const layout = ALL_MOVING_LAYOUTS[seed % ALL_MOVING_LAYOUTS.length];
    const { report, ctx } = await rig(sample.doc, sample.frame);
    const row = rows[layout] ??= { surfaces: 0, off: 0, silent: 0, weak: 0 };
    for (const truth of sample.truths) {
      const part = report.parts.find((p) => p.panel === truth.name);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
      const error = part?.hinge && hingeError(truth, part.hinge.world);
      const off = !error || error.degrees > 2 || error.offset > 0.05 * truth.chord;
      const silent = off && goodOf(part) && !warned;
      for (const r of [row, all]) r.surfaces++, r.off += +off, r.silent += +silent, r.weak += +!goodOf(part);
      if (off) {
        const rule = (part?.fit as { rule?: string } | null | undefined)?.rule;
        each?.(
          `${sample.description} ${truth.name} (${part?.kind ?? "not rigged"}, ${rule}): ${
            error
              ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.chord).toFixed(1)} % of MAC`
              : "none"
          }${silent ? " SILENT" : ""}`,
        );
      }
    }
  }
  return { ...rows, all };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  console.table(await tallyShafts(from, to, (line) => console.log(line)));
}
