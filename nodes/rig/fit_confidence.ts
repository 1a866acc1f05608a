/**
 * How far a fitted hinge can be trusted: `good`, `weak` or `failed`, with the reasons. A line is
 * judged by how much of the span supports it (the stations whose edge point lies on it, each
 * covering an equal share of the span), by how many stations that is (two points always make a
 * line, so a two-point line proves nothing), by the panel's chord and span, and by whether the
 * span came from a clear panel normal. Agreement with a mirror partner is judged where partners are
 * paired (`mirror_partners.ts`).
 *
 * @module
 */
import type { HingeFit } from "./hinge_fit.ts";
import type { HardwareReach } from "./hinge_hardware.ts";
import { dot } from "./transform.ts";

/** A fit's trust level. */
export type Confidence = "good" | "weak" | "failed";

/** A fit's trust level with why, and the span share supporting its line. */
export interface FitJudgement {
  readonly confidence: Confidence;
  /** Plain-language reasons for anything short of good (empty when good). */
  readonly reasons: string[];
  /** Share of the span (0–1) whose stations lie on the hinge line (both edges' for quarter chord). */
  readonly coverage: number;
}

/** Below this span share supporting the line a fit is weak. */
export const WEAK_COVERAGE = 0.6;
/** Below this span share the line is a guess: failed. */
export const FAILED_COVERAGE = 0.35;
/**
 * A second straight run of the hinge edge over at least this span share (off the hinge line) makes
 * the fit weak: the edge alone cannot tell a long horn balance from a cut-out or a kink. Below it
 * (horns over up to about a third of the span, as real surfaces have them) the longer run is the
 * hinge: of 1,200 generated horn-balanced surfaces no fit judged good with a shorter rival was off.
 */
export const RIVAL_SHARE = 0.4;
/** A hinge running more than this far (degrees) from the span direction cuts across the panel. */
const MAX_HINGE_TO_SPAN_DEGREES = 62;

/** Judges one fit. */
export function judgeFit(fit: HingeFit): FitJudgement {
  const reasons: string[] = [];
  let level = 0; // 0 good, 1 weak, 2 failed
  const flag = (severity: 1 | 2, reason: string) => {
    level = Math.max(level, severity);
    reasons.push(reason);
  };
  const coverage = fit.stations > 0 ? fit.inliers / fit.stations : 0;
  const percent = (x: number) => `${Math.round(x * 100)} %`;
  if (!(fit.chord > 1e-6 * fit.spanLength) || !(fit.chord > 0)) {
    flag(2, `chord ${fit.chord.toPrecision(3)}: the panel has no extent along the flow`);
  }
  if (!(fit.spanLength > 0)) flag(2, "span 0: the panel has no extent across the flow");
  if (fit.inliers < 3) {
    flag(
      fit.inliers < 2 ? 2 : 1,
      `the line rests on ${fit.inliers} station${
        fit.inliers === 1 ? "" : "s"
      } (two points always make a line)`,
    );
  }
  if (coverage < FAILED_COVERAGE) {
    flag(2, `the edge is straight along only ${percent(coverage)} of the span`);
  } else if (coverage < WEAK_COVERAGE) {
    flag(1, `the edge is straight along only ${percent(coverage)} of the span (stepped, kinked or curved)`);
  }
  if (fit.rivalStations >= 3 && fit.rivalStations >= RIVAL_SHARE * fit.stations) {
    flag(
      1,
      `its edge runs along a second straight line over ${
        percent(fit.rivalStations / fit.stations)
      } of the span (a horn balance, a cut-out or a kink?): the hinge is drawn along the longer run (${
        percent(coverage)
      }), which may not be where it turns`,
    );
  }
  if (fit.roundOffLine >= 2) {
    flag(
      1,
      `its nose is a circle about a line behind its tip at ${fit.roundOffLine} stations, but the hinge is ` +
        "drawn along the tip at the others (a rounded nose in a cove, drawn with few sides?): it may turn " +
        "about the circle's centre",
    );
  }
  if (fit.ovalNoses >= 3) {
    flag(
      1,
      `its nose is rounded but no circle about one point at ${fit.ovalNoses} stations (an oval or overhang ` +
        "nose?): it may turn about a point inside it, not at its tip, where the hinge is drawn",
    );
  }
  if (!fit.spanFromNormal) flag(1, "the panel is not flat enough for its normal to give the span");
  const offSpan = (Math.acos(Math.min(1, Math.abs(dot(fit.axis, fit.span)))) * 180) / Math.PI;
  if (offSpan > MAX_HINGE_TO_SPAN_DEGREES) {
    flag(1, `the hinge runs ${offSpan.toFixed(0)}° off the span, across the panel`);
  }
  if (fit.hanging) {
    const { depth, places } = fit.hanging;
    flag(
      1,
      `parts of it reach ${percent(depth)} of its chord outside its sections at ${places} place${
        places === 1 ? "" : "s"
      } along the span (hinge brackets, a dropped hinge?): the hinge is drawn along its nose, which such ` +
        "parts may not turn about",
    );
  }
  if (fit.spanLength > 0 && fit.spanLength < 0.1 * fit.chord) {
    flag(1, `span ${fit.spanLength.toPrecision(3)} is under a tenth of the chord`);
  }
  return { confidence: (["good", "weak", "failed"] as const)[level], reasons, coverage };
}

/**
 * A judgement with the hinge hardware found beside the panel (`hinge_hardware.ts`) added: any makes
 * a good fit weak, its reason naming the objects (the first four) and how far they reach.
 *
 * @example
 * ```ts
 * withHardware(judgeFit(fit), [{ name: "Flap_Bracket_1", depth: 0.31 }]).confidence; // "weak"
 * ```
 */
export function withHardware(judgement: FitJudgement, hardware: readonly HardwareReach[]): FitJudgement {
  if (hardware.length === 0) return judgement;
  const names = hardware.slice(0, 4).map((h) => `'${h.name}'`).join(", ") +
    (hardware.length > 4 ? ` and ${hardware.length - 4} more` : "");
  const reason =
    `hinge hardware beside it (${names}) reaches ${
      Math.round(hardware[0].depth * 100)
    } % of its chord outside its sections (a dropped hinge?): its pivot may be there, not on the line ` +
    "fitted to its edge";
  return {
    ...judgement,
    confidence: judgement.confidence === "failed" ? "failed" : "weak",
    reasons: [...judgement.reasons, reason],
  };
}
