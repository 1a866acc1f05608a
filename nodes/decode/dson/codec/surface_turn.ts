/**
 * How far the surface around a reference set that fixes no turn — vertices on a line that keeps its
 * direction, or at one place — turns where those vertices do not record it. Daz fits a rigidity group
 * or a rigid follower to its reference vertices alone (format notes B.10, B.11), so a strap's centre
 * line twisted about itself, or an earring's one vertex on a lobe that turns, fit a slide: the part
 * slides unturned, in Daz as here, while the mesh around it twists. The mesh's other vertices near
 * the set do record that turn; past {@link SURFACE_TURN} it is named, the placement kept (Daz's).
 *
 * @module
 */
import type { RigidityGroup } from "./rigidity.ts";
import type { RigidTransform } from "./rigidity_apply.ts";
import { bestFitRotation, cross, dot, mulVec, normalize, type Vec3 } from "./rigid_fit.ts";

/**
 * The surrounding vertices read: the nearest this many to the reference vertices — a quad mesh's one
 * ring round a vertex. The skin's local turn, not a wider patch's: a body shape shears and bends a
 * figure, and 16 or 32 vertices of a coarse figure read a turn other than the ring's
 * (`surface_turn_test.ts`, follower_shape_habits seeds 18001-18120).
 */
export const SURROUND = 8;

/**
 * A turn (rad) of the surround beyond the reference vertices' fit past which it is named: 1.1°,
 * a part 3 cm off the line 0.6 mm from the surface's turn (the strap-twist doubt of `weakTwist`).
 */
export const SURFACE_TURN = 0.02;

/**
 * A stretch (fraction) of the surround across a line, or from one place, past which it is named when
 * `scale_modes` ask for a stretch there: the same 0.6 mm at 3 cm. One place has no extent, a line none
 * across it: the ratio Daz's fit would read is 0/0, read as 1 (unscaled); Diffeomorphic's importer
 * skips a group of fewer than three reference vertices altogether (`len(S1) < 3`).
 */
export const SURFACE_STRETCH = 0.02;

/**
 * The `count` vertices of `points` nearest to any of the vertices `refs` (by distance to the nearest
 * one), leaving out `refs` and those `skip` names (a group's participants, whose plain morph is what
 * rigidity replaces), nearest first, ties by index.
 */
export function nearestSurround(
  points: Float64Array,
  refs: Int32Array,
  skip: (vertex: number) => boolean = () => false,
  count = SURROUND,
): Int32Array {
  const isRef = new Set(refs);
  // Distinct reference places only: a seam lists each twice.
  const places: Vec3[] = [];
  const seen = new Set<string>();
  for (const i of refs) {
    const p: Vec3 = [points[i * 3], points[i * 3 + 1], points[i * 3 + 2]];
    const key = p.join(",");
    if (!seen.has(key)) seen.add(key), places.push(p);
  }
  const found: [number, number][] = [];
  for (let v = 0; v < points.length / 3; v++) {
    if (isRef.has(v) || skip(v)) continue;
    let best = Infinity;
    for (const p of places) {
      best = Math.min(
        best,
        (points[v * 3] - p[0]) ** 2 + (points[v * 3 + 1] - p[1]) ** 2 + (points[v * 3 + 2] - p[2]) ** 2,
      );
    }
    found.push([best, v]);
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return Int32Array.from(found.slice(0, count), ([, v]) => v);
}

/**
 * The angle (rad) the surround `before`/`after` (xyz, vertices `surround`) turns by beyond the
 * reference vertices' fit (`fitted`, row-major, about centroids `c0` → `c1`): about the moved `line`
 * when the set is a line (the twist, least squares over the surround's offsets across it), else the
 * whole of Horn's turn about the one place; and how far (a fraction) their offsets' rms grows or
 * shrinks across that line or from that place (a stretch the set cannot measure). Surround vertices
 * within `thin` of the axis say nothing about either; with none beyond it both are 0.
 */
export function surroundMotion(
  before: Float64Array,
  after: Float64Array,
  surround: Int32Array,
  fit: { c0: Vec3; c1: Vec3; fitted: Float64Array; line?: Vec3 },
  thin: number,
): { turn: number; stretch: number } {
  const { c0, c1, fitted } = fit;
  const axis = fit.line && normalize(mulVec(fitted, fit.line));
  // Each surround vertex's offset from the set, carried by the fit, and where the morph put it.
  const q: Vec3[] = [], t: Vec3[] = [];
  for (const v of surround) {
    let a = mulVec(fitted, [before[v * 3] - c0[0], before[v * 3 + 1] - c0[1], before[v * 3 + 2] - c0[2]]);
    let b: Vec3 = [after[v * 3] - c1[0], after[v * 3 + 1] - c1[1], after[v * 3 + 2] - c1[2]];
    if (axis) {
      a = across(a, axis);
      b = across(b, axis);
    }
    if (Math.hypot(...a) <= thin) continue;
    q.push(a), t.push(b);
  }
  if (!q.length) return { turn: 0, stretch: 0 };
  let qq = 0, tt = 0;
  for (let k = 0; k < q.length; k++) qq += dot(q[k], q[k]), tt += dot(t[k], t[k]);
  const stretch = Math.abs(Math.sqrt(tt / qq) - 1);
  if (axis) {
    let s = 0, c = 0;
    for (let k = 0; k < q.length; k++) s += dot(cross(q[k], t[k]), axis), c += dot(q[k], t[k]);
    return { turn: Math.abs(Math.atan2(s, c)), stretch };
  }
  // One place: Horn's turn of the offsets about it (a lone offset turns by the angle it swings).
  if (q.length === 1) {
    return { turn: Math.atan2(Math.hypot(...cross(q[0], t[0])), dot(q[0], t[0])), stretch };
  }
  const from = Float64Array.from(q.flat()), to = Float64Array.from(t.flat());
  const all = Int32Array.from(q, (_, k) => k);
  const r = bestFitRotation(from, to, all, [0, 0, 0], [0, 0, 0]);
  return { turn: Math.acos(Math.max(-1, Math.min(1, (r[0] + r[4] + r[8] - 1) / 2))), stretch };
}

/**
 * Whether a slide's surround moves in a way the part would follow if its reference vertices recorded
 * it: a turn past {@link SURFACE_TURN} that `rotationMode` would apply (`full`; for one place any but
 * `none` — a line's `primary` drops the twist about it by design), or a stretch past
 * {@link SURFACE_STRETCH} where `scale_modes` ask for one the set cannot measure (`unmeasured`).
 */
export function unfollowed(
  motion: { turn: number; stretch: number },
  rotationMode: string,
  slide: { line?: Vec3; unmeasured?: boolean },
): boolean {
  const turns = rotationMode === "full" || (!slide.line && rotationMode !== "none");
  return (turns && motion.turn > SURFACE_TURN) || (!!slide.unmeasured && motion.stretch > SURFACE_STRETCH);
}

/** `v` less its part along unit `axis`. */
function across(v: Vec3, axis: Vec3): Vec3 {
  const d = dot(v, axis);
  return [v[0] - d * axis[0], v[1] - d * axis[1], v[2] - d * axis[2]];
}

/**
 * Whether a group fitted with a slide (`transform.slide`) has a participant off its line (or place)
 * while the mesh around its reference vertices moves in a way it would follow, were it recorded
 * ({@link unfollowed}): a turn about that line or place, or a stretch its `scale_modes` ask for and
 * the set cannot measure (decode.dson v66, dson.bake_morph v11; before, silently:
 * `follower_line_habits.ts`, `rigidity_real_habits.ts`, `surface_turn_test.ts`).
 */
export function groupSlideUnfollowed(
  group: RigidityGroup,
  before: Float64Array,
  after: Float64Array,
  weights: Float64Array | undefined,
  transform: RigidTransform,
): boolean {
  const slide = transform.slide!;
  const { fitted, line, thin } = slide;
  if (group.rotationMode === "none" && !slide.unmeasured) return false;
  const c0 = transform.before;
  const off = [...group.maskVertices].some((i) => {
    if (!((weights ? Math.min(weights[i], 1) : 1) > 0)) return false;
    const p: Vec3 = [before[i * 3] - c0[0], before[i * 3 + 1] - c0[1], before[i * 3 + 2] - c0[2]];
    return Math.hypot(...(line ? cross(p, line) : p)) > thin;
  });
  if (!off) return false;
  const mask = new Set(group.maskVertices);
  const surround = nearestSurround(before, group.referenceVertices, (v) => mask.has(v));
  const fit = { c0, c1: transform.after, fitted, ...(line ? { line } : {}) };
  return unfollowed(surroundMotion(before, after, surround, fit, thin), group.rotationMode, slide);
}
