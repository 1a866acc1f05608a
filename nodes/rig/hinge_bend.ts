/**
 * A surface that spans a planform kink in one object — an aileron or flap across a cranked wing's
 * crank or a gull wing's bend, drawn as one mesh (welded at the kink or not) — has two hinge lines
 * meeting at the kink, and no straight line is right for both parts. The fit takes the longer part's
 * line; where the shorter part is under 40 % of the span (`fit_confidence.ts`' rival share, which
 * lets a horn balance pass) it was judged `good`, silently 6–20° off on that part. The panel is cut
 * across its span at a few places; where both sides are straight on their own, their lines meet
 * within the span and turn more than {@link BEND_DEGREES} from each other, the hinge bends. A horn
 * balance or a cut-out steps the edge parallel to the line, so its sides do not turn.
 *
 * @module
 */
import { judgeFit } from "./fit_confidence.ts";
import { fitHinge, type HingeFit, type HingeFitOptions } from "./hinge_fit.ts";
import type { HingeEdge } from "./kinds.ts";
import type { PanelGeometry } from "./split_halves.ts";
import { cross, dot, sub, type Vec3 } from "./transform.ts";
import { trianglesWhere } from "./whole_sides.ts";

/** Sides' hinges turning more than this (degrees) from each other make a bend. */
export const BEND_DEGREES = 4;
/**
 * …and no more than this: a crank or a gull bend turns a hinge line by some tens of degrees; a "bend"
 * steeper than this is a short end piece fitted across its chord (a tip cap, a horn), no kink.
 */
const BEND_MAX_DEGREES = 45;
/** A kink lies no nearer than this share of the span to either end (nearer is an end piece). */
const KINK_END_SHARE = 0.1;
/** Each side straight: at least this share of its stations on its own line. */
const STRAIGHT_SHARE = 0.75;
/** The sides' lines meet at the cut within this share of the panel's chord. */
const MEET_CHORD = 0.1;
/** Cuts tried, as shares of the span from its lower end. */
const CUTS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85];

/**
 * Why a panel's hinge bends (its parts either side of a kink turn about lines more than
 * {@link BEND_DEGREES} apart), or undefined when it does not or cannot be told. Only panels hinged
 * on an edge, with some stations off the fitted line, are cut.
 */
export function hingeBend(
  geometry: PanelGeometry,
  whole: HingeFit,
  options: Omit<HingeFitOptions, "edge">,
  edge: HingeEdge,
): string | undefined {
  if (edge === "quarter" || !geometry.triangles || !(whole.inliers < whole.stations)) return undefined;
  // Only a fit otherwise judged good can be silently wrong here; one already weak or failed says so.
  // (Cutting every panel 15 times made 2,000 panels drawing one 65,535-vertex mesh 7× slower.)
  if (judgeFit(whole).confidence !== "good") return undefined;
  let best: { degrees: number; at: number } | undefined;
  for (const share of CUTS) {
    const cut = (share - 0.5) * whole.spanLength;
    const sides = [-1, 1].map((sign) => sideOf(geometry, whole, cut, sign));
    if (sides.some((s) => s.count < 3)) continue;
    const [a, b] = sides.map((s) => fitHinge(s.positions, s.count, { ...options, edge }, s.triangles));
    if (![a, b].every((f) => !f.collinear && f.inliers >= 3 && f.inliers >= STRAIGHT_SHARE * f.stations)) {
      continue;
    }
    const degrees = Math.acos(Math.min(1, Math.abs(dot(a.axis, b.axis)))) * 180 / Math.PI;
    if (!(degrees > BEND_DEGREES && degrees <= BEND_MAX_DEGREES)) continue;
    // The two lines meet (nearest each other within a tenth of the chord) somewhere along the span:
    // at the kink, which need not be at this cut.
    const n = cross(a.axis, b.axis), nn = dot(n, n), gap = sub(b.origin, a.origin);
    if (!(Math.abs(dot(gap, n)) / Math.sqrt(nn) <= MEET_CHORD * whole.chord)) continue;
    const t = dot(cross(gap, b.axis), n) / nn;
    const meet = [0, 1, 2].map((k) => a.origin[k] + a.axis[k] * t) as Vec3;
    const at = dot(sub(meet, whole.origin), whole.axis) / whole.spanLength + 0.5;
    if (!(at >= KINK_END_SHARE && at <= 1 - KINK_END_SHARE)) continue;
    if (!best || degrees > best.degrees) best = { degrees, at };
  }
  if (!best) return undefined;
  return `its hinge bends by ${best.degrees.toFixed(0)}° about ${Math.round(best.at * 100)} % along its ` +
    "span (a cranked or gull wing's kink, one object across it?): one straight line is drawn, which " +
    "the part on the other side of the bend does not turn about — cut the object at the kink into " +
    "an inboard and an outboard object to rig each on its own line";
}

/**
 * The triangles whose centroid lies below (`sign` −1) or beyond (+1) `cut` along the whole's axis
 * from its origin, their vertices only.
 */
function sideOf(
  geometry: PanelGeometry,
  whole: HingeFit,
  cut: number,
  sign: number,
): Required<PanelGeometry> {
  const { positions, triangles } = geometry;
  return trianglesWhere(geometry, (t) => {
    let u = 0;
    for (let c = 0; c < 3; c++) {
      for (let k = 0; k < 3; k++) {
        u += (positions[triangles![t + c] * 3 + k] - whole.origin[k]) * whole.axis[k] / 3;
      }
    }
    return sign * (u - cut) > 0;
  });
}
