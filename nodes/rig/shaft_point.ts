/**
 * Where an all-moving surface's shaft crosses the flow: through its aerodynamic centre, a quarter of
 * the mean aerodynamic chord (MAC) on the MAC's station, where designers put a stabilator's or
 * canard's spindle so its hinge moment is least. The planform's root and tip are the span's ends,
 * but where the end stations are a rod's (a shaft drawn out of the root), which does not stretch it.
 *
 * @module
 */
import { dot, type Vec3 } from "./transform.ts";

/** A station whose own chord is under this share of the edge lines' is a rod's or shaft's, not the planform's. */
export const THIN_STATION = 0.5;

/**
 * The span positions of a planform's root and tip: the panel's span ends (its vertices' least and
 * greatest `u`), except where its end stations are thin — their own chord (forward to aft edge point,
 * `lead`/`trail`, aircraft coordinates) under {@link THIN_STATION} of the edge lines' `chordAt(u)`
 * there: a shaft or rod drawn out of the root. Then the end is the nearest vertex past the thin
 * stations (the root section's; the rod's far end lies beyond them). The span ends stretched the
 * planform by the rod (all_moving_surfaces.ts seeds 100 and 118: 16–24 % of the MAC off). Vertices
 * on the edge lines were no test: a surface modelled turned 25° about its shaft has its root's off
 * them (posed aircraft #18).
 */
export function planformEnds(
  stations: { lead: Float64Array; trail: Float64Array; filled: number },
  u: ArrayLike<number>,
  spanAt: (p: Vec3) => number,
  chordAt: (u: number) => number,
): [number, number] {
  const { lead, trail, filled } = stations;
  let uMin = Infinity, uMax = -Infinity;
  for (let i = 0; i < u.length; i++) uMin = Math.min(uMin, u[i]), uMax = Math.max(uMax, u[i]);
  const thin: number[] = [], full: number[] = [];
  for (let k = 0; k < filled; k++) {
    const o = k * 3, l: Vec3 = [lead[o], lead[o + 1], lead[o + 2]], at = spanAt(l);
    const own = Math.hypot(trail[o] - l[0], trail[o + 1] - l[1], trail[o + 2] - l[2]);
    (own >= THIN_STATION * chordAt(at) ? full : thin).push(at);
  }
  if (full.length < 2) return [uMin, uMax];
  const first = Math.min(...full), last = Math.max(...full);
  const below = thin.filter((t) => t < first), above = thin.filter((t) => t > last);
  let lo = uMin, hi = uMax;
  if (below.length) {
    const from = Math.max(...below);
    lo = Infinity;
    for (let i = 0; i < u.length; i++) if (u[i] > from) lo = Math.min(lo, u[i]);
  }
  if (above.length) {
    const to = Math.min(...above);
    hi = -Infinity;
    for (let i = 0; i < u.length; i++) if (u[i] < to) hi = Math.max(hi, u[i]);
  }
  return hi > lo ? [lo, hi] : [uMin, uMax];
}

/**
 * The station of a trapezoid's mean aerodynamic chord between its `ends`: the spanwise centroid of
 * its area, (c₀ + 2c₁) / 3(c₀ + c₁) of the way from the root (chord c₀) to the tip (c₁).
 */
export function macStation(ends: readonly [number, number], chordAt: (u: number) => number): number {
  const [a, b] = ends, c0 = chordAt(a), c1 = chordAt(b);
  return c0 + c1 > 0 ? a + (b - a) * (c0 + 2 * c1) / (3 * (c0 + c1)) : (a + b) / 2;
}

/**
 * The point at mid-span (`mid`) of a shaft along `axis` through the quarter point of the mean
 * aerodynamic chord: at its `station` (the planform's spanwise area centroid) a trapezoid's chord is
 * the MAC, so its quarter point is `quarter(station)`. A rectangular planform's is its mid-span
 * quarter point.
 *
 * @example
 * ```ts
 * shaftPoint(quarter, 0.8, 1, [0, 0, 1], [0, 0, 1]); // quarter(0.8) moved along the shaft to u = 1
 * ```
 */
export function shaftPoint(
  quarter: (u: number) => Vec3,
  station: number,
  mid: number,
  axis: Vec3,
  span: Vec3,
): Vec3 {
  const along = dot(axis, span);
  if (!Number.isFinite(station) || !(Math.abs(along) > 0.1)) return quarter(mid);
  const q = quarter(station), move = (mid - station) / along;
  return [q[0] + axis[0] * move, q[1] + axis[1] * move, q[2] + axis[2] * move];
}
