/**
 * Small double-precision 4×4 and quaternion helpers for the rig (column-major, as glTF stores
 * matrices). Written here rather than taken from gl-matrix because gl-matrix defaults to float32
 * arrays and its `rotationTo` snaps directions within ~0.08° of parallel.
 *
 * @module
 */

/** A column-major 4×4 matrix (glTF layout). */
export type Mat4 = ArrayLike<number>;

/** The identity matrix: a transform that leaves points where they are. */
export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
/** A 3-vector. */
export type Vec3 = [number, number, number];
/** A unit quaternion `[x, y, z, w]` (glTF order). */
export type Quat = [number, number, number, number];

/**
 * Inverts a general affine 4×4 (mirrors and non-uniform scale included).
 *
 * @example
 * ```ts
 * const inv = invertAffine(node.getWorldMatrix());
 * ```
 * @throws Error when the matrix is singular (a zero scale collapses the panel; nothing to fit).
 */
export function invertAffine(m: Mat4): number[] {
  const a = m[0], b = m[4], c = m[8];
  const d = m[1], e = m[5], f = m[9];
  const g = m[2], h = m[6], i = m[10];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-300) throw new Error("singular transform");
  const r = 1 / det;
  const inv00 = A * r, inv01 = -(b * i - c * h) * r, inv02 = (b * f - c * e) * r;
  const inv10 = B * r, inv11 = (a * i - c * g) * r, inv12 = -(a * f - c * d) * r;
  const inv20 = C * r, inv21 = -(a * h - b * g) * r, inv22 = (a * e - b * d) * r;
  const tx = m[12], ty = m[13], tz = m[14];
  return [
    inv00,
    inv10,
    inv20,
    0,
    inv01,
    inv11,
    inv21,
    0,
    inv02,
    inv12,
    inv22,
    0,
    -(inv00 * tx + inv01 * ty + inv02 * tz),
    -(inv10 * tx + inv11 * ty + inv12 * tz),
    -(inv20 * tx + inv21 * ty + inv22 * tz),
    1,
  ];
}

/** Determinant of the linear (upper 3×3) part; negative for a mirroring transform. */
export function linearDeterminant(m: Mat4): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
    m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/** Applies an affine matrix to a point. */
export function transformPoint(m: Mat4, p: ArrayLike<number>): Vec3 {
  const x = p[0], y = p[1], z = p[2];
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
  ];
}

/** Applies the linear part of a matrix to a direction (no translation, no normalisation). */
export function transformDirection(m: Mat4, d: ArrayLike<number>): Vec3 {
  const x = d[0], y = d[1], z = d[2];
  return [m[0] * x + m[4] * y + m[8] * z, m[1] * x + m[5] * y + m[9] * z, m[2] * x + m[6] * y + m[10] * z];
}

/** `a · b`. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** `a × b`. */
export function cross(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Euclidean length. */
export function length(a: ArrayLike<number>): number {
  return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/** `a / |a|`, or `[0, 0, 0]` for a zero vector. */
export function normalize(a: ArrayLike<number>): Vec3 {
  const l = length(a);
  return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0];
}

/** `a + b·s`. */
export function addScaled(a: ArrayLike<number>, b: ArrayLike<number>, s: number): Vec3 {
  return [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];
}

/** `a − b`. */
export function sub(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

/** Product of two matrices, `a · b`. */
export function multiply(a: Mat4, b: Mat4): number[] {
  const out = new Array<number>(16);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      out[col * 4 + row] = a[row] * b[col * 4] + a[4 + row] * b[col * 4 + 1] + a[8 + row] * b[col * 4 + 2] +
        a[12 + row] * b[col * 4 + 3];
    }
  }
  return out;
}

/** Quaternion product `a · b` (apply b, then a). */
export function quatMultiply(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** Inverse of a unit quaternion. */
export function quatConjugate(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

/** Rotates a vector by a unit quaternion. */
export function quatRotate(q: Quat, v: ArrayLike<number>): Vec3 {
  const [qx, qy, qz, qw] = q;
  const tx = 2 * (qy * v[2] - qz * v[1]);
  const ty = 2 * (qz * v[0] - qx * v[2]);
  const tz = 2 * (qx * v[1] - qy * v[0]);
  return [
    v[0] + qw * tx + (qy * tz - qz * ty),
    v[1] + qw * ty + (qz * tx - qx * tz),
    v[2] + qw * tz + (qx * ty - qy * tx),
  ];
}

/**
 * The rotation whose columns are the orthonormal right-handed basis `x, y, z` (so local X maps to
 * `x`). Shepperd's method: exact to rounding at any angle, unlike shortest-arc helpers.
 */
export function quatFromBasis(x: Vec3, y: Vec3, z: Vec3): Quat {
  const m00 = x[0], m10 = x[1], m20 = x[2];
  const m01 = y[0], m11 = y[1], m21 = y[2];
  const m02 = z[0], m12 = z[1], m22 = z[2];
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  return canonicalQuat(q);
}

/**
 * Normalises a quaternion to one canonical form: unit length, `w ≥ 0` (first non-zero component
 * positive when `w = 0`), and no `-0`, so equal rotations serialise to equal bytes.
 */
export function canonicalQuat(q: ArrayLike<number>): Quat {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  let out: Quat = [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  const lead = out[3] !== 0 ? out[3] : out[0] !== 0 ? out[0] : out[1] !== 0 ? out[1] : out[2];
  if (lead < 0) out = [-out[0], -out[1], -out[2], -out[3]];
  return out.map(noNegativeZero) as Quat;
}

/** Replaces `-0` by `0` (JSON writes `-0` as `-0`, which would make equal values differ). */
export function noNegativeZero(x: number): number {
  return x === 0 ? 0 : x;
}

/** A vector with `-0` replaced by `0`. */
export function canonicalVec3(v: ArrayLike<number>): Vec3 {
  return [noNegativeZero(v[0]), noNegativeZero(v[1]), noNegativeZero(v[2])];
}

/** Turns point `p` by `angle` radians (right-handed) about the line through `origin` along unit `axis`. */
export function rotatePointAboutAxis(p: Vec3, origin: Vec3, axis: Vec3, angle: number): Vec3 {
  // Rodrigues' formula on p − origin.
  const v = sub(p, origin);
  const c = Math.cos(angle), s = Math.sin(angle);
  const k = cross(axis, v);
  const kd = dot(axis, v) * (1 - c);
  return [
    origin[0] + v[0] * c + k[0] * s + axis[0] * kd,
    origin[1] + v[1] * c + k[1] * s + axis[1] * kd,
    origin[2] + v[2] * c + k[2] * s + axis[2] * kd,
  ];
}
