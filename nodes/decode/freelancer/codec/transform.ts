/**
 * Freelancer transform conventions in glTF terms. The nine stored floats are the rows of a
 * column-vector rotation R (`p_parent = R·p_child + t`); glTF wants a unit quaternion.
 *
 * @module
 */
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat3, quat, vec3 } from "gl-matrix/esm/index.js";

/** A quaternion `[x, y, z, w]`. */
export type Quat = [number, number, number, number];

/** {@link rowsToQuat}'s scratch: gl-matrix's own float32 arrays, so its rounding is unchanged. */
const SCRATCH_M = mat3.create();
const SCRATCH_Q = quat.create();

/**
 * The unit quaternion of a stored rotation (nine floats, rows of R). A non-orthonormal matrix is
 * projected to the nearest-looking rotation by normalising the quaternion; a degenerate one gives
 * identity.
 *
 * @example
 * ```ts
 * rowsToQuat([1, 0, 0, 0, 0, -1, 0, 1, 0]); // 90° about +X
 * ```
 */
export function rowsToQuat(rows: readonly number[]): Quat {
  // gl-matrix mat3 is column-major: column j of R is (rows[j], rows[3 + j], rows[6 + j]). The same
  // float32 scratch every call (the rounding the output depends on), not two new arrays per part and
  // hardpoint: `unit` copies the result out before the next call.
  const m = mat3.set(
    SCRATCH_M,
    rows[0],
    rows[3],
    rows[6],
    rows[1],
    rows[4],
    rows[7],
    rows[2],
    rows[5],
    rows[8],
  );
  const q = quat.fromMat3(SCRATCH_Q, m);
  return unit(q as unknown as number[]);
}

/** Normalises a quaternion; identity when it is degenerate. */
export function unit(q: readonly number[]): Quat {
  const length = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(length > 1e-12) || !Number.isFinite(length)) return [0, 0, 0, 1];
  return [q[0] / length, q[1] / length, q[2] / length, q[3] / length];
}

/** `a·b` of quaternions. */
export function multiply(a: readonly number[], b: readonly number[]): Quat {
  const out = quat.multiply(quat.create(), a as quat, b as quat);
  return [out[0], out[1], out[2], out[3]];
}

/** Inverse of a unit quaternion. */
export function conjugate(q: readonly number[]): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

/** Rotation by `radians` about local +X. */
export function aboutX(radians: number): Quat {
  return [Math.sin(radians / 2), 0, 0, Math.cos(radians / 2)];
}

/**
 * A rotation taking +X onto `axis` (normalised), with the smallest turn; +X itself when the axis
 * is degenerate. Rotating about the result's local X then turns about `axis`.
 */
export function xOnto(axis: readonly number[]): Quat {
  const a = vec3.fromValues(axis[0], axis[1], axis[2]);
  if (!(vec3.length(a) > 1e-12)) return [0, 0, 0, 1];
  vec3.normalize(a, a);
  const q = quat.rotationTo(quat.create(), vec3.fromValues(1, 0, 0), a);
  return unit(q as unknown as number[]);
}

/** Rotates a vector by a unit quaternion. */
export function rotate(q: readonly number[], v: readonly number[]): number[] {
  const out = vec3.transformQuat(vec3.create(), v as vec3, q as quat);
  return [out[0], out[1], out[2]];
}

/**
 * Radians to degrees, rounded to 1e-6°: limits are stored as f32 radians, and the rounding drops
 * conversion noise (90.0000025 → 90) far below f32 precision.
 */
export function degrees(radians: number): number {
  return Math.round(radians * 180 / Math.PI * 1e6) / 1e6;
}
