/**
 * The small linear algebra rigidity needs: a Jacobi eigen-solver for symmetric matrices, principal
 * axes of a point set, Horn's closed-form best-fit rotation, and the swing that turns one direction
 * into another. Matrices are row-major `Float64Array`s; vectors are `[x, y, z]` tuples.
 *
 * @module
 */

/** A 3-vector. */
export type Vec3 = [number, number, number];

/**
 * Eigen-decomposition of a symmetric n×n matrix (row-major) by cyclic Jacobi rotations. Returns the
 * eigenvalues in decreasing order and the matching unit eigenvectors, each with its largest
 * component made positive so the result is deterministic.
 *
 * @example
 * ```ts
 * symmetricEigen(new Float64Array([2, 0, 0, 1]), 2).values; // [2, 1]
 * ```
 */
export function symmetricEigen(matrix: Float64Array, n: number): { values: number[]; vectors: number[][] } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 64; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i] || i - j);
  const values = order.map((i) => a[i * n + i]);
  const vectors = order.map((col) => {
    const vec = Array.from({ length: n }, (_, k) => v[k * n + col]);
    let big = 0;
    for (let k = 1; k < n; k++) if (Math.abs(vec[k]) > Math.abs(vec[big]) + 1e-12) big = k;
    return vec[big] < 0 ? vec.map((x) => -x) : vec;
  });
  return { values, vectors };
}

/** Centroid of the points at `indices` in a flat xyz array. */
export function centroid(points: Float64Array, indices: Int32Array): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const i of indices) {
    c[0] += points[i * 3];
    c[1] += points[i * 3 + 1];
    c[2] += points[i * 3 + 2];
  }
  const n = Math.max(indices.length, 1);
  return [c[0] / n, c[1] / n, c[2] / n];
}

/**
 * Principal axes of the points at `indices` about `center`: unit axes ordered primary (largest
 * spread) to tertiary, with their variances.
 */
export function principalAxes(
  points: Float64Array,
  indices: Int32Array,
  center: Vec3,
): { axes: [Vec3, Vec3, Vec3]; variances: Vec3 } {
  const cov = new Float64Array(9);
  for (const i of indices) {
    const d = [points[i * 3] - center[0], points[i * 3 + 1] - center[1], points[i * 3 + 2] - center[2]];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cov[r * 3 + c] += d[r] * d[c];
  }
  const n = Math.max(indices.length, 1);
  for (let k = 0; k < 9; k++) cov[k] /= n;
  const { values, vectors } = symmetricEigen(cov, 3);
  const axes = vectors.map((v) => [v[0], v[1], v[2]] as Vec3) as [Vec3, Vec3, Vec3];
  // Keep the frame right-handed so it is a rotation.
  axes[2] = cross(axes[0], axes[1]);
  return { axes, variances: [Math.max(values[0], 0), Math.max(values[1], 0), Math.max(values[2], 0)] };
}

/**
 * Horn's closed-form rotation (as a row-major 3×3 matrix) that best maps the `before` points onto
 * the `after` points at the same indices, each about its own centroid (least squares).
 */
export function bestFitRotation(
  before: Float64Array,
  after: Float64Array,
  indices: Int32Array,
  c0: Vec3,
  c1: Vec3,
): Float64Array {
  const s = new Float64Array(9);
  for (const i of indices) {
    const a = [before[i * 3] - c0[0], before[i * 3 + 1] - c0[1], before[i * 3 + 2] - c0[2]];
    const b = [after[i * 3] - c1[0], after[i * 3 + 1] - c1[1], after[i * 3 + 2] - c1[2]];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) s[r * 3 + c] += a[r] * b[c];
  }
  const [xx, xy, xz, yx, yy, yz, zx, zy, zz] = s;
  const n = new Float64Array([
    xx + yy + zz,
    yz - zy,
    zx - xz,
    xy - yx,
    yz - zy,
    xx - yy - zz,
    xy + yx,
    zx + xz,
    zx - xz,
    xy + yx,
    -xx + yy - zz,
    yz + zy,
    xy - yx,
    zx + xz,
    yz + zy,
    -xx - yy + zz,
  ]);
  const [w, x, y, z] = symmetricEigen(n, 4).vectors[0];
  return quatToMatrix(w, x, y, z);
}

/** The smallest rotation (row-major 3×3) turning unit vector `from` onto unit vector `to`. */
export function swingRotation(from: Vec3, to: Vec3): Float64Array {
  const d = dot(from, to);
  if (d > 1 - 1e-15) return identity();
  if (d < -1 + 1e-12) {
    // Half turn about any axis perpendicular to `from`.
    const helper: Vec3 = Math.abs(from[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const axis = normalize(cross(from, helper));
    return quatToMatrix(0, axis[0], axis[1], axis[2]);
  }
  const axis = cross(from, to);
  const w = 1 + d;
  const norm = Math.hypot(w, axis[0], axis[1], axis[2]);
  return quatToMatrix(w / norm, axis[0] / norm, axis[1] / norm, axis[2] / norm);
}

/** Row-major rotation matrix of a unit quaternion (w, x, y, z). */
export function quatToMatrix(w: number, x: number, y: number, z: number): Float64Array {
  const norm = Math.hypot(w, x, y, z) || 1;
  w /= norm, x /= norm, y /= norm, z /= norm;
  return new Float64Array([
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ]);
}

/** The 3×3 identity, row-major. */
export function identity(): Float64Array {
  return new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
}

/** `m · v` for a row-major 3×3 matrix. */
export function mulVec(m: Float64Array, v: Vec3): Vec3 {
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

/** `a · b` for row-major 3×3 matrices. */
export function mulMat(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
    }
  }
  return out;
}

/** Dot product. */
export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Cross product. */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Unit vector in the direction of `v` (or `v` itself when it is zero). */
export function normalize(v: Vec3): Vec3 {
  const n = Math.hypot(v[0], v[1], v[2]);
  return n > 0 ? [v[0] / n, v[1] / n, v[2] / n] : v;
}
