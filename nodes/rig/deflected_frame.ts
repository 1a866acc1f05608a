/**
 * The station frame of a surface modelled deflected at rest. A fit's stations are cut square to a
 * span that is square to the flow (`hinge_fit.ts`), which are the planes a modeller draws a surface's
 * sections in — until the surface is modelled turned about a swept hinge (swept by the wing's sweep or
 * by taper: a hinge at 80 % of a tapering chord sweeps forward). Turned about such a hinge, the planes
 * the sections were drawn in turn out of the flow's planes, and a station cuts the surface obliquely:
 * a rounded nose drawn as a circle about the hinge is cut as an ellipse, and the circle fitted near its
 * tip is off the hinge (2–3 % of the chord at 40° down on a hinge swept 40°). The frame here is the fit's
 * own construction with the flow turned with the surface — about the hinge, by the angle the chord line
 * stands off the flow — so its stations are the planes the sections were drawn in.
 *
 * @module
 */
import { cross, dot, normalize, type Vec3 } from "./transform.ts";

/** A panel frame: span, chord and thickness directions (as `hinge_fit.ts` takes them). */
export interface PanelFrame {
  readonly span: Vec3;
  readonly chordDir: Vec3;
  readonly normal: Vec3;
}

/** Below this turn of the span (degrees) the stations already lie in the drawn planes. */
export const MIN_TURN_DEGREES = 1;

const AFT: Vec3 = [1, 0, 0];

/**
 * The frame whose stations lie in the planes the surface's sections were drawn in, given its
 * covariance's least axis `least`, the fitted `hinge` direction, a `chord` vector (hinge to trailing
 * edge, square to the hinge or not) and the fit's first `frame`; undefined when it differs from that
 * frame by under {@link MIN_TURN_DEGREES} (a surface at rest, or turned about a hinge square to the
 * flow) or the directions are degenerate.
 *
 * @example
 * ```ts
 * const turned = deflectedFrame(least, fit.axis, chord, { span, chordDir, normal });
 * if (turned) cutStationsAgain(turned);
 * ```
 */
export function deflectedFrame(
  least: Vec3,
  hinge: Vec3,
  chord: Vec3,
  frame: PanelFrame,
): PanelFrame | undefined {
  const a = normalize(hinge);
  // The flow turned about the hinge by the deflection: its part along the hinge stays, its part
  // square to the hinge turns onto the chord line's (so the section's chord lies along it again).
  const along = dot(AFT, a), square = Math.sqrt(Math.max(0, 1 - along * along));
  const c = chord.map((x, i) => x - dot(chord, a) * a[i]) as Vec3;
  const cl = Math.hypot(...c);
  if (!(square > 1e-6) || !(cl > 0) || !(dot(c, AFT) > 0)) return undefined;
  const flow = [0, 1, 2].map((i) => along * a[i] + (square * c[i]) / cl) as Vec3;
  let span = normalize(cross(least, flow));
  if (!(Math.hypot(...span) > 0.5)) return undefined;
  if (dot(span, frame.span) < 0) span = [-span[0], -span[1], -span[2]];
  const turn = (Math.acos(Math.min(1, dot(span, frame.span))) * 180) / Math.PI;
  if (!(turn >= MIN_TURN_DEGREES)) return undefined;
  const d = dot(span, flow);
  const chordDir = normalize([0, 1, 2].map((i) => flow[i] - span[i] * d) as Vec3);
  return { span, chordDir, normal: normalize(cross(span, chordDir)) };
}

/**
 * Least climb (degrees) of the quarter-chord line a turn must account for before the surface's plane
 * is read for its shaft: half of {@link MIN_TURN_DEGREES}.
 */
export const TURN_CLIMB_DEGREES = 0.5;

/**
 * How much (degrees) a turn about the shaft makes the quarter-chord line climb out of the flow's
 * plane: atan(tan(sweep)·sin(turn)), the turn read from the `chord` line (leading to trailing edge at
 * mid-span) against the flow about the `frame`'s span, the sweep from the `quarter` line's own
 * (its aft part against the rest). 0 at rest.
 *
 * @example
 * ```ts
 * turnClimb(sub(b, a), sub(trail, lead), axes); // 8.3 for a surface swept 40° turned 10°
 * ```
 */
export function turnClimb(quarter: Vec3, chord: Vec3, frame: PanelFrame): number {
  const aft = dot(chord, AFT), up = dot(chord, cross(frame.span, AFT));
  const turn = Math.atan2(Math.abs(up), Math.abs(aft));
  const flow = Math.abs(dot(quarter, AFT)), rest = Math.hypot(quarter[1], quarter[2]);
  if (!(rest > 0) || !Number.isFinite(turn)) return 0;
  return (Math.atan((flow / rest) * Math.sin(turn)) * 180) / Math.PI;
}

/**
 * The shaft of an all-moving surface (canard, stabilator, all-moving fin), given the direction of
 * its quarter-chord line without its sweep (`quarter`: its dihedral kept) and its `frame`, whose span
 * is square to the flow in the surface's own plane when `flat` (`hinge_fit.ts` takes it from the
 * surface's normal). At rest the two agree. Modelled turned about its shaft (a showcase model's
 * pose), a swept surface's quarter-chord line climbs by tan(sweep)·sin(turn) per unit of span — read
 * as dihedral, it tilted canards' shafts by up to 13° — while the surface's plane still holds the
 * shaft, square to the flow: where the two differ by {@link MIN_TURN_DEGREES} or more and the turn
 * (`climb`, {@link turnClimb}) accounts for {@link TURN_CLIMB_DEGREES} of it or more, the plane's span
 * (signed as `quarter`) is the shaft; else `quarter` as it was. The plane is the vertices'
 * least-variance one, which a cambered section swept 40° or more tilts by 1–2° at rest (the camber's
 * lean, aft, correlates with the span through the sweep): read then, all-moving fins' shafts were
 * 1.0–1.9° off (fin_horns.ts seeds 12000-12999, 4 of 200), and whether a fin with a horn or the same
 * fin without was the one off hung on a 1° threshold.
 *
 * @example
 * ```ts
 * axis = allMovingShaft(unswept, axes, axes.fromNormal, turnClimb(sub(b, a), chord, axes));
 * ```
 */
export function allMovingShaft(quarter: Vec3, frame: PanelFrame, flat: boolean, climb: number): Vec3 {
  if (!flat || !(climb >= TURN_CLIMB_DEGREES)) return quarter;
  const along = dot(normalize(quarter), frame.span);
  if (!(Math.abs(along) < Math.cos((MIN_TURN_DEGREES * Math.PI) / 180))) return quarter;
  return along < 0 ? [-frame.span[0], -frame.span[1], -frame.span[2]] : frame.span;
}
