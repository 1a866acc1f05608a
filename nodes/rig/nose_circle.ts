/**
 * Circles fitted to a section's nose tip, and how the tip's arc sits on them (`nose_centre.ts`
 * decides what the circle means).
 *
 * @module
 */

/** Circles smaller than this share of the chord change nothing worth the risk. */
const MIN_RADIUS = 0.01;
/** A nose deeper than this share of the chord is the surface's whole front, not a nose. */
export const MAX_RADIUS = 0.35;
/** The fitted arc's reach behind the tip, as a share of the radius (a ±66° arc). */
export const ARC_DEPTH = 0.6;
/** A rounded nose that is no clear circle: worst distance from its tip's circle (share of radius). */
export const ROUGH_WORST = 0.25;

/** The circle fitted to the tip's arc (three passes, each to the last one's radius), if its size fits. */
export function tipCircle(points: Float64Array, chord: number): Circle | undefined {
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
  if (!circle || !(circle.r >= MIN_RADIUS * chord && circle.r <= MAX_RADIUS * chord)) return undefined;
  return circle;
}

/**
 * How the arc's points (within its depth behind the tip) sit on a circle. Once a point lies further
 * from it than either test allows (a quarter of the radius), the rest are not looked at: `worst`
 * then already fails both, whatever `rms` and the counts would have been.
 */
export function arcFit(points: Float64Array, { cv, cw, r }: Circle): ArcFit {
  let n = 0, sum = 0, worst = 0, above = 0, below = 0;
  const depth = ARC_DEPTH * r, hopeless = ROUGH_WORST * r;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] > depth) continue;
    const d = Math.hypot(points[i] - cv, points[i + 1] - cw) - r;
    n++;
    sum += d * d;
    worst = Math.max(worst, Math.abs(d));
    if (points[i + 1] - cw > 0.5 * r) above++;
    if (points[i + 1] - cw < -0.5 * r) below++;
    if (worst > hopeless) break;
  }
  return { n, rms: n ? Math.sqrt(sum / n) : 0, worst, above, below };
}

/** {@link arcFit}'s answer: the points within the arc, their RMS and worst distance, those above and below. */
export interface ArcFit {
  readonly n: number;
  readonly rms: number;
  readonly worst: number;
  readonly above: number;
  readonly below: number;
}

/** A circle in a station's (v, w) plane: centre and radius. */
export interface Circle {
  cv: number;
  cw: number;
  r: number;
}

/**
 * Least-squares circle (algebraic: v² + w² + a·v + b·w + c = 0) through the points no deeper than
 * `depth` behind the tip, scaled by `depth` so the normal equations stay well conditioned.
 */
function fitCircle(points: Float64Array, depth: number): Circle | undefined {
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
