/**
 * Taking a non-uniform scale out of the path between a pivot and the world, so that turning the pivot
 * is a rigid turn in world space. A parent whose world matrix `M` is no similarity (a fuselage group
 * scaled in one axis, a unit conversion in one axis, a stretched mirror group) would shear anything
 * turned under it. With the singular value decomposition `M = U·Σ·Vᵀ`, a node under the parent with
 * rotation `V` and scale `s/|Σ|` (`s` the geometric mean of `|Σ|`) has the world linear part
 * `s·U·sign(Σ)`: a similarity, mirrored exactly when `M` is. A pivot below that node turns rigidly.
 *
 * Every glTF node is translation·rotation·scale, so the inverse (which is scale·rotation) cannot be one
 * node: a node under the pivot carries the inverse pivot and the scale `|Σ|/s`, and the part's own
 * matrix takes the remaining rotation `Vᵀ` (it stays translation·rotation·scale). The inserted chain
 * composes to exactly the part's old local transform, so its world pose is unchanged at rest and in
 * any animation of its ancestors.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import {
  canonicalQuat,
  canonicalVec3,
  cross,
  dot,
  type Mat4,
  multiply,
  type Quat,
  quatConjugate,
  quatFromBasis,
  quatMultiply,
  quatRotate,
  type Vec3,
} from "./transform.ts";

/** Below this spread of the singular values (relative) a parent counts as a similarity. */
const UNIFORM = 1e-6;

/**
 * Components within this of identity are dropped by glTF writers (within 1e-5); a transform the
 * unscale chain writes must be exactly identity or farther off than this.
 */
const NEAR_IDENTITY = 1e-4;

/** How to take a parent's non-uniform scale out from under a pivot. */
export interface Unscale {
  /** Rotation of the node that goes under the parent (the right singular vectors, re-ordered). */
  readonly rotation: Quat;
  /** Its scale: `s/|σ|` per axis, all positive. */
  readonly scale: Vec3;
  /** The part's new rotation and translation: its old ones after `Vᵀ` of the chosen axis order. */
  readonly partRotation: Quat;
  readonly partTranslation: Vec3;
  /** The unscale node's local matrix (column-major). */
  readonly matrix: number[];
}

/**
 * Plans the unscale node for a part under a parent with world matrix `parentWorld`, or `undefined`
 * when the parent is a similarity already (uniform scale, mirrors included). `partRotation` and
 * `partTranslation` are the part's own local transform: of the 24 ways to order the axes, the first
 * whose written transforms are each exactly identity or clearly not (so no writer drops one) is used,
 * preferring the one that leaves the part's rotation as it is.
 *
 * @example
 * ```ts
 * const plan = planUnscale(panel.getParentNode()!.getWorldMatrix(), rotation, translation);
 * if (plan) unscaleNode.setRotation(plan.rotation).setScale(plan.scale);
 * ```
 */
export function planUnscale(
  parentWorld: Mat4,
  partRotation: Quat,
  partTranslation: Vec3,
): Unscale | undefined {
  const { sigma, vectors } = singularAxes(parentWorld);
  if (!(sigma[0] > 0) || !Number.isFinite(sigma[2]) || isSpreadUniform(sigma)) return undefined;
  const v = vectors.map(snapUnit) as [Vec3, Vec3, Vec3];
  if (dot(cross(v[0], v[1]), v[2]) < 0) v[2] = [-v[2][0], -v[2][1], -v[2][2]];
  let mean = Math.cbrt(sigma[0] * sigma[1] * sigma[2]);
  // A spread below the writers' tolerance would leave a scale they drop: double it instead.
  if (sigma.every((s) => Math.abs(mean / s - 1) < NEAR_IDENTITY)) mean *= 2;
  const scaleOf = sigma.map((s) => mean / s) as Vec3;

  for (const order of axisOrders(v)) {
    // V·Π with Π a proper signed permutation: same unscale, other axis order.
    const axes = [0, 1, 2].map((j) => columnOf(v, order[j])) as [Vec3, Vec3, Vec3];
    const scale = order.map((o) => scaleOf[o.axis]) as Vec3;
    const rotation = quatFromBasis(axes[0], axes[1], axes[2]);
    const identity = rotation.every((x, k) => x === [0, 0, 0, 1][k]);
    const newPartRotation = identity
      ? partRotation
      : canonicalQuat(quatMultiply(quatConjugate(rotation), partRotation));
    const newPartTranslation = identity
      ? partTranslation
      : canonicalVec3(quatRotate(quatConjugate(rotation), partTranslation));
    if (
      !writable(rotation, [0, 0, 0, 1]) || !writable(newPartRotation, [0, 0, 0, 1]) ||
      !writable(newPartTranslation, [0, 0, 0])
    ) continue;
    const linear = axes.map((a, j) => a.map((x) => x * scale[j]));
    const matrix = [...linear[0], 0, ...linear[1], 0, ...linear[2], 0, 0, 0, 0, 1];
    if (!isSimilarity(multiply(parentWorld, matrix))) return undefined;
    return { rotation, scale, partRotation: newPartRotation, partTranslation: newPartTranslation, matrix };
  }
  return undefined;
}

/**
 * True when a world matrix scales every direction alike (to 1e-6 relative), mirrors included: a pivot
 * under it turns rigidly without help.
 *
 * @example
 * ```ts
 * isUniformlyScaled(node.getWorldMatrix()); // false under a (1, 1, 3)-scaled parent
 * ```
 */
export function isUniformlyScaled(m: Mat4): boolean {
  return isSpreadUniform(singularAxes(m).sigma);
}

function isSpreadUniform(sigma: Vec3): boolean {
  return sigma[2] - sigma[0] <= UNIFORM * sigma[2];
}

/** Singular values (ascending) of the linear part `M` and the right singular vectors (`MᵀM`'s eigenvectors). */
function singularAxes(m: Mat4): { sigma: Vec3; vectors: [Vec3, Vec3, Vec3] } {
  const col = (j: number): Vec3 => [m[4 * j], m[4 * j + 1], m[4 * j + 2]];
  const [c0, c1, c2] = [col(0), col(1), col(2)];
  const eigen = symmetricEigen3(dot(c0, c0), dot(c0, c1), dot(c0, c2), dot(c1, c1), dot(c1, c2), dot(c2, c2));
  return { sigma: eigen.values.map((v) => Math.sqrt(Math.max(v, 0))) as Vec3, vectors: eigen.vectors };
}

/** True when the linear part of `m` is a scaled rotation (or mirror) to within 1e-9. */
export function isSimilarity(m: Mat4): boolean {
  const c = [0, 1, 2].map((j) => [m[4 * j], m[4 * j + 1], m[4 * j + 2]]);
  const n = c.map((x) => dot(x, x));
  const scale = (n[0] + n[1] + n[2]) / 3;
  const tolerance = 1e-9 * scale;
  return Math.abs(n[0] - scale) < tolerance && Math.abs(n[1] - scale) < tolerance &&
    Math.abs(n[2] - scale) < tolerance && Math.abs(dot(c[0], c[1])) < tolerance &&
    Math.abs(dot(c[0], c[2])) < tolerance && Math.abs(dot(c[1], c[2])) < tolerance;
}

/** One column of a re-ordered basis: which singular axis, and its sign. */
interface AxisPick {
  readonly axis: number;
  readonly sign: 1 | -1;
}

/**
 * The 24 proper signed permutations, as column picks. When `v` is itself one (a parent scaled along
 * its own axes under similarities), the pick that gives identity comes first, so the part keeps its
 * rotation and the unscale node is a pure scale.
 */
function axisOrders(v: readonly Vec3[]): AxisPick[][] {
  const all: AxisPick[][] = [];
  for (const p of [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]) {
    for (let signs = 0; signs < 8; signs++) {
      const picks = p.map((axis, j) => ({ axis, sign: (signs >> j) & 1 ? -1 : 1 })) as AxisPick[];
      const axes = [0, 1, 2].map((j) => columnOf(v, picks[j]));
      if (dot(cross(axes[0], axes[1]), axes[2]) > 0) all.push(picks);
    }
  }
  const isIdentity = (picks: AxisPick[]) =>
    picks.every((pick, j) => columnOf(v, pick).every((x, k) => x === (j === k ? 1 : 0)));
  return [...all.filter(isIdentity), ...all.filter((picks) => !isIdentity(picks))];
}

function columnOf(v: readonly Vec3[], pick: AxisPick): Vec3 {
  const c = v[pick.axis];
  return [c[0] * pick.sign, c[1] * pick.sign, c[2] * pick.sign];
}

/** Rounds a unit vector within 1e-12 of an axis onto it, so exactly axis-aligned scales stay exact. */
function snapUnit(u: Vec3): Vec3 {
  const rounded = u.map((x) => Math.round(x)) as Vec3;
  const isAxis = Math.abs(rounded[0]) + Math.abs(rounded[1]) + Math.abs(rounded[2]) === 1;
  return isAxis && u.every((x, k) => Math.abs(x - rounded[k]) < 1e-12)
    ? rounded.map((x) => x || 0) as Vec3
    : u;
}

/** True unless `value` is within the writers' tolerance of `identity` without being it. */
function writable(value: readonly number[], identity: readonly number[]): boolean {
  const exact = value.every((x, k) => x === identity[k]);
  const near = value.every((x, k) => Math.abs(x - identity[k]) < NEAR_IDENTITY);
  return exact || !near;
}
