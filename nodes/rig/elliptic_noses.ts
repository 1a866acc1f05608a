/**
 * Whether a surface's rounded noses are drawn on ellipses, judged from the ellipse fitted to each
 * station's front half (`nose_ellipse.ts`): a station's ellipse counts when it is clearly one and no
 * circle, and the surface's noses are elliptic when most stations' are and their points lie much
 * closer to their ellipses than to circles. `nose_centre.ts` then turns such noses about their
 * ellipses' centres instead of their tip circles'.
 *
 * @module
 */
import { type NoseEllipse, noseEllipse } from "./nose_ellipse.ts";

/** A station's tip circle (`nose_centre.ts`): centre (v, w) relative to the tip, and radius. */
export interface TipCircle {
  readonly cv: number;
  readonly cw: number;
  readonly r: number;
}

/**
 * An ellipse fitted to a nose's front half (`nose_ellipse.ts`) is no circle when its axes differ by
 * more than this share; below it the circle tests judge the nose.
 */
const ELLIPSE_MIN = 1.05;
/**
 * Up to this ratio of its axes an elliptic nose turns about its centre near enough to judge the fit
 * on it (its reach into the cove changes by at most a fifth of its half-thickness over ±30°); deeper
 * ovals (overhang noses 1.6–2 times as deep as thick) still count as ovals, their centre a guess.
 */
const MILD_OVAL = 1.35;
/**
 * How many times closer the half's points must lie to their ellipse than to their own circle: a
 * faceted nose (five to nine sides) sits as far from any ellipse as from a circle (its fitted axes
 * then differ by up to 1.9 at random), a drawn oval's points lie on their ellipse.
 */
const BETTER_THAN_CIRCLE = 2;
/** RMS and worst distance of the half's points from its ellipse, as shares of the minor semi-axis. */
const ELLIPSE_RMS = 0.02, ELLIPSE_WORST = 0.06;

/**
 * Whether a surface's noses are drawn on ellipses: when at least half the stations with a tip circle
 * have a clear ellipse that is no circle, and over those the half's points lie typically
 * {@link BETTER_THAN_CIRCLE} times closer to it than to a circle — `"mild"` when its axes typically
 * differ by at most {@link MILD_OVAL}, else `"oval"`; undefined when not (the circle tests judge each
 * station). Decided once for the surface: station by station, a nose of nine sides sits as near a
 * circle as an ellipse at some stations and not at others, and a line through tip circles at some and
 * ellipse centres at others was judged good though 2–3 % of chord off.
 */
export function ellipticNoses(
  tips: readonly (TipCircle | undefined)[],
  halves: readonly (NoseEllipse | undefined)[],
): "mild" | "oval" | undefined {
  const clear = halves.filter((e): e is NoseEllipse => e !== undefined);
  const rounded = tips.filter((c) => c !== undefined).length;
  if (clear.length === 0 || 2 * clear.length < rounded) return undefined;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[(xs.length - 1) >> 1];
  if (median(clear.map((e) => e.circleRms / e.rms)) < BETTER_THAN_CIRCLE) return undefined;
  return median(clear.map((e) => e.major / e.minor)) > MILD_OVAL ? "oval" : "mild";
}

/**
 * The ellipse of station `k`'s nose when it clearly is one and no circle: its whole front half on it
 * within {@link ELLIPSE_RMS} (RMS) and {@link ELLIPSE_WORST} (worst) of its minor semi-axis, points above
 * and below its own chord, axes differing by over {@link ELLIPSE_MIN}; undefined otherwise (a circle,
 * a flat face — the circle tests judge those).
 */
export function ovalNose(
  points: Float64Array,
  circle: TipCircle,
  lead: Float64Array,
  trail: Float64Array,
  k: number,
): NoseEllipse | undefined {
  const tv = trail[k * 3 + 1] - lead[k * 3 + 1], tw = trail[k * 3 + 2] - lead[k * 3 + 2];
  const e = noseEllipse(points, circle.cv, circle.cw, circle.r, tv, tw);
  if (!e || e.major < ELLIPSE_MIN * e.minor) return undefined;
  if (e.rms > ELLIPSE_RMS || e.worst > ELLIPSE_WORST || e.above < 2 || e.below < 2) return undefined;
  return e;
}
