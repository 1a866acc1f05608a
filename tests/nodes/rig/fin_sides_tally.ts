/**
 * Sides of fins as large aircraft's files have them, tallied: the scenes of `fin_horns.ts` drawn
 * `scale` times larger (an airliner's or a bomber's tail, fin chords of 2–10 m), and twin fins and
 * V-tails renamed with no side word (`Rudder.001`, `Fin.002`), so that their geometry alone sides them.
 * A central fin's (a rudder's, a ventral one's, an all-moving fin's) side is the centre; a twin fin's
 * its own. Silently wrong: sided wrong, judged good, and no warning naming it. Hinges off: a surface's
 * hinge more than 2° or 5 % of its chord off the construction's (an all-moving fin's: its shaft), the
 * construction drawn `scale` times larger too.
 * `deno run -A fin_sides_tally.ts 11000 11199 3` prints it.
 *
 * @module
 */
import { finHornSample } from "./fin_horns.ts";
import { type ReportPart, rig } from "./pipeline.ts";
import { hingeError } from "./coarse_panels.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";

/** Counts of one layout (or of all). */
export interface SideRow {
  panels: number;
  wrong: number;
  silent: number;
  /** Hinges off (over 2° or 5 % of the chord); of those, judged good with no warning naming the panel. */
  hinges: number;
  hingesSilent: number;
}

const goodOf = (part: ReportPart | undefined) =>
  (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";

/** Rigs seeds `from`–`to` drawn `scale` times larger and counts sides wrong, per layout and in all. */
export async function tallySides(
  from: number,
  to: number,
  scale: number,
  each?: (line: string) => void,
): Promise<Record<string, SideRow>> {
  const rows: Record<string, SideRow> = {};
  const all: SideRow = { panels: 0, wrong: 0, silent: 0, hinges: 0, hingesSilent: 0 };
  for (let seed = from; seed <= to; seed++) {
    const sample = finHornSample(seed);
    const renamed = new Map<string, string>();
    let n = 0;
    for (const node of sample.doc.getRoot().listNodes()) {
      if (!node.getParentNode()) {
        node.setScale([scale, scale, scale]);
        node.setTranslation(node.getTranslation().map((v) => v * scale) as [number, number, number]);
      }
      // Twin surfaces named with no side: only their geometry tells it.
      if (sample.truths.length > 1 && /_(L|R|Left|Right)$|\.(L|R)$|(Left|Right)$/.test(node.getName())) {
        const name = `${/fin/i.test(node.getName()) ? "Fin" : "Rudder"}.${String(++n).padStart(3, "0")}`;
        renamed.set(node.getName(), name);
        node.setName(name);
      }
    }
    const { report, ctx } = await rig(sample.doc);
    const row = rows[sample.layout] ??= { panels: 0, wrong: 0, silent: 0, hinges: 0, hingesSilent: 0 };
    for (const truth of sample.truths) {
      const name = renamed.get(truth.name) ?? truth.name;
      const part = report.parts.find((p) => p.panel === name);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${name}'`));
      const wrong = part?.side !== truth.side, silent = wrong && goodOf(part) && !warned;
      const line = truth.shaft ?? truth, chord = line.chord * scale;
      const error = part?.hinge &&
        hingeError({
          origin: line.origin.map((v) => v * scale) as Vec3,
          axis: line.axis,
          span: truth.span * scale,
        }, part.hinge.world);
      const off = !error || error.degrees > 2 || error.offset > 0.05 * chord,
        offSilent = off && goodOf(part) && !warned;
      for (const r of [row, all]) {
        r.panels++, r.wrong += +wrong, r.silent += +silent, r.hinges += +off, r.hingesSilent += +offSilent;
      }
      if (wrong) {
        each?.(
          `seed ${seed} ${sample.layout} ${name}: ${part?.side} (${truth.side})${silent ? " SILENT" : ""}`,
        );
      }
      if (off) {
        each?.(
          `seed ${seed} ${sample.layout} ${name}: hinge ${
            error
              ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / chord).toFixed(1)} % of chord`
              : "none"
          }${offSilent ? " SILENT" : ""}`,
        );
      }
    }
  }
  return { ...rows, all };
}

if (import.meta.main) {
  const [from, to, scale] = Deno.args.map(Number);
  console.table(await tallySides(from, to, scale ?? 1, (line) => console.log(line)));
}
