/**
 * How the brake and flap tallies of this folder (`dive_brakes_tally.ts`, `fowler_flaps_tally.ts`,
 * `glider_brakes_tally.ts`) and their tests judge one rigged panel against its construction: the
 * hinge within 2° and 5 % of the panel's chord of the true line, the fit's confidence, whether a
 * warning names the panel, and a count per outcome.
 *
 * @module
 */
import type { HingeFit } from "../../../nodes/rig/hinge_fit.ts";
import { type CoarsePanel, hingeError } from "./coarse_panels.ts";
import type { ReportPart, RigResult } from "./pipeline.ts";

/** Whether `fit` lies within 2° of `truth`'s hinge line and 5 % of its chord from it. */
export function hingeWithin(
  truth: Pick<CoarsePanel, "origin" | "axis" | "span" | "chord">,
  fit: Pick<HingeFit, "origin" | "axis">,
): boolean {
  const { degrees, offset } = hingeError(truth, fit);
  return degrees <= 2 && offset <= 0.05 * truth.chord;
}

/** The confidence `part`'s fit reports (`good`, `weak` …); undefined when it has no fit. */
export function confidenceOf(part: ReportPart | undefined): string | undefined {
  return (part?.fit as unknown as { confidence: string } | undefined)?.confidence;
}

/** Whether a warning of the run names `name` (as `'name'`). */
export function warnsOf(result: Pick<RigResult, "ctx">, name: string): boolean {
  return result.ctx.warnings.some((w) => w.message.includes(`'${name}'`));
}

/** Counts one more `key` in `tally`. */
export function countIn(tally: Record<string, number>, key: string): void {
  tally[key] = (tally[key] ?? 0) + 1;
}
