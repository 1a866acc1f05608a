/**
 * An independent formulation of DSON rigidity for tests, written from the spec text (the
 * `rigidity_group` fields, `docs/dson.md` "Rigidity: how baking applies it") and not from the
 * production code: the best-fit rotation is Kabsch's SVD solution (not Horn's quaternion), the
 * eigenvectors come from the closed-form 3×3 solution (not Jacobi sweeps), swings are Rodrigues'
 * formula (not quaternions), spreads are quadratic forms of the covariance, and node frames are
 * plain Euler matrices (not gl-matrix). Nothing here imports from `nodes/`.
 *
 * @module
 */

/** A 3-vector. */
export type V3 = [number, number, number];
/** A 3×3 matrix as three rows. */
export type M3 = [V3, V3, V3];

/** A rigidity group in the reference's terms. */
export interface ReferenceGroup {
  readonly rotation: "none" | "full" | "primary" | "secondary";
  readonly scale: readonly ("none" | "primary" | "secondary" | "tertiary")[];
  readonly refs: readonly number[];
  readonly mask: readonly number[];
  /** Frame axes ordered by the frame node's rotation order; undefined: principal axes. */
  readonly axes?: readonly V3[];
}

const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (
  a: V3,
  b: V3,
): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V3) => Math.sqrt(dot(a, a));
const unit = (a: V3): V3 => a.map((x) => x / len(a)) as V3;
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const times = (m: M3, v: V3): V3 => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
const column = (m: M3, c: number): V3 => [m[0][c], m[1][c], m[2][c]];
const IDENTITY: M3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

/** `a · b` for 3×3 matrices. */
export function matMul(a: M3, b: M3): M3 {
  return a.map((row) => [0, 1, 2].map((c) => dot(row, column(b, c)))) as M3;
}

/** Σ_k s_k · u_k v_kᵀ. */
function outerSum(terms: readonly [number, V3, V3][]): M3 {
  return [0, 1, 2].map((r) =>
    [0, 1, 2].map((c) => terms.reduce((sum, [s, u, v]) => sum + s * u[r] * v[c], 0))
  ) as M3;
}

/** Rotation about one axis (0 = X, 1 = Y, 2 = Z) by `degrees`, right-handed. */
export function axisRotation(axis: number, degrees: number): M3 {
  const a = degrees * Math.PI / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  if (axis === 0) return [[1, 0, 0], [0, c, -s], [0, s, c]];
  if (axis === 1) return [[c, 0, s], [0, 1, 0], [-s, 0, c]];
  return [[c, -s, 0], [s, c, 0], [0, 0, 1]];
}

/** Euler angles (degrees, x y z) turned in `order`, the first letter first about fixed axes. */
export function eulerMatrix(degrees: readonly number[], order: string): M3 {
  let m = IDENTITY;
  for (const letter of order) {
    const axis = "XYZ".indexOf(letter);
    m = matMul(axisRotation(axis, degrees[axis]), m);
  }
  return m;
}

/**
 * Axes of a root DSON node with `orientation` (XYZ) and pose `rotation` (in `order`): the columns of
 * O·R, listed in the node's rotation order (the spec's "rotation order of those nodes").
 */
export function nodeFrameAxes(
  orientation: readonly number[],
  rotation: readonly number[],
  order: string,
): V3[] {
  const world = matMul(eulerMatrix(orientation, "XYZ"), eulerMatrix(rotation, order));
  return [...order].map((letter) => column(world, "XYZ".indexOf(letter)));
}

/** Closed-form eigen-decomposition of a symmetric 3×3 matrix, eigenvalues in decreasing order. */
export function symmetricEigen3(a: M3): { values: V3; vectors: [V3, V3, V3] } {
  const p1 = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
  const q = (a[0][0] + a[1][1] + a[2][2]) / 3;
  const p = Math.sqrt(((a[0][0] - q) ** 2 + (a[1][1] - q) ** 2 + (a[2][2] - q) ** 2 + 2 * p1) / 6);
  if (p < 1e-300) return { values: [q, q, q], vectors: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };
  const b = a.map((row, r) => row.map((x, c) => (x - (r === c ? q : 0)) / p)) as M3;
  const det = dot(b[0], cross(b[1], b[2]));
  const phi = Math.acos(Math.min(1, Math.max(-1, det / 2))) / 3;
  const e1 = q + 2 * p * Math.cos(phi);
  const e3 = q + 2 * p * Math.cos(phi + 2 * Math.PI / 3);
  const values: V3 = [e1, 3 * q - e1 - e3, e3];
  const gap = 1e-9 * Math.max(Math.abs(e1), Math.abs(e3), 1e-300);
  const vectorOf = (lambda: number): V3 => {
    const rows = a.map((row, r) => row.map((x, c) => x - (r === c ? lambda : 0))) as M3;
    const candidates = [cross(rows[0], rows[1]), cross(rows[0], rows[2]), cross(rows[1], rows[2])];
    return unit(candidates.reduce((best, v) => (len(v) > len(best) ? v : best)));
  };
  const perpendicular = (v: V3): V3 => unit(cross(v, Math.abs(v[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  if (values[0] - values[1] < gap) {
    const v3 = vectorOf(e3);
    const v1 = perpendicular(v3);
    return { values, vectors: [v1, cross(v3, v1), v3] };
  }
  const v1 = vectorOf(e1);
  if (values[1] - values[2] < gap) {
    const v2 = perpendicular(v1);
    return { values, vectors: [v1, v2, cross(v1, v2)] };
  }
  const v3 = vectorOf(e3);
  return { values, vectors: [v1, cross(v3, v1), v3] };
}

/** Covariance (divided by n) of the points `p − c`. */
function covariance(points: readonly V3[], c: V3): M3 {
  const m: M3 = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const p of points) {
    const d = sub(p, c);
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) m[r][k] += d[r] * d[k] / points.length;
  }
  return m;
}

/** The rotation minimising Σ |R·a_i − b_i|² (Kabsch: SVD of Σ b aᵀ, reflection removed). */
export function kabsch(a: readonly V3[], b: readonly V3[]): M3 {
  const m = outerSum(a.map((ai, i) => [1, b[i], ai]));
  const mtm = matMul([column(m, 0), column(m, 1), column(m, 2)], m);
  const { values, vectors: v } = symmetricEigen3(mtm);
  const sigma = values.map((x) => Math.sqrt(Math.max(x, 0)));
  const u1 = unit(times(m, v[0]));
  const u2 = unit(times(m, v[1]));
  // A planar set gives a rank-2 matrix: its third left vector is then fixed by orthogonality.
  const u3 = len(times(m, v[2])) > 1e-6 * sigma[0] ? unit(times(m, v[2])) : cross(u1, u2);
  const d = Math.sign(dot(u1, cross(u2, u3)) * dot(v[0], cross(v[1], v[2])));
  return outerSum([[1, u1, v[0]], [1, u2, v[1]], [d, u3, v[2]]]);
}

/** Rodrigues: the smallest rotation turning unit `from` onto unit `to`. */
export function swing(from: V3, to: V3): M3 {
  const k = cross(from, to);
  const s = len(k);
  const c = dot(from, to);
  if (s < 1e-12) {
    if (c > 0) return IDENTITY;
    const n = unit(cross(from, Math.abs(from[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
    return outerSum([[2, n, n]]).map((row, r) => row.map((x, col) => x - (r === col ? 1 : 0))) as M3;
  }
  const [x, y, z] = k.map((e) => e / s);
  const skew: M3 = [[0, -z, y], [z, 0, -x], [-y, x, 0]];
  const skew2 = matMul(skew, skew);
  return IDENTITY.map((row, r) => row.map((e, col) => e + s * skew[r][col] + (1 - c) * skew2[r][col])) as M3;
}

/**
 * Rigidity applied to a morphed shape, per the documented semantics: fit the rotation and measure
 * the per-axis stretch after removing it; apply the translation, the rotation the mode asks for and
 * the scale per `scale_modes`; blend each mask vertex by its weight (1 without a map); a vertex in
 * several groups takes the last one's result; every fit reads the plain morph.
 */
export function referenceRigidity(
  before: readonly V3[],
  after: readonly V3[],
  weights: readonly number[] | undefined,
  groups: readonly ReferenceGroup[],
): V3[] {
  const out = after.map((p) => [...p] as V3);
  for (const group of groups) {
    if (group.refs.length === 0) continue;
    const a = group.refs.map((i) => before[i]);
    const b = group.refs.map((i) => after[i]);
    const mean = (ps: V3[]) => [0, 1, 2].map((k) => ps.reduce((s, p) => s + p[k], 0) / ps.length) as V3;
    const [c0, c1] = [mean(a), mean(b)];
    const [cov0, cov1] = [covariance(a, c0), covariance(b, c1)];
    const pca = symmetricEigen3(cov0);
    // Spanning a plane: the second spread over a thousandth of the first (a plate flat up to its
    // file's rounding spans no third direction, three vertices none across their plane).
    const planar = a.length >= 3 && pca.values[1] > 1e-6 * Math.max(pca.values[0], 1e-300);
    let fitted = IDENTITY;
    if (planar) fitted = kabsch(a.map((p) => sub(p, c0)), b.map((p) => sub(p, c1)));
    else if (a.length >= 2) {
      const moved = symmetricEigen3(cov1).vectors[0];
      fitted = swing(pca.vectors[0], dot(moved, pca.vectors[0]) < 0 ? moved.map((x) => -x) as V3 : moved);
    }
    const axes = group.axes ?? [pca.vectors[0], pca.vectors[1], cross(pca.vectors[0], pca.vectors[1])];
    let applied = IDENTITY;
    if (group.rotation === "full") applied = fitted;
    if (group.rotation === "primary" || group.rotation === "secondary") {
      const axis = axes[group.rotation === "secondary" && planar ? 1 : 0];
      applied = swing(axis, unit(times(fitted, axis)));
    }
    const ratios = axes.map((axis) => {
      const spread0 = Math.sqrt(dot(axis, times(cov0, axis)));
      const turned = times(fitted, axis);
      // A direction the reference vertices do not span (thinner than a thousandth of their widest,
      // as three vertices are across their plane) has no stretch to measure: 1. Read as a ratio of
      // two roundings, it was any number (a 3-vertex earring 33 cm off at seed 21540).
      const measured = spread0 > Math.max(1e-9, 1e-3 * Math.sqrt(Math.max(pca.values[0], 0)));
      return measured ? Math.sqrt(dot(turned, times(cov1, turned))) / spread0 : 1;
    });
    const modes = ["primary", "secondary", "tertiary"];
    const stretch = outerSum(axes.map((axis, i) => {
      const mode = group.scale[i];
      return [mode === "none" ? 1 : ratios[modes.indexOf(mode)], axis, axis];
    }));
    const linear = matMul(applied, stretch);
    for (const i of group.mask) {
      const w = weights ? Math.min(weights[i], 1) : 1;
      if (!(w > 0)) continue;
      const rigid = times(linear, sub(before[i], c0)).map((x, k) => x + c1[k]);
      out[i] = rigid.map((x, k) => w * x + (1 - w) * after[i][k]) as V3;
    }
  }
  return out;
}
