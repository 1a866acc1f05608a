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

/** Shares of the MAC within which a drawn shaft may pass: spindles sit at 15–50 % of it. */
const DRAWN_SHAFT_CHORD: readonly [number, number] = [0.05, 0.7];

/**
 * Where a shaft drawn out of one end of the planform (a rod, a spindle, a pair of bosses, in the
 * panel's mesh or a child) crosses the flow: the mean of the vertices in thin slabs at that end — runs
 * of vertices along the span (`u`) whose chordwise extent (`v`) is under {@link THIN_STATION} of the edge
 * lines' chord there (`chordAt`) — which a rod's or boss's faces surround. Found from the vertices, not
 * the stations: a boss shorter than a station's spacing falls between them. Undefined when neither end
 * or both ends are thin, or when the point, carried along the shaft (`axis`) to the MAC's `station`,
 * lies outside {@link DRAWN_SHAFT_CHORD} of the chord there (`lead`, `trail`: the edge lines' points).
 * Then the shaft's place is a guess. The file's own shaft beats the quarter of the MAC: real spindles
 * sit at 20–45 % of it, placed for hinge moment (spindle habits of all_moving_surfaces.ts).
 *
 * @example
 * ```ts
 * drawnShaft(positions, u, v, chordAt, { lead, trail, station: 0.9, axis, span, spanAt });
 * // the rod's axis point past the root, or undefined
 * ```
 */
export function drawnShaft(
  positions: ArrayLike<number>,
  u: ArrayLike<number>,
  v: (i: number) => number,
  chordAt: (u: number) => number,
  shaft: {
    lead: (u: number) => Vec3;
    trail: (u: number) => Vec3;
    station: number;
    axis: Vec3;
    span: Vec3;
    spanAt: (p: Vec3) => number;
  },
): Vec3 | undefined {
  const order = Array.from({ length: u.length }, (_, i) => i).sort((a, b) => u[a] - u[b] || a - b);
  if (order.length < 8) return undefined;
  const length = u[order[order.length - 1]] - u[order[0]], gap = 0.01 * length;
  // The thin slabs from one end (step +1 from the least u, −1 from the greatest): their vertices.
  const thinFrom = (step: 1 | -1): number[] => {
    const taken: number[] = [];
    let k = step > 0 ? 0 : order.length - 1;
    while (k >= 0 && k < order.length) {
      const slab: number[] = [order[k]];
      while (k + step >= 0 && k + step < order.length && Math.abs(u[order[k + step]] - u[order[k]]) <= gap) {
        k += step, slab.push(order[k]);
      }
      k += step;
      let lo = Infinity, hi = -Infinity;
      for (const i of slab) lo = Math.min(lo, v(i)), hi = Math.max(hi, v(i));
      if (slab.length < 3 || !(hi - lo < THIN_STATION * chordAt(u[slab[0]]))) break;
      taken.push(...slab);
      // A shaft is no more than a third of the whole: past that, the surface itself is thin.
      if (Math.abs(u[slab[0]] - u[order[step > 0 ? 0 : order.length - 1]]) > length / 3) return [];
    }
    return taken;
  };
  const low = thinFrom(1), high = thinFrom(-1);
  const taken = low.length && !high.length ? low : high.length && !low.length ? high : [];
  if (taken.length < 4) return undefined;
  const point: Vec3 = [0, 0, 0];
  for (const i of taken) for (let c = 0; c < 3; c++) point[c] += positions[i * 3 + c] / taken.length;
  // Judged where the MAC is (a swept surface's spindle lies far aft on its root chord).
  const { lead, trail, station, axis, span, spanAt } = shaft;
  const at = alongShaft(point, spanAt(point), station, axis, span);
  const l = lead(station), t = trail(station);
  const chord: Vec3 = [t[0] - l[0], t[1] - l[1], t[2] - l[2]], square = dot(chord, chord);
  const share = square > 0 ? dot([at[0] - l[0], at[1] - l[1], at[2] - l[2]], chord) / square : NaN;
  return share >= DRAWN_SHAFT_CHORD[0] && share <= DRAWN_SHAFT_CHORD[1] ? point : undefined;
}

/**
 * `point` moved along the shaft's `axis` to span position `mid` (`u` is its own, `span` the panel's
 * span direction).
 */
export function alongShaft(point: Vec3, u: number, mid: number, axis: Vec3, span: Vec3): Vec3 {
  const along = dot(axis, span);
  if (!(Math.abs(along) > 0.1)) return point;
  const move = (mid - u) / along;
  return [point[0] + axis[0] * move, point[1] + axis[1] * move, point[2] + axis[2] * move];
}
