/**
 * Judges `lettered_pieces.ts` scenes: each piece right (kind, side, hinge within 2° and 5 % of chord)
 * or wrong, and whether a wrong one was said (its fit not `good`, or a warning naming it).
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import { piecesScene } from "./surface_pieces.ts";
import { type Layout, letteredSample, LETTERS, type Letters } from "./lettered_pieces.ts";

/** Pieces right, wrong but said (weak fit or named in a warning), and wrong silently; the wrong ones listed. */
export interface LetteredTally {
  right: number;
  warned: number;
  silent: number;
  wrong: string[];
}

/** Rigs the scene of `seed` and tallies its pieces into `into`. */
export async function tallyLettered(seed: number, layout: Layout, letters: Letters, into: LetteredTally) {
  const sample = letteredSample(seed, layout, letters);
  const { report, ctx } = await rig(piecesScene(sample));
  for (const panel of sample.panels) {
    const part = report.parts.find((p) => p.panel === panel.name);
    const error = part?.hinge ? hingeError(panel.truth!, part.hinge.aircraft) : undefined;
    if (
      part && error && part.kind === panel.kind && part.side === panel.side && error.degrees <= 2 &&
      error.offset <= 0.05 * panel.truth!.chord
    ) {
      into.right++;
      continue;
    }
    const confidence = (part?.fit as unknown as { confidence?: string } | undefined)?.confidence;
    const said = confidence !== "good" || ctx.warnings.some((w) => w.message.includes(panel.name));
    if (said) into.warned++;
    else into.silent++;
    into.wrong.push(
      `${sample.description}: ${panel.name} ${part?.kind}/${part?.side} ${
        error
          ? `${error.degrees.toFixed(1)}° ${(error.offset / panel.truth!.chord * 100).toFixed(0)}%`
          : "no hinge"
      } ${confidence}${said ? "" : " (silent)"}`,
    );
  }
}

// `deno run -A tests/nodes/rig/lettered_pieces_tally.ts 101 130`: the tally of seeds 101-130 (held out
// from the test's 1-6) per layout and letters, with the first wrong pieces.
if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  for (const layout of ["butterfly", "inverted"] as const) {
    for (const letters of LETTERS) {
      const t: LetteredTally = { right: 0, warned: 0, silent: 0, wrong: [] };
      for (let seed = from; seed <= to; seed++) await tallyLettered(seed, layout, letters, t);
      console.log(layout, letters, JSON.stringify({ ...t, wrong: t.wrong.length }));
      for (const w of t.wrong.slice(0, 4)) console.log("   ", w);
    }
  }
}
