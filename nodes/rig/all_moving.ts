/**
 * All-moving surfaces found by geometry: an elevator, elevon or rudder with no fixed surface ahead
 * of it — no stabiliser or fin ending at its leading edge, a hinge gap ahead in its plane, over most
 * of its span — is the whole surface (a stabilator, an all-moving fin), and pivots on a spanwise shaft
 * near quarter chord rather than along its (swept) leading edge. A jet's wing close ahead of its
 * stabilators, or a fin or strake beside them, carries no hinge there.
 *
 * @module
 */
import type { HingeFit } from "./hinge_fit.ts";
import { cross, dot, normalize, type Vec3 } from "./transform.ts";
import { theilSen } from "./theil_sen.ts";

/** Kinds whose name says "trailing-edge surface" but which may be the whole surface. */
export const MAYBE_ALL_MOVING: ReadonlySet<string> = new Set(["elevator", "elevon", "rudder"]);

/** Share of the span a fixed surface ahead must cover for the panel to be a trailing-edge surface. */
export const AHEAD_COVERAGE = 0.5;
/**
 * How far ahead of the leading edge and off the plane through the hinge (chords) a fixed surface's
 * geometry must lie to carry the panel: a stabiliser's or fin's trailing edge (its cove) meets the
 * surface hinged on it, a hinge gap away at its hinge height. A jet's wing close ahead of its
 * stabilators is no mount: a gap of a fifth of their chord or more behind its trailing edge, or
 * above or below their plane (tailerons), or its unswept trailing edge drawing away from their swept
 * leading edge. Before, a window 1.5 chords ahead and 0.3 chord off the plane took such a wing for a
 * stabiliser (jet layouts, seed 11: 28 of 60 stabilators fitted on their leading edge, 23–83° off).
 */
const AHEAD_REACH = 0.3, PLANE_BAND = 0.15, OVERLAP = 0.1;
const SLOTS = 24;

/** Foreign geometry in aircraft coordinates. */
export interface Geometry {
  readonly positions: Float64Array;
  readonly triangles: Uint32Array;
}

/** Samples per side of a triangle reaching out of the window ahead (bounds the work on huge ones). */
const MAX_STEPS = 48;

/**
 * True when the triangle can reach into the window ahead: its corners are not all on the outer side
 * of one of the window's bounds (chord reach, overlap, either side of the plane band).
 */
function straddles(a: Vec3, b: Vec3, c: Vec3, chord: number): boolean {
  const all = (f: (q: Vec3) => boolean) => f(a) && f(b) && f(c);
  return !(all((q) => q[1] < -AHEAD_REACH * chord) || all((q) => q[1] > OVERLAP * chord) ||
    all((q) => q[2] > PLANE_BAND * chord) || all((q) => q[2] < -PLANE_BAND * chord));
}

/**
 * The box around a panel's centre that holds everything that can be ahead of it: anything further
 * is rejected before any projection (most of a large model).
 */
export function aheadBox(fit: HingeFit, ahead = AHEAD_REACH): { centre: Vec3; reach: number } {
  return { centre: fit.centre, reach: fit.spanLength + (ahead + 1) * fit.chord };
}

/**
 * Maps a point of the scene into the panel's frame ahead: [along its span from mid-span, along the
 * flow from its hinge line (negative ahead), off the plane a fixed surface ahead lies in].
 */
function aheadFrame(fit: HingeFit): (p: ArrayLike<number>, i: number) => Vec3 {
  const { origin, axis, span, chordDir } = fit;
  // The plane a fixed surface ahead lies in: through the hinge, along the flow. A surface modelled
  // deflected about a swept hinge has its own plane (and the span read from it) tilted off that one.
  const normal = aheadNormal(fit);
  // The hinge line's chord position moves by `slope` per unit of span.
  const along = dot(axis, span);
  const slope = Math.abs(along) > 1e-9 ? dot(axis, chordDir) / along : 0;
  return (p, i) => {
    const d: Vec3 = [p[i * 3] - origin[0], p[i * 3 + 1] - origin[1], p[i * 3 + 2] - origin[2]];
    const u = dot(d, span);
    return [u, dot(d, chordDir) - slope * u, dot(d, normal)];
  };
}

/**
 * Calls `visit` with each triangle of `others` that may lie within `reach` chords ahead of the panel
 * and within `beyond` past either end of its span: its corners in the panel's frame ahead
 * ({@link aheadFrame}) and their spanwise extent `lo`…`hi`. Triangles far from the panel are skipped
 * before any projection (most of a large model).
 */
function trianglesAhead(
  fit: HingeFit,
  others: Iterable<Geometry>,
  reachChords: number,
  beyond: number,
  visit: (a: Vec3, b: Vec3, c: Vec3, lo: number, hi: number) => void,
): void {
  const local = aheadFrame(fit);
  const { reach } = aheadBox(fit, reachChords);
  const [cx, cy, cz] = fit.centre, half = fit.spanLength / 2 + beyond;
  const outside = (p: Float64Array, o: number) =>
    Math.abs(p[o] - cx) > reach || Math.abs(p[o + 1] - cy) > reach || Math.abs(p[o + 2] - cz) > reach;
  for (const { positions, triangles } of others) {
    for (let t = 0; t < triangles.length; t += 3) {
      const [ia, ib, ic] = [triangles[t], triangles[t + 1], triangles[t + 2]];
      if (outside(positions, ia * 3) && outside(positions, ib * 3) && outside(positions, ic * 3)) continue;
      const a = local(positions, ia), b = local(positions, ib), c = local(positions, ic);
      const lo = Math.min(a[0], b[0], c[0]), hi = Math.max(a[0], b[0], c[0]);
      if (hi >= -half && lo <= half) visit(a, b, c, lo, hi);
    }
  }
}

/**
 * Samples per side for a triangle spanning `lo`…`hi` of a panel `spanLength` long: fine enough to land
 * in each span slot it crosses and in the steps `depthSteps` asks for its depth along the flow, at most
 * {@link MAX_STEPS}.
 */
function sampleSteps(
  a: Vec3,
  b: Vec3,
  c: Vec3,
  lo: number,
  hi: number,
  spanLength: number,
  depthSteps: (deep: number) => number,
): number {
  const deep = Math.max(a[1], b[1], c[1]) - Math.min(a[1], b[1], c[1]);
  return Math.min(MAX_STEPS, Math.max(4, Math.ceil((2 * (hi - lo) * SLOTS) / spanLength), depthSteps(deep)));
}

/**
 * Calls `visit` with points across triangle a b c on a grid of `steps` per side (corners included).
 * The point passed is one array refilled for each (thousands a triangle): `visit` reads it, keeps none.
 */
function samplePoints(a: Vec3, b: Vec3, c: Vec3, steps: number, visit: (q: Vec3) => void): void {
  const q: Vec3 = [0, 0, 0];
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; i + j <= steps; j++) {
      const wa = i / steps, wb = j / steps, wc = 1 - wa - wb;
      q[0] = wa * a[0] + wb * b[0] + wc * c[0];
      q[1] = wa * a[1] + wb * b[1] + wc * c[1];
      q[2] = wa * a[2] + wb * b[2] + wc * c[2];
      visit(q);
    }
  }
}

/**
 * The share of the panel's span (0–1) over which other geometry's triangles lie just ahead of its
 * fitted forward edge — within a hinge gap, at its height: a fixed stabiliser or fin it hangs on.
 */
export function fixedSurfaceAhead(fit: HingeFit, others: Iterable<Geometry>): number {
  const { chord, spanLength } = fit;
  const covered = new Uint8Array(SLOTS);
  const half = spanLength / 2;
  const ahead = (q: Vec3) =>
    q[1] >= -AHEAD_REACH * chord && q[1] <= OVERLAP * chord && Math.abs(q[2]) <= PLANE_BAND * chord;
  const slot = (u: number) => Math.floor(((u + half) / spanLength) * SLOTS);
  trianglesAhead(fit, others, AHEAD_REACH, 0, (a, b, c, lo, hi) => {
    if (ahead(a) && ahead(b) && ahead(c)) {
      for (let k = Math.max(0, slot(lo)); k <= Math.min(SLOTS - 1, slot(hi)); k++) covered[k] = 1;
      return;
    }
    // A triangle reaching out of the window — a wing drawn in long spanwise strips, its far
    // corners off this panel's plane by the wing's taper and dihedral — covers where it is inside.
    if (!straddles(a, b, c, chord)) return;
    // Fine enough to land in each slot it crosses and in the window's depth along the flow.
    samplePoints(
      a,
      b,
      c,
      sampleSteps(a, b, c, lo, hi, spanLength, (deep) => Math.ceil(2 * deep / (AHEAD_REACH * chord))),
      (q) => {
        const k = slot(q[0]);
        if (k >= 0 && k < SLOTS && ahead(q)) covered[k] = 1;
      },
    );
  });
  return covered.reduce((sum, c) => sum + c, 0) / SLOTS;
}

/**
 * The normal of the plane a fixed surface ahead of `fit` lies in: the plane through its hinge along
 * the flow (aft), the plane the surface had at rest. Modelled deflected about a hinge swept by Λ, a
 * surface's own plane rolls by atan(sin Λ · tan δ) about the flow (10.5° at Λ 44°, δ 15°), and a
 * narrow elevator's stabiliser left the band ahead of it outboard: all-moving, 43° off, judged good.
 * The fit's normal where the hinge runs along the flow (no such plane).
 */
function aheadNormal(fit: HingeFit): Vec3 {
  const n = cross(fit.axis, [1, 0, 0]);
  return Math.hypot(...n) > 0.1 ? normalize(n) : fit.normal;
}

/**
 * Kinds whose planform alone may say "the whole surface" when nothing near shows a fixed surface
 * ahead: an elevator drawn as a whole tail (game models name an F-16's stabilators `Elevator_L`). A
 * rudder's hinge and trailing edge converge as much as a whole fin's, so a rudder's planform tells
 * nothing.
 */
export const PLANFORM_TELLS: ReadonlySet<string> = new Set(["elevator"]);

/**
 * Leading and trailing edges converging by this much (degrees) make a whole tailplane: its leading
 * edge swept back over a less swept trailing edge (tapered 0.3–0.6, swept 20–45°: 10–40°). A
 * trailing-edge elevator's hinge and trailing edge run within a few degrees of each other (a 737's
 * about 6°, a Cessna's 0°).
 */
export const WHOLE_TAPER_DEGREES = 8;

/**
 * Why a surface's own planform is a whole tailplane's, or undefined: its forward-edge and aft-edge
 * lines (`lead`, `trail`: the same panel fitted on either edge) converge by
 * {@link WHOLE_TAPER_DEGREES} or more.
 *
 * @example
 * ```ts
 * wholePlanform(fitted.fit, fitted.refit("aft")); // "its leading and trailing edges converge by 31°, as a whole tailplane's do"
 * ```
 */
export function wholePlanform(lead: HingeFit, trail: HingeFit): string | undefined {
  const degrees = (Math.acos(Math.min(1, Math.abs(dot(lead.axis, trail.axis)))) * 180) / Math.PI;
  if (!(degrees >= WHOLE_TAPER_DEGREES)) return undefined;
  return `its leading and trailing edges converge by ${degrees.toFixed(0)}°, as a whole tailplane's do ` +
    "(a trailing-edge elevator's hinge and trailing edge run nearly parallel)";
}

/**
 * How far ahead (chords) an exploded or showcase view may pull a trailing-edge surface off its fixed
 * stabiliser or fin and still be read as hinged on it: exploded models move an elevator 0.2–0.5 m
 * back, one to two chords of a strip.
 */
export const EXPLODED_REACH = 4;
/** Most a stabiliser's trailing edge and the strip's leading edge may diverge (degrees), and bend. */
const PARALLEL_DEGREES = 5, STRAIGHT = 0.1;
/** Slots looked at past either end of the panel: half its span. */
const PAST = SLOTS / 2;
/** Share of the slots past an end on the edge's line that makes the edge a wing's running on. */
const WING_RUNS_ON = 0.75;
/**
 * How far off the plane (rise over run) the band ahead widens with the distance ahead: a little, for
 * a plane read a degree or so off. Exploded views pull a surface straight back; a wider cone (0.18,
 * 0.47) took a jet's wing 2.2 chords ahead of a near-rectangular stabilator, 0.3–0.5 chord off its
 * plane, for its stabiliser (posed aircraft #5: right and good before, a leading-edge hinge after).
 */
const PULL_SLOPE = 0.05;

/**
 * The distance (chords, past a hinge gap) to a fixed stabiliser or fin the panel was pulled off, or
 * undefined: fixed geometry ahead over {@link AHEAD_COVERAGE} of its span or more, whose nearest edge
 * (its trailing edge) runs straight and parallel to the panel's fitted forward edge, within
 * {@link EXPLODED_REACH} chords. Such a panel is an elevator or rudder hinged at its own leading edge,
 * not an all-moving surface (exploded views: 2–30° off, judged good). A jet's wing ahead of its
 * stabilators has an edge drawing away from theirs (unswept over swept), or running on past their tip.
 *
 * Looked for first in the panel's plane (pulled straight back), then off it: showcase views pull a
 * strip up or down off its stabiliser, or sideways off its fin, and outward along the span as well
 * (floating tails, seed 41: 8 of 16 such strips all-moving, 8–29° off, judged good). Off the plane the
 * edge must also keep one height along the span (parallel in both directions, not only seen so).
 *
 * @example
 * ```ts
 * explodedStabiliserAhead(fit, others); // 1.3: a stabiliser 1.3 chords ahead of the strip
 * ```
 */
export function explodedStabiliserAhead(fit: HingeFit, others: Iterable<Geometry>): number | undefined {
  const found = held(others);
  return edgeAhead(fit, found, false) ?? edgeAhead(fit, found, true);
}

/**
 * True when the fixed edge nearest ahead of the panel, in its plane, is a wing's trailing edge: straight
 * over {@link AHEAD_COVERAGE} of its span or more and running on along its line past one of its ends
 * (parallel or not). An elevator hinges on a stabiliser that ends about where it does, never on a wing:
 * a surface behind a cropped delta's trailing edge, close and nearly parallel, is a stabilator
 * (all_moving_surfaces.ts seed 6207: `Elevator_L` hinged on its leading edge, 39° off, judged good).
 *
 * @example
 * ```ts
 * wingEdgeAhead(fit, others); // true: a delta's trailing edge runs on past the tip
 * ```
 */
export function wingEdgeAhead(fit: HingeFit, others: Iterable<Geometry>): boolean {
  const found = held(others);
  return edgeAhead(fit, found, false, true) === Infinity;
}

/**
 * The geometry of `others`, each copied as it comes: a body sampler refills one positions array for
 * every mesh it yields (opening.ts), so a list of its yields held the last mesh's positions under
 * every mesh's triangles, and a wing ahead of one side's surface went unseen.
 */
function held(others: Iterable<Geometry>): Geometry[] {
  return Array.from(others, (g) => ({ positions: g.positions.slice(), triangles: g.triangles }));
}

/**
 * {@link explodedStabiliserAhead}'s look: in a band about the panel's plane widening a little with the
 * distance ahead, or (`offPlane`) anywhere within {@link EXPLODED_REACH} chords of it; with `wing`,
 * {@link wingEdgeAhead}'s (Infinity when the edge runs on, at any angle to the panel's).
 */
function edgeAhead(fit: HingeFit, others: Geometry[], offPlane: boolean, wing = false): number | undefined {
  const { chord, spanLength } = fit;
  const half = spanLength / 2, far = EXPLODED_REACH * chord;
  // In the plane, the band widens by a twentieth of the distance (a plane read a degree or so off).
  // A wing's plane leaves the tail's from mid-span outward by their dihedrals' difference (to 15°).
  const leaves = wing ? WING_DIHEDRAL_SLOPE : 0;
  const inBand = (q: Vec3) =>
    Math.abs(q[2]) <=
      (offPlane ? far : PLANE_BAND * chord - PULL_SLOPE * Math.min(0, q[1]) + leaves * Math.abs(q[0]));
  const inside = (q: Vec3) => q[1] >= -far && q[1] <= OVERLAP * chord && inBand(q);
  // Slots past either end too (half a span): a stabiliser's trailing edge ends about where its
  // elevator does; a wing's runs on past the tip of the stabilator behind it.
  const nearest = new Float64Array(SLOTS + 2 * PAST).fill(-Infinity), beyond = spanLength / 2;
  const height = new Float64Array(SLOTS + 2 * PAST);
  // Slots where the geometry runs on behind the window: a surface lying across the line, no edge of it.
  const across = new Uint8Array(SLOTS + 2 * PAST);
  const slot = (u: number) => Math.floor(((u + half) / spanLength) * SLOTS) + PAST;
  const slotU = (k: number) => ((k - PAST + 0.5) / SLOTS - 0.5) * spanLength;
  trianglesAhead(fit, others, EXPLODED_REACH, beyond, (a, b, c, lo, hi) => {
    if ([a, b, c].every((q) => q[1] < -far) || [a, b, c].every((q) => q[1] > OVERLAP * chord)) return;
    samplePoints(
      a,
      b,
      c,
      sampleSteps(a, b, c, lo, hi, spanLength, (deep) => Math.ceil(deep / (0.1 * chord))),
      (q) => {
        const k = slot(q[0]);
        if (k >= 0 && k < nearest.length && inside(q) && q[1] > nearest[k]) {
          nearest[k] = q[1], height[k] = q[2];
        }
        const behind = q[1] > OVERLAP * chord && q[1] <= 3 * OVERLAP * chord;
        if (wing && k >= 0 && k < nearest.length && behind && inBand(q)) across[k] = 1;
      },
    );
  });
  // The nearest edge over most of the span: a straight line along it, parallel to the hinge. The
  // line is the median slope's (Theil–Sen), so a body beside the panel's root (its side face reaching
  // past the hinge there) leaves the line where it is and is no part of it.
  const us: number[] = [], vs: number[] = [], ws: number[] = [];
  for (let k = PAST; k < PAST + SLOTS; k++) {
    if (nearest[k] > -Infinity) us.push(slotU(k)), vs.push(nearest[k]), ws.push(height[k]);
  }
  if (us.length < AHEAD_COVERAGE * SLOTS) return undefined;
  const v = theilSen(us, vs), w = theilSen(us, ws);
  const straight = (k: number) =>
    Math.abs(nearest[k] - v.at(slotU(k))) <= STRAIGHT * chord &&
    (!offPlane || Math.abs(height[k] - w.at(slotU(k))) <= STRAIGHT * chord);
  let edge = 0;
  for (let k = PAST; k < PAST + SLOTS; k++) if (nearest[k] > -Infinity && straight(k)) edge++;
  if (edge < AHEAD_COVERAGE * SLOTS) return undefined;
  const bend = Math.hypot(v.slope, offPlane ? w.slope : 0);
  if (!wing && Math.atan(bend) > (PARALLEL_DEGREES * Math.PI) / 180) return undefined;
  // The edge running on along the line past either end of the panel over (nearly) half a span is a
  // wing's (jet layouts, held-out seed 4242: 10 of 200 stabilators 1.3–1.8 chords behind a wing whose
  // trailing edge runs within 5° of their leading edge were taken as pulled off it; the wing's ran on
  // over all 12 slots past). A stabiliser the strip slid outboard along ends a third of a span or
  // less past its root (a quarter was too strict: floating tails dev seed 1 #23, slid 0.3 m outboard).
  const onLine = (k: number) => nearest[k] > -Infinity && straight(k) && !across[k];
  const past = (from: number) => Array.from({ length: PAST }, (_, j) => from + j).filter(onLine).length;
  const runsOn = Math.max(past(0), past(PAST + SLOTS)) >= WING_RUNS_ON * PAST;
  // `wing`: the answer is whether it runs on past the tip (a wing's), told as an endless distance. Past
  // the root lie the body and the other side's surface, whose edge a little-swept line may meet.
  if (wing) return runsOnPastTip(fit, nearest, onLine, slotU, v.slope) ? Infinity : undefined;
  if (runsOn) return undefined;
  // Off the plane, its distance is the edge's from the hinge, ahead and aside; it must lie outside the
  // window a fixed surface carrying the panel would have filled.
  const mid = offPlane ? w.at(0) : 0;
  if (-v.at(0) <= AHEAD_REACH * chord && Math.abs(mid) <= PLANE_BAND * chord) return undefined;
  return Math.hypot(v.at(0), mid) / chord;
}

/**
 * Share of the slots past the tip (half a span) the edge must run on over, on the line and parallel:
 * a sixth of the span. A stabiliser's tip cap reaches a slot past its elevator, off the line; a
 * cropped delta's trailing edge ran on 0.2–0.45 of a stabilator's span (spindle habits seed 608: 7 of
 * 12 slots; seed 9338: 5 of 12, within 0.3° of the line, missed at a quarter of the span: `Elevator`
 * stabilators hinged on their leading edges, 47° off, judged good). A conventional stabiliser's edge
 * that reaches 4–11 slots past its elevator on the line ran 7.5–13° off it (seeds 9000–9299), which the
 * parallel test tells.
 */
const WING_PAST_TIP = 1 / 3;

/**
 * True when the edge ahead runs on past the panel's tip (the end away from the centre line: past the
 * root lie the body and the other side's surface) over {@link WING_PAST_TIP} of the slots there, on the
 * line and along it: its own slope within {@link PARALLEL_DEGREES} of the line's. A wing's trailing
 * edge crossing the line's extension at 10° lay within its tolerance over half a span (a conventional
 * tail's elevator behind its stabiliser, spindle habits seed 9289, taken as all-moving, 14° off).
 */
function runsOnPastTip(
  fit: HingeFit,
  nearest: Float64Array,
  onLine: (k: number) => boolean,
  slotU: (k: number) => number,
  slope: number,
): boolean {
  const from = dot(fit.span, [0, 0, 1]) * fit.centre[2] > 0 ? PAST + SLOTS : 0;
  const us: number[] = [], vs: number[] = [];
  for (let k = from; k < from + PAST; k++) if (onLine(k)) us.push(slotU(k)), vs.push(nearest[k]);
  if (us.length < WING_PAST_TIP * PAST) return false;
  const own = theilSen(us, vs).slope;
  return Math.abs(Math.atan(own) - Math.atan(slope)) <= (PARALLEL_DEGREES * Math.PI) / 180;
}

/** How far (rise over run past its end) a wing's plane may leave a tail surface's: 15° of dihedral apart. */
const WING_DIHEDRAL_SLOPE = 0.27;
