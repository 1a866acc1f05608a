/**
 * The ellipse a rounded nose is drawn on, fitted to the front half of a station's section. A nose
 * drawn as an oval about its hinge (a little deeper along the chord than it is thick, as overhang
 * noses often are) has a tip whose circle of curvature is not about the hinge: 0.19 of the nose's
 * half-thickness ahead of it at 1.1 times as deep, 0.53 at 1.3 — and once the surface is modelled
 * deflected, the tip is a point on the oval's flank, where a circle fits as well as on a round nose
 * (within 3 % RMS over ±66°, `nose_centre.ts`) and lands anywhere up to a tenth of the chord off.
 * A conic fitted to the whole drawn half — every point ahead of the centre, square to the section's
 * own chord (from the centre to the trailing edge, so a deflected surface's half is the half it was
 * drawn with) — sees the oval as it is, turned or not: its centre is where the nose is symmetric,
 * the one point about which its reach into the cove changes least as it turns.
 *
 * The fit is algebraic least squares on the conic a·v² + b·v·w + c·w² + d·v + e·w + f = 0 with
 * a + c = 1 (invariant under rotation and translation, so a turned nose fits the same; it excludes
 * only conics with a + c = 0, which no ellipse is), repeated with the half re-taken about each new
 * centre (the first half is about the tip circle's centre, ahead of an oval's, and so lies on it).
 *
 * @module
 */

/** An ellipse fitted to a nose: centre (v, w) relative to the tip, semi-axes, and how well it fits. */
export interface NoseEllipse {
  readonly cv: number;
  readonly cw: number;
  /** Semi-axes, major first. */
  readonly major: number;
  readonly minor: number;
  /** Points of the half fitted. */
  readonly n: number;
  /** RMS and worst distance of those points from the ellipse (first-order), as shares of `minor`. */
  readonly rms: number;
  readonly worst: number;
  /**
   * RMS distance of the same points from their own least-squares circle, as a share of `minor`: a
   * faceted nose is as far from any ellipse as from a circle, an oval's half much further from the
   * circle.
   */
  readonly circleRms: number;
  /** Points of the half more than half the minor semi-axis above and below the section's own chord. */
  readonly above: number;
  readonly below: number;
}

/** Passes of fit and re-taken half. */
const PASSES = 4;
/**
 * The half is taken this share of the minor semi-axis ahead of the centre: a sparse section's skin
 * runs on from the ellipse's top and bottom, and taken into the half it pulls the ellipse longer and
 * its centre aft, which takes more skin the next pass (2–4 % of chord off on 30–38-point sections).
 */
const HALF_MARGIN = 0;
/**
 * Points further than this many tip-circle radii from its centre are no part of the nose: an oval
 * twice as deep as it is thick reaches 2.5 radii of its tip's circle behind it (3 across, turned).
 */
const NEAR = 4;
/** Fewer points than this in the half say nothing of five conic parameters. */
const MIN_POINTS = 10;

/**
 * Fits the ellipse of a nose's front half. `points` are (v, w) pairs relative to the tip (the
 * station's cut points near its nose); (cv, cw) is a first centre (the tip circle's), `scale` its
 * radius, and (tv, tw) the trailing edge relative to the tip. Undefined when the half has too few
 * points or the conic is no ellipse.
 */
export function noseEllipse(
  points: Float64Array,
  cv: number,
  cw: number,
  scale: number,
  tv: number,
  tw: number,
): NoseEllipse | undefined {
  if (!(scale > 0)) return undefined;
  points = nearNose(points, cv, cw, NEAR * scale);
  let centre: Ellipse | undefined;
  let [ev, ew] = [cv, cw], margin = HALF_MARGIN * scale;
  for (let pass = 0; pass < PASSES; pass++) {
    const [dv, dw] = unit(tv - ev, tw - ew);
    if (dv === 0 && dw === 0) return undefined;
    const conic = fitConic(points, ev, ew, dv, dw, margin, scale);
    const ellipse = conic && ellipseOf(conic, scale);
    if (!ellipse) return undefined;
    centre = ellipse;
    // A centre that leaves the section's front (past its trailing edge, or behind the tip by more
    // than the nose could be deep) is a flat run of skin taken for a huge ellipse: no nose.
    if (!(Math.hypot(ellipse.cv, ellipse.cw) < Math.hypot(tv, tw))) return undefined;
    [ev, ew] = [ellipse.cv, ellipse.cw];
    margin = HALF_MARGIN * ellipse.minor;
  }
  if (!centre) return undefined;
  // How the final half lies on it.
  const [dv, dw] = unit(tv - ev, tw - ew);
  let n = 0, sum = 0, worst = 0, above = 0, below = 0;
  for (let i = 0; i < points.length; i += 2) {
    const pv = points[i] - ev, pw = points[i + 1] - ew;
    if (pv * dv + pw * dw > -margin) continue;
    const d = centre.distance(points[i], points[i + 1]);
    n++;
    sum += d * d;
    worst = Math.max(worst, Math.abs(d));
    const across = pw * dv - pv * dw;
    if (across > 0.5 * centre.minor) above++;
    else if (across < -0.5 * centre.minor) below++;
  }
  if (n < MIN_POINTS) return undefined;
  const circle = halfCircleRms(points, ev, ew, dv, dw, margin, centre.minor);
  return {
    circleRms: circle / centre.minor,
    cv: ev,
    cw: ew,
    major: centre.major,
    minor: centre.minor,
    n,
    rms: Math.sqrt(sum / n) / centre.minor,
    worst: worst / centre.minor,
    above,
    below,
  };
}

/**
 * RMS distance of the half's points (ahead of (ev, ew) along (dv, dw)) from their algebraic
 * least-squares circle (v² + w² + d·v + e·w + f = 0), coordinates scaled by 1/scale; Infinity when
 * it cannot be fitted.
 */
function halfCircleRms(
  points: Float64Array,
  ev: number,
  ew: number,
  dv: number,
  dw: number,
  margin: number,
  scale: number,
): number {
  const m = new Float64Array(9), r = new Float64Array(3);
  const half: number[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const pv = points[i] - ev, pw = points[i + 1] - ew;
    if (pv * dv + pw * dw > -margin) continue;
    const v = pv / scale, w = pw / scale, q = -(v * v + w * w);
    const row = [v, w, 1];
    for (let j = 0; j < 3; j++) {
      r[j] += row[j] * q;
      for (let k = 0; k < 3; k++) m[j * 3 + k] += row[j] * row[k];
    }
    half.push(v, w);
  }
  const x = solve(m, r, 3);
  if (!x) return Infinity;
  const cv = -x[0] / 2, cw = -x[1] / 2, r2 = cv * cv + cw * cw - x[2];
  if (!(r2 > 0)) return Infinity;
  const radius = Math.sqrt(r2);
  let sum = 0;
  for (let i = 0; i < half.length; i += 2) sum += (Math.hypot(half[i] - cv, half[i + 1] - cw) - radius) ** 2;
  return Math.sqrt(sum / (half.length / 2)) * scale;
}

/**
 * The points within `reach` of (cv, cw), packed: the station's cut points run a third of the chord
 * aft, most of them skin behind the nose, and each pass would read them all.
 */
function nearNose(points: Float64Array, cv: number, cw: number, reach: number): Float64Array {
  let n = 0;
  const r2 = reach * reach;
  for (let i = 0; i < points.length; i += 2) {
    if ((points[i] - cv) ** 2 + (points[i + 1] - cw) ** 2 <= r2) n += 2;
  }
  if (n === points.length) return points;
  const out = new Float64Array(n);
  for (let i = 0, j = 0; i < points.length; i += 2) {
    if ((points[i] - cv) ** 2 + (points[i + 1] - cw) ** 2 <= r2) {
      out[j++] = points[i];
      out[j++] = points[i + 1];
    }
  }
  return out;
}

function unit(v: number, w: number): [number, number] {
  const l = Math.hypot(v, w);
  return l > 0 ? [v / l, w / l] : [0, 0];
}

/** A conic a·v² + b·v·w + c·w² + d·v + e·w + f = 0 in coordinates scaled by 1/scale. */
type Conic = readonly [number, number, number, number, number, number];

/**
 * The least-squares conic (a + c = 1) through the points ahead of (ev, ew) along (dv, dw), in
 * coordinates relative to (ev, ew) scaled by 1/scale (so the normal equations stay well
 * conditioned); undefined with too few points or a singular system.
 */
function fitConic(
  points: Float64Array,
  ev: number,
  ew: number,
  dv: number,
  dw: number,
  margin: number,
  scale: number,
): { conic: Conic; ev: number; ew: number } | undefined {
  // Unknowns x = (a, b, d, e, f); c = 1 − a: a·(v² − w²) + b·v·w + d·v + e·w + f = −w². The
  // normal equations' sums, written out (this runs for every rounded station of every panel).
  let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s04 = 0, s11 = 0, s12 = 0, s13 = 0, s14 = 0;
  let s22 = 0, s23 = 0, s24 = 0, s33 = 0, s34 = 0, s44 = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
  for (let i = 0; i < points.length; i += 2) {
    const pv = points[i] - ev, pw = points[i + 1] - ew;
    if (pv * dv + pw * dw > -margin) continue;
    const v = pv / scale, w = pw / scale;
    const a = v * v - w * w, b = v * w, q = -w * w;
    s00 += a * a;
    s01 += a * b;
    s02 += a * v;
    s03 += a * w;
    s04 += a;
    s11 += b * b;
    s12 += b * v;
    s13 += b * w;
    s14 += b;
    s22 += v * v;
    s23 += v * w;
    s24 += v;
    s33 += w * w;
    s34 += w;
    s44++;
    r0 += a * q;
    r1 += b * q;
    r2 += v * q;
    r3 += w * q;
    r4 += q;
  }
  if (s44 < MIN_POINTS) return undefined;
  const m = Float64Array.of(
    s00,
    s01,
    s02,
    s03,
    s04,
    s01,
    s11,
    s12,
    s13,
    s14,
    s02,
    s12,
    s22,
    s23,
    s24,
    s03,
    s13,
    s23,
    s33,
    s34,
    s04,
    s14,
    s24,
    s34,
    s44,
  );
  const r = Float64Array.of(r0, r1, r2, r3, r4);
  const x = solve(m, r, 5);
  if (!x) return undefined;
  return { conic: [x[0], x[1], 1 - x[0], x[2], x[3], x[4]], ev, ew };
}

interface Ellipse {
  /** Centre relative to the tip (unscaled). */
  readonly cv: number;
  readonly cw: number;
  readonly major: number;
  readonly minor: number;
  /** First-order distance of a point (relative to the tip, unscaled) from the ellipse. */
  distance(v: number, w: number): number;
}

/** The ellipse of a fitted conic, unscaled and relative to the tip; undefined when it is none. */
function ellipseOf(
  { conic, ev, ew }: { conic: Conic; ev: number; ew: number },
  scale: number,
): Ellipse | undefined {
  const [a, b, c, d, e, f] = conic;
  // Centre: the gradient's zero, [2a b; b 2c]·(x, y) = −(d, e).
  const det = 4 * a * c - b * b;
  if (!(det > 0)) return undefined; // a parabola or hyperbola
  const x0 = (b * e - 2 * c * d) / det, y0 = (b * d - 2 * a * e) / det;
  // The conic about its centre: λ1·x'² + λ2·y'² + g = 0.
  const g = f + (d * x0 + e * y0) / 2;
  const mean = (a + c) / 2, half = Math.hypot((a - c) / 2, b / 2);
  const l1 = mean + half, l2 = mean - half;
  if (!(l2 > 0) || !(g < 0)) return undefined;
  const major = Math.sqrt(-g / l2) * scale, minor = Math.sqrt(-g / l1) * scale;
  if (!Number.isFinite(major) || !(minor > 0)) return undefined;
  return {
    cv: ev + x0 * scale,
    cw: ew + y0 * scale,
    major,
    minor,
    distance: (pv: number, pw: number) => {
      const v = (pv - ev) / scale, w = (pw - ew) / scale;
      const value = a * v * v + b * v * w + c * w * w + d * v + e * w + f;
      const gv = 2 * a * v + b * w + d, gw = b * v + 2 * c * w + e;
      const gradient = Math.hypot(gv, gw);
      return gradient > 0 ? (value / gradient) * scale : Infinity;
    },
  };
}

/** Solves an n×n system (row-major, overwritten) by Gaussian elimination with partial pivoting. */
function solve(m: Float64Array, r: Float64Array, n: number): Float64Array | undefined {
  const b = r.slice();
  let largest = 0;
  for (let i = 0; i < n * n; i++) largest = Math.max(largest, Math.abs(m[i]));
  if (!(largest > 0)) return undefined;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let i = col + 1; i < n; i++) if (Math.abs(m[i * n + col]) > Math.abs(m[pivot * n + col])) pivot = i;
    if (!(Math.abs(m[pivot * n + col]) > 1e-12 * largest)) return undefined;
    if (pivot !== col) {
      for (let k = 0; k < n; k++) [m[col * n + k], m[pivot * n + k]] = [m[pivot * n + k], m[col * n + k]];
      [b[col], b[pivot]] = [b[pivot], b[col]];
    }
    for (let i = col + 1; i < n; i++) {
      const factor = m[i * n + col] / m[col * n + col];
      if (factor === 0) continue;
      for (let k = col; k < n; k++) m[i * n + k] -= factor * m[col * n + k];
      b[i] -= factor * b[col];
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= m[i * n + k] * x[k];
    x[i] = s / m[i * n + i];
  }
  return x;
}
