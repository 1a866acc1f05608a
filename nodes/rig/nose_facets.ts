/**
 * Noses drawn with a few flat facets in place of a round one — too few cut points for the nose
 * circle fit (`nose_centre.ts`, which wants ten). The nose's corners are the turning points of the
 * section's outline from its tip until the skin runs aft; they are read off the convex hull of the
 * station's points near the tip (collinear skin points drop out of a hull).
 * - Four to six corners on one circle (three facets on the nose circle, a box nose with chamfers —
 *   its chamfer ends are concyclic about the round nose's centre): a faceted round nose, turning
 *   about the circle's centre.
 * - Three corners (a wedge: its point and where each facet meets the skin): a circle passes through
 *   any three points, so the mesh alone cannot tell a model aircraft's V-bevel hinged at its point
 *   from a two-facet stand-in for a round nose in a cove, hinged at the circle's centre. The caller
 *   keeps the point and says so where the two readings lie apart.
 *
 * @module
 */

/** A faceted nose's circle (relative to the tip, as the station's points are) and its kind. */
export interface FacetNose {
  readonly kind: "facets" | "wedge";
  readonly cv: number;
  readonly cw: number;
  readonly r: number;
}

/** An edge within this angle of the chord runs aft: the skin, where the nose ends. */
const AFT_COS = Math.cos((15 * Math.PI) / 180);
/** Corners further from their circle than this share of its radius are no circle's. */
const ON_CIRCLE = 0.03;
/** How much deeper than half as thick a faceted round nose may be (an oval is 1.1 times or more). */
const DEPTH_TO_THICKNESS = 1.05;
/** A chamfered box's section is at most this share of its corners' circle wide where it turns. */
const BOX_WIDTH = 0.95;
/** How far (share of the radius) a faceted nose's top and bottom corner may lie from over its centre. */
const SQUARE = 0.02;
/** Circles outside these shares of the chord are no nose's (as `nose_centre.ts`'s). */
const MIN_RADIUS = 0.01, MAX_RADIUS = 0.35;

/**
 * The faceted nose of a station whose points (v, w pairs relative to its tip, v aft) are few, or
 * undefined when its corners are not a nose's: fewer than three, more than six, or off one circle.
 */
export function facetNose(points: Float64Array, chord: number): FacetNose | undefined {
  if (!(chord > 0) || points.length < 6 || points.length > 400) return undefined;
  const hull = convexHull(points, 1e-6 * chord);
  if (hull.length < 3) return undefined;
  // The forward-most hull vertex (nearest the chord line among equals) starts both walks.
  let start = 0;
  for (let i = 1; i < hull.length; i++) {
    const [v, w] = hull[i], [sv, sw] = hull[start];
    if (v < sv - 1e-9 * chord || (Math.abs(v - sv) <= 1e-9 * chord && Math.abs(w) < Math.abs(sw))) start = i;
  }
  const corners = new Set<number>([start]);
  for (const step of [1, -1]) {
    let at = start;
    for (let n = 0; n < hull.length; n++) {
      const next = (at + step + hull.length) % hull.length;
      const dv = hull[next][0] - hull[at][0], dw = hull[next][1] - hull[at][1];
      // The edge runs aft: `at` is where the skin begins, the nose's last corner this side.
      if (dv >= AFT_COS * Math.hypot(dv, dw) || next === start) break;
      corners.add(next);
      at = next;
      if (corners.size > 10) return undefined;
    }
  }
  if (corners.size < 3) return undefined;
  const list = [...corners].map((i) => hull[i]);
  // The circle through the top-most and bottom-most corners and a third that holds every corner
  // (a station cut between a facet's vertices adds points on the facet, inside its circle); of
  // those, the one through most corners.
  const top = list.reduce((a, b) => (b[1] > a[1] ? b : a));
  const bottom = list.reduce((a, b) => (b[1] < a[1] ? b : a));
  let best: { cv: number; cw: number; r: number; on: number } | undefined;
  for (const third of list) {
    if (third === top || third === bottom) continue;
    const circle = circumcircle(third, top, bottom);
    if (!circle) continue;
    const { cv, cw, r } = circle;
    let on = 0, outside = false;
    for (const [v, w] of list) {
      const d = Math.hypot(v - cv, w - cw) - r;
      if (d > ON_CIRCLE * r) outside = true;
      if (Math.abs(d) <= ON_CIRCLE * r) on++;
    }
    if (!outside && (!best || on > best.on || (on === best.on && r < best.r))) best = { ...circle, on };
  }
  if (!best) return undefined;
  const { cv, cw, r } = best;
  if (!(r >= MIN_RADIUS * chord && r <= MAX_RADIUS * chord) || !(cv > 0)) return undefined;
  if (top[1] - cw < 0.5 * r || cw - bottom[1] < 0.5 * r) return undefined;
  // The section's tip on the circle (within a few facets' sag): the nose is the circle's front.
  const [sv, sw] = hull[start];
  if (Math.hypot(sv - cv, sw - cw) < (1 - 5 * ON_CIRCLE) * r) return undefined;
  // No deeper than it is thick where it turns: a round nose's stand-in (corners on a circle, or a
  // box chamfered about one) — an oval nose drawn with few facets is deeper (its symmetric corners
  // are concyclic too, about no point it turns on).
  if (cv - sv > DEPTH_TO_THICKNESS * (top[1] - bottom[1]) / 2) return undefined;
  // Four corners or more on a circle: a faceted round nose meets its skins at the circle's top and
  // bottom, square above and below its centre; a chamfered box is narrower where it turns than its
  // circle (its chamfer ends lie wide of its skins, which run flat from them; its front is flat). A low-poly oval reaching further forward has
  // concyclic corners too (any symmetric four are), its skins still rising past them: neither.
  const square = Math.abs(top[0] - cv) <= SQUARE * r && Math.abs(bottom[0] - cv) <= SQUARE * r;
  const half = halfThickness(hull, cv), fronts = list.filter(([v]) => v - sv <= ON_CIRCLE * r).length;
  const box = half <= BOX_WIDTH * r && fronts >= 2 && Math.abs(top[1] - cw - half) <= ON_CIRCLE * r &&
    Math.abs(cw - bottom[1] - half) <= ON_CIRCLE * r;
  if (best.on >= 4 && !square && !box) return undefined;
  return { kind: best.on === 3 ? "wedge" : "facets", cv, cw, r };
}

/** The convex hull (counter-clockwise, collinear points left out) of (v, w) pairs, distinct within `same`. */
function convexHull(points: Float64Array, same: number): [number, number][] {
  const pts: [number, number][] = [];
  for (let i = 0; i + 1 < points.length; i += 2) pts.push([points[i], points[i + 1]]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const distinct = pts.filter((p, i) =>
    i === 0 || Math.abs(p[0] - pts[i - 1][0]) > same || Math.abs(p[1] - pts[i - 1][1]) > same
  );
  if (distinct.length < 3) return distinct;
  // Monotone chain; a turn smaller than `same` times the edges is collinear (the flat skin's points).
  const cross = (o: number[], a: number[], b: number[]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: [number, number][]) => {
    const out: [number, number][] = [];
    for (const p of list) {
      while (out.length >= 2) {
        const o = out[out.length - 2], a = out[out.length - 1];
        const scale = Math.hypot(a[0] - o[0], a[1] - o[1]) * Math.hypot(p[0] - a[0], p[1] - a[1]);
        if (cross(o, a, p) > 1e-3 * scale) break;
        out.pop();
      }
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...half(distinct), ...half([...distinct].reverse())];
}

/** Half the hull's thickness at chord position `v` (0 when it does not reach there). */
function halfThickness(hull: [number, number][], v: number): number {
  let up = -Infinity, lo = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i], b = hull[(i + 1) % hull.length];
    if ((a[0] - v) * (b[0] - v) > 0 || a[0] === b[0]) continue;
    const w = a[1] + ((v - a[0]) / (b[0] - a[0])) * (b[1] - a[1]);
    up = Math.max(up, w), lo = Math.min(lo, w);
  }
  return up > lo ? (up - lo) / 2 : 0;
}

/** The circle through three points, undefined when they are (nearly) on one line. */
function circumcircle(
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
): { cv: number; cw: number; r: number } | undefined {
  const bx = b[0] - a[0], by = b[1] - a[1], cx = c[0] - a[0], cy = c[1] - a[1];
  const d = 2 * (bx * cy - by * cx);
  if (!(Math.abs(d) > 1e-12 * (bx * bx + by * by + cx * cx + cy * cy))) return undefined;
  const b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  const ux = (cy * b2 - by * c2) / d, uy = (bx * c2 - cx * b2) / d;
  return { cv: a[0] + ux, cw: a[1] + uy, r: Math.hypot(ux, uy) };
}
