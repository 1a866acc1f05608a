/**
 * The measurement the rig's generated-surface tests share: each airfoil surface fitted at its
 * forward edge and judged, against the hinge it was built on. A fit is right within 1° and 2 % of
 * chord at both ends of the span (`hingeError`); one judged `good` that is not right is a silent
 * miss, named with its surface.
 */
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit } from "../../../nodes/rig/fit_confidence.ts";
import type { AirfoilSurface } from "./airfoil_panels.ts";
import { hingeError } from "./coarse_panels.ts";

/** What a set of surfaces gave. */
export interface SurfaceMeasure {
  /** Judgements, and the right fits judged weak or failed. */
  readonly tally: { good: number; weak: number; failed: number; weakRight: number };
  /** The worst good fit: degrees off, and offset as a share of chord. */
  readonly worst: { degrees: number; offset: number };
  /** The good fits that are not right (`#i description: degrees, % of chord`). */
  readonly silent: string[];
  /** The good fits off by more than 2° or 5 % of chord at an end of the span (a silent wrong answer). */
  readonly farOff: string[];
  /** Each surface's reasons, in order. */
  readonly reasons: string[][];
}

/** Fits and judges `count` surfaces, `surfaceAt(i)` each; logs the tally (after `what`) and returns it. */
export function measureSurfaces(
  count: number,
  surfaceAt: (i: number) => AirfoilSurface,
  what = "",
): SurfaceMeasure {
  const tally = { good: 0, weak: 0, failed: 0, weakRight: 0 };
  const worst = { degrees: 0, offset: 0 };
  const silent: string[] = [], farOff: string[] = [], reasons: string[][] = [];
  for (let i = 0; i < count; i++) {
    const surface = surfaceAt(i);
    const fit = fitHinge(
      surface.positions,
      surface.positions.length / 3,
      { ...HINGE_FIT_DEFAULTS, edge: "forward" },
      surface.triangles,
    );
    const judgement = judgeFit(fit);
    const { degrees, offset } = hingeError(surface, fit);
    const right = degrees <= 1 && offset <= 0.02 * surface.chord;
    tally[judgement.confidence]++;
    reasons.push(judgement.reasons);
    if (judgement.confidence !== "good") {
      if (right) tally.weakRight++;
      continue;
    }
    worst.degrees = Math.max(worst.degrees, degrees);
    worst.offset = Math.max(worst.offset, offset / surface.chord);
    const miss = `#${i} ${surface.description}: ${degrees.toFixed(2)}°, ${
      (offset / surface.chord * 100).toFixed(1)
    } %`;
    if (!right) silent.push(miss);
    if (degrees > 2 || offset > 0.05 * surface.chord) farOff.push(miss);
  }
  console.log(
    `${what ? `${what}: ` : ""}${JSON.stringify(tally)}; worst good fit ${worst.degrees.toFixed(3)}°, ${
      (worst.offset * 100).toFixed(2)
    } % of chord`,
  );
  return { tally, worst, silent, farOff, reasons };
}

/** How many surfaces have a reason containing `text`. */
export function namedBy(result: SurfaceMeasure, text: string): number {
  return result.reasons.filter((reasons) => reasons.some((reason) => reason.includes(text))).length;
}
