/**
 * DSON rigidity's fitted transform and its application to a morphed shape (split from `rigidity.ts`,
 * which decodes the groups and re-exports these): a group's translation, rotation per `rotation_mode`
 * and stretch per `scale_modes`, fitted to how its reference vertices moved (docs/dson.md "Rigidity:
 * how baking applies it").
 *
 * @module
 */
import type { RigidityGroup } from "./rigidity.ts";
import {
  bestFitRotation,
  centroid,
  cross,
  dot,
  identity,
  mulMat,
  mulVec,
  normalize,
  principalAxes,
  swingRotation,
  type Vec3,
} from "./rigid_fit.ts";
import { groupSlideUnfollowed } from "./surface_turn.ts";

/** The scale modes in the order `scale_modes` values index the measured ratios (`none` first). */
const SCALE_MODES = ["none", "primary", "secondary", "tertiary"] as const;

/**
 * An explicit axis frame for a group (from its transform or reference node): the node's axes ordered
 * primary → tertiary by the node's rotation order (`YZX`: Y, Z, X). `scale_modes[i]` and the
 * primary/secondary rotation modes refer to these axes by position.
 */
export interface AxisFrame {
  readonly ordered: readonly [Vec3, Vec3, Vec3];
}

/**
 * Below this fraction of their widest spread, reference vertices do not span a direction (a plate
 * modelled flat and written to 4 decimals is ~1e-5 of its width thick; a curved patch of skin
 * 1e-2 and more).
 */
export const FLAT = 1e-3;

/** `p' = after + linear · (p − before)`: the fitted transform of a group. */
export interface RigidTransform {
  readonly before: Vec3;
  readonly after: Vec3;
  readonly linear: Float64Array;
  /**
   * True when a scale mode stretches along a principal axis the reference vertices do not fix (a
   * collinear set's perpendiculars): the stretch's direction is a guess.
   */
  readonly uncertain?: boolean;
  /**
   * True when `rotation_mode` is `full` and the twist about the reference vertices' line is a guess:
   * they lie on a line that turns, so none is applied (the least turn carrying the line), or on a strip
   * whose width holds it less surely than 0.02 rad (`weakTwist`), so Horn's is kept (decode.dson v64,
   * dson.bake_morph v9; before, silently). A line that only slides, and one vertex, fit a slide with
   * nothing to guess (v65; before, named whenever they moved).
   */
  readonly untwisted?: boolean;
  /** With `untwisted`: the reference vertices' line at rest, the twist's axis through `before`. */
  readonly line?: Vec3;
  /** With `untwisted`: the spread (m) below which a participant lies on that line (`thinness`). */
  readonly thin?: number;
  /**
   * Reference vertices that fix no turn of their own — a line that keeps its direction, or one place —
   * and so fit a slide: the fitted turn (the line's swing, if any), the line at rest (absent: one
   * place) and their `thinness`, for measuring how far the surface around them turns unrecorded
   * (`surface_turn.ts`).
   */
  readonly slide?: {
    readonly fitted: Float64Array;
    readonly line?: Vec3;
    readonly thin: number;
    /** A `scale_modes` entry asks for a ratio along an axis the set has no extent on (0/0, read as 1). */
    readonly unmeasured?: boolean;
  };
}

/**
 * Fits a group's transform from its reference vertices before and after a morph. Returns
 * undefined when the group has no reference vertices (nothing to follow).
 *
 * The best-fit rotation is always fitted (Horn's method; a collinear set aligns its line) and the
 * stretch along each frame axis is measured after removing it, so that a turn never reads as a
 * stretch. `rotation_mode` only decides how much of the fitted rotation is applied.
 *
 * @example
 * ```ts
 * const t = fitRigidTransform(group, basePositions, morphedPositions);
 * ```
 */
export function fitRigidTransform(
  group: RigidityGroup,
  before: Float64Array,
  after: Float64Array,
  frame?: AxisFrame,
): RigidTransform | undefined {
  const refs = group.referenceVertices;
  if (refs.length === 0) return undefined;
  const c0 = centroid(before, refs);
  const c1 = centroid(after, refs);
  const pca = principalAxes(before, refs, c0);
  const axes = frame?.ordered ?? pca.axes;
  // A direction the reference vertices do not span — thinner than FLAT of their widest spread, as
  // three vertices are across their plane and a modelled-flat plate is up to its file's rounding —
  // has no stretch to measure: its ratio is 1, and its turn comes from the directions they span.
  // Read as a ratio of two roundings it was any number (decode.dson v63; before, above 1e-9 cm). The
  // file's rounding counts too: a 2 mm set 1.5 m from the origin is written to 1.5 µm (decode.dson v65).
  const thin = thinness(before, after, refs, pca.variances[0]);
  // Horn's fit is only defined for a point set that spans a plane.
  const planar = refs.length >= 3 && Math.sqrt(pca.variances[1]) > thin;
  // One place (one vertex, or a seam's duplicates: their axes are rounding's noise) fixes no turn: a
  // slide (decode.dson v65; before, duplicates turned by the swing between two noise axes, warned).
  const point = Math.sqrt(pca.variances[0]) <= thin;
  const fitted = planar
    ? bestFitRotation(before, after, refs, c0, c1)
    : point
    ? identity()
    : lineRotation(after, refs, c1, pca.axes[0]);
  let applied = identity();
  if (group.rotationMode === "full") applied = fitted;
  else if (group.rotationMode !== "none") {
    const from: Vec3 = [...axes[group.rotationMode === "secondary" && planar ? 1 : 0]] as Vec3;
    applied = swingRotation(from, normalize(mulVec(fitted, from)));
  }
  const measured = [false, false, false];
  const ratios = axes.map((axis, k) => {
    const spread0 = spread(before, refs, c0, axis);
    measured[k] = spread0 > thin;
    return measured[k] ? spread(after, refs, c1, mulVec(fitted, [...axis] as Vec3)) / spread0 : 1;
  });
  const scale = new Float64Array(9);
  // Principal axes a collinear set does not fix (any perpendicular to its line would do; a single
  // vertex fixes none): a stretch along one of them is a guess, said.
  const spanned = frame ? 3 : planar ? 3 : Math.sqrt(pca.variances[0]) > thin ? 1 : 0;
  let uncertain = false;
  for (let i = 0; i < 3; i++) {
    const mode = group.scaleModes[i];
    const s = mode === "none" ? 1 : ratios[SCALE_MODES.indexOf(mode) - 1];
    if (i >= spanned && Math.abs(s - 1) > 1e-9) uncertain = true;
    const a = axes[i];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) scale[r * 3 + c] += s * a[r] * a[c];
  }
  // A line's twist is a guess only when the line turns: vertices that slide along it (or one vertex)
  // fit a slide, with no turn to guess (decode.dson v65; before, any move of them was named).
  const untwisted = group.rotationMode === "full" &&
    (planar ? weakTwist(before, after, refs, c0, c1, fitted) : lineTurns(after, refs, c1, pca, thin));
  const unmeasured = group.scaleModes.some((m) => m !== "none" && !measured[SCALE_MODES.indexOf(m) - 1]);
  const slide = !planar && !untwisted
    ? { fitted, thin, ...(point ? {} : { line: pca.axes[0] }), ...(unmeasured ? { unmeasured } : {}) }
    : undefined;
  return {
    before: c0,
    after: c1,
    linear: mulMat(applied, scale),
    ...(uncertain ? { uncertain } : {}),
    ...(untwisted ? { untwisted, line: pca.axes[0], thin } : {}),
    ...(slide ? { slide } : {}),
  };
}

/**
 * Coordinates as Daz writes them keep 7 significant digits (`151.4788`, `3.976269` in the corpus's
 * figures, in cm): a vertex is only placed to this fraction of its largest coordinate.
 */
const WRITTEN = 1e-6;

/**
 * Below this spread (m) the reference vertices `refs` span no direction: {@link FLAT} of their widest
 * spread (`variance0`, its square), or twice the rounding their coordinates are written to
 * ({@link WRITTEN} of the largest, before or after) — the scale of the figure, not of the set: a 2 mm
 * set 1.5 m from the origin is written to 1.5 µm, over a thousandth of its width.
 */
export function thinness(
  before: Float64Array,
  after: Float64Array,
  refs: Int32Array,
  variance0: number,
): number {
  let big = 0;
  for (const i of refs) {
    for (let a = 0; a < 3; a++) big = Math.max(big, Math.abs(before[i * 3 + a]), Math.abs(after[i * 3 + a]));
  }
  return Math.max(1e-12, FLAT * Math.sqrt(variance0), 2 * WRITTEN * big);
}

/**
 * Whether a collinear reference set's line turns: the angle between its principal line before and
 * after exceeds what its coordinates' rounding (`thin`, twice it) and its departure from a line (the
 * rms distance of its vertices from it, before and after) could turn it by over its spread along it.
 * One vertex, or several at one place (a seam's duplicates), has no line: it slides.
 */
function lineTurns(
  after: Float64Array,
  refs: Int32Array,
  c1: Vec3,
  pca: { axes: readonly Vec3[]; variances: Vec3 },
  thin: number,
): boolean {
  const length = Math.sqrt(pca.variances[0]);
  if (refs.length < 2 || length <= thin) return false;
  const moved = principalAxes(after, refs, c1);
  const a = pca.axes[0], b = moved.axes[0];
  const angle = Math.atan2(Math.hypot(...cross(a, b)), Math.abs(dot(a, b)));
  const off0 = Math.sqrt(pca.variances[1] + pca.variances[2]);
  const off1 = Math.sqrt(moved.variances[1] + moved.variances[2]);
  return angle > (thin + 3 * (off0 + off1)) / length;
}

/**
 * Whether the reference vertices `refs` at `points` span a plane (at least three, the second
 * principal spread over {@link FLAT} of the first): the set Horn's fit takes a whole turn from.
 */
export function spansPlane(points: Float64Array, refs: Int32Array): boolean {
  if (refs.length < 3) return false;
  const { variances } = principalAxes(points, refs, centroid(points, refs));
  return Math.sqrt(variances[1]) > thinness(points, points, refs, variances[0]);
}

/** A reference set this much narrower than it is long is a strap: its twist rests on its width. */
const STRAP = 0.05;
/** Twist uncertainty (rad) past which a strap's fitted twist is a guess: 1.1°, 0.6 mm at 3 cm. */
const TWIST_DOUBT = 0.02;
/**
 * At most this many of a strap's vertices count as independent when its residual is averaged down: a
 * projected morph's unevenness is smooth along the strap, not noise, and a belt of 2,000 vertices (or
 * one whose seam lists each vertex twice) holds its twist no surer than one of 64. Set on
 * `rigidity_real_habits.ts` `beltCase` seeds 1-400: 128 still left none off silently, 256 one
 * (decode.dson v65: before, every vertex counted).
 */
const INDEPENDENT = 64;

/**
 * Whether Horn's turn `rotation` (row-major) of a strap-like reference set — spanning a plane, but
 * narrower than {@link STRAP} of its length — takes its twist about its line from less than the
 * set's own departure from a rigid motion: the fit's rms residual over the rms width, over the root
 * of the vertex count up to {@link INDEPENDENT} (the twist's standard error), exceeds
 * {@link TWIST_DOUBT} (a 0.02 mm uneven morph across a 0.1 mm wide strap turns it by degrees).
 */
export function weakTwist(
  before: Float64Array,
  after: Float64Array,
  refs: Int32Array,
  c0: Vec3,
  c1: Vec3,
  rotation: Float64Array,
): boolean {
  const { variances } = principalAxes(before, refs, c0);
  const width = Math.sqrt(variances[1]);
  if (width >= STRAP * Math.sqrt(variances[0])) return false;
  let sum = 0;
  for (const i of refs) {
    const d: Vec3 = [before[i * 3] - c0[0], before[i * 3 + 1] - c0[1], before[i * 3 + 2] - c0[2]];
    const q = mulVec(rotation, d);
    for (let a = 0; a < 3; a++) sum += (q[a] - (after[i * 3 + a] - c1[a])) ** 2;
  }
  // The twist's standard error: the residual over the width, averaged down over the vertices that
  // are independent (a smooth unevenness is shared by neighbours).
  return Math.sqrt(sum / refs.length) / Math.sqrt(Math.min(refs.length, INDEPENDENT)) > TWIST_DOUBT * width;
}

/** The swing turning a collinear reference set's line onto its moved line (identity for one vertex). */
function lineRotation(
  after: Float64Array,
  refs: Int32Array,
  c1: Vec3,
  line: Vec3,
): Float64Array {
  if (refs.length < 2) return identity();
  const moved = principalAxes(after, refs, c1).axes[0];
  const sign = moved[0] * line[0] + moved[1] * line[1] + moved[2] * line[2] < 0 ? -1 : 1;
  return swingRotation(line, [moved[0] * sign, moved[1] * sign, moved[2] * sign]);
}

/**
 * Mask vertices moved by more than one group (see {@link applyRigidity}): how many, and the first
 * (lowest vertex index) with the ids of its groups in file order — the last is the one it takes.
 */
export interface SharedMaskVertices {
  readonly count: number;
  readonly first: { readonly vertex: number; readonly groups: readonly string[] };
}

/**
 * Applies rigidity to a morphed shape: every group's participants move by the group's fitted
 * transform, blended with the morphed position by their rigidity weight. Positions are flat xyz
 * arrays indexed by DSON vertex; `weights` holds one weight per vertex (undefined: fully rigid).
 * Returns the corrected positions (a new array).
 *
 * A vertex in the masks of several groups (participant facets of two groups share their edge's
 * vertices) takes the last group's result, in file order, blended with the plain morph: every fit
 * reads the plain morph, so the order changes nothing else. Daz does not document how overlapping
 * groups combine; for a fully rigid vertex this is what Diffeomorphic's importer gives (it applies
 * the groups in file order over its shape key). Such vertices are reported through `onShared`
 * (only those two groups actually move: a group with no reference vertex moves nothing, and a
 * vertex of weight 0 is not moved). A group fitted with a guess goes to `onUncertain`: `stretch`, its
 * scale_modes stretch across its reference line; `twist`, a `full` turn its turning line does not fix,
 * when a participant lies off that line; `surface`, a slide (reference vertices on a line that keeps
 * its direction, or at one place) while the mesh's other vertices nearest them turn about that line or
 * place by over 0.02 rad, or stretch by over 2 % where `scale_modes` ask for a stretch the set cannot
 * measure (`surface_turn.ts`), which the slide does not follow, with a participant off it.
 *
 * @example
 * ```ts
 * const corrected = applyRigidity(base, morphed, weights, rigidity.groups);
 * ```
 */
export function applyRigidity(
  before: Float64Array,
  after: Float64Array,
  weights: Float64Array | undefined,
  groups: readonly RigidityGroup[],
  frameFor: (group: RigidityGroup) => AxisFrame | undefined = () => undefined,
  onShared?: (shared: SharedMaskVertices) => void,
  onUncertain?: (group: RigidityGroup, what: "stretch" | "twist" | "surface") => void,
): Float64Array {
  const out = Float64Array.from(after);
  // The groups that moved each vertex (in file order), kept only when asked.
  const movedBy = onShared ? new Map<number, number[]>() : undefined;
  for (const [g, group] of groups.entries()) {
    const transform = fitRigidTransform(group, before, after, frameFor(group));
    if (!transform) continue;
    if (transform.uncertain) onUncertain?.(group, "stretch");
    const { linear, before: c0, after: c1, line, thin = 0 } = transform;
    // A participant on the line the twist is about (a strap that is its own reference, as Daz's
    // examples make them) is placed whatever the twist: only one off it is a guess (decode.dson v65).
    let twisted = false;
    for (const i of group.maskVertices) {
      const w = weights ? Math.min(weights[i], 1) : 1;
      if (!(w > 0)) continue;
      if (transform.untwisted && line && !twisted) {
        const p: Vec3 = [before[i * 3] - c0[0], before[i * 3 + 1] - c0[1], before[i * 3 + 2] - c0[2]];
        twisted = Math.hypot(...cross(p, line)) > thin;
      }
      if (movedBy) {
        const ids = movedBy.get(i);
        if (!ids) movedBy.set(i, [g]);
        else if (ids[ids.length - 1] !== g) ids.push(g); // a vertex listed twice in one mask is one
      }
      const d = [before[i * 3] - c0[0], before[i * 3 + 1] - c0[1], before[i * 3 + 2] - c0[2]];
      for (let r = 0; r < 3; r++) {
        const rigid = c1[r] + linear[r * 3] * d[0] + linear[r * 3 + 1] * d[1] + linear[r * 3 + 2] * d[2];
        out[i * 3 + r] = w * rigid + (1 - w) * after[i * 3 + r];
      }
    }
    if (twisted) onUncertain?.(group, "twist");
    if (onUncertain && transform.slide && groupSlideUnfollowed(group, before, after, weights, transform)) {
      onUncertain(group, "surface");
    }
  }
  if (movedBy && onShared) {
    let count = 0;
    let first: { vertex: number; groups: string[] } | undefined;
    for (const [vertex, moved] of movedBy) {
      if (moved.length < 2) continue;
      count++;
      if (!first || vertex < first.vertex) first = { vertex, groups: moved.map((g) => groups[g].id) };
    }
    if (first) onShared({ count, first });
  }
  return out;
}

function spread(points: Float64Array, indices: Int32Array, center: Vec3, axis: readonly number[]): number {
  let sum = 0;
  for (const i of indices) {
    const d = (points[i * 3] - center[0]) * axis[0] + (points[i * 3 + 1] - center[1]) * axis[1] +
      (points[i * 3 + 2] - center[2]) * axis[2];
    sum += d * d;
  }
  return Math.sqrt(sum / indices.length);
}
