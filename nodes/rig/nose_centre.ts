/**
 * Where a rounded nose turns. A control surface nested in a cove of the surface ahead has a nose
 * that is a circle about its hinge — so it turns inside the cove without changing the gap — and the
 * hinge is the circle's centre, not the nose's tip: on real airfoil sections the radius is 5–20 % of
 * the surface's chord, so the tip is that far ahead of the hinge. Per span station, a circle is
 * fitted to the section's points around the nose tip; it is used only when the nose is clearly one:
 * enough points, on the circle within a few percent of its radius, over a wide arc on both sides of
 * the tip. A flat nose face (a low-poly box section), a wedge or a sharp nose is no circle and keeps
 * its tip — the hinge such models are drawn with.
 *
 * @module
 */

/** A station's section as cut segments (station, va, wa, vb, wb), the form `sliceStations` keeps. */
export interface StationCuts {
  readonly data: Float64Array;
  readonly n: number;
}

/** Circles smaller than this share of the chord change nothing worth the risk. */
const MIN_RADIUS = 0.01;
/** A nose deeper than this share of the chord is the surface's whole front, not a nose. */
const MAX_RADIUS = 0.35;
/** RMS and worst distance of the arc's points from the circle, as shares of its radius. */
const RMS_TOLERANCE = 0.03, MAX_TOLERANCE = 0.08;
/** The fitted arc's reach behind the tip, as a share of the radius (a ±66° arc). */
const ARC_DEPTH = 0.6;

/**
 * Per station, the centre (v, w) of a rounded nose whose tip is the station's lead point, or NaN
 * where the nose is not clearly a circle. `lead` holds (u, v, w) per station (NaN where empty).
 */
export function noseCentres(
  cuts: StationCuts,
  lead: Float64Array,
  stations: number,
  chord: number,
): Float64Array {
  const out = new Float64Array(stations * 2).fill(NaN);
  if (!(chord > 0)) return out;
  // Each station's segment end points, relative to its tip.
  const byStation: number[][] = Array.from({ length: stations }, () => []);
  for (let i = 0; i < cuts.n; i += 5) {
    const k = cuts.data[i] | 0;
    const v0 = lead[k * 3 + 1], w0 = lead[k * 3 + 2];
    if (Number.isNaN(v0)) continue;
    for (let end = 1; end <= 3; end += 2) {
      const dv = cuts.data[i + end] - v0;
      if (dv <= MAX_RADIUS * chord) byStation[k].push(dv, cuts.data[i + end + 1] - w0);
    }
  }
  for (let k = 0; k < stations; k++) {
    const centre = stationNose(byStation[k], chord);
    if (centre) {
      out[k * 2] = lead[k * 3 + 1] + centre[0];
      out[k * 2 + 1] = lead[k * 3 + 2] + centre[1];
    }
  }
  return out;
}

/** The nose circle's centre relative to the tip, or undefined when the points make no clear one. */
function stationNose(points: number[], chord: number): [number, number] | undefined {
  if (points.length < 10) return undefined;
  // First reach: the half-thickness just behind the tip.
  let reach = 0;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] <= 0.1 * chord) reach = Math.max(reach, Math.abs(points[i + 1]));
  }
  let circle: Circle | undefined;
  for (let pass = 0; pass < 3 && reach > 0; pass++) {
    circle = fitCircle(points, ARC_DEPTH * reach);
    if (!circle) return undefined;
    reach = circle.r;
  }
  if (!circle) return undefined;
  const { cv, cw, r } = circle;
  if (!(r >= MIN_RADIUS * chord && r <= MAX_RADIUS * chord)) return undefined;
  // The circle must be the nose: its forward-most point the tip, its points close to it all round
  // a wide arc on both sides (a flat face's corners, a wedge's sides are not).
  if (Math.abs(cv - r) > 0.05 * r || Math.abs(cw) > 0.1 * r) return undefined;
  let n = 0, sum = 0, worst = 0, above = 0, below = 0;
  const depth = ARC_DEPTH * r;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] > depth) continue;
    const d = Math.hypot(points[i] - cv, points[i + 1] - cw) - r;
    n++;
    sum += d * d;
    worst = Math.max(worst, Math.abs(d));
    if (points[i + 1] - cw > 0.5 * r) above++;
    if (points[i + 1] - cw < -0.5 * r) below++;
  }
  if (n < 10 || above < 2 || below < 2) return undefined;
  if (Math.sqrt(sum / n) > RMS_TOLERANCE * r || worst > MAX_TOLERANCE * r) return undefined;
  return [cv, cw];
}

interface Circle {
  cv: number;
  cw: number;
  r: number;
}

/**
 * Least-squares circle (algebraic: v² + w² + a·v + b·w + c = 0) through the points no deeper than
 * `depth` behind the tip, scaled by `depth` so the normal equations stay well conditioned.
 */
function fitCircle(points: number[], depth: number): Circle | undefined {
  if (!(depth > 0)) return undefined;
  // Normal equations of [v w 1]·[a b c]ᵀ = −(v² + w²).
  let svv = 0, svw = 0, sv = 0, sww = 0, sw = 0, s1 = 0, rv = 0, rw = 0, r1 = 0;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] > depth) continue;
    const v = points[i] / depth, w = points[i + 1] / depth, q = -(v * v + w * w);
    svv += v * v;
    svw += v * w;
    sv += v;
    sww += w * w;
    sw += w;
    s1++;
    rv += v * q;
    rw += w * q;
    r1 += q;
  }
  if (s1 < 5) return undefined;
  const solution = solve3([svv, svw, sv, svw, sww, sw, sv, sw, s1], [rv, rw, r1]);
  if (!solution) return undefined;
  const [a, b, c] = solution;
  const cv = -a / 2, cw = -b / 2, r2 = cv * cv + cw * cw - c;
  if (!(r2 > 0)) return undefined;
  return { cv: cv * depth, cw: cw * depth, r: Math.sqrt(r2) * depth };
}

/** Solves a 3×3 system (row-major) by Cramer's rule; undefined when singular. */
function solve3(m: number[], b: number[]): [number, number, number] | undefined {
  const det = (a: number[]) =>
    a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
    a[2] * (a[3] * a[7] - a[4] * a[6]);
  const d = det(m);
  if (!(Math.abs(d) > 1e-12)) return undefined;
  const column = (j: number) => m.map((x, i) => (i % 3 === j ? b[(i / 3) | 0] : x));
  return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}
