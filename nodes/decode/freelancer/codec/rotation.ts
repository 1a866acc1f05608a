/**
 * Reading a stored 3×3 "rotation" that may not be one. Every retail joint rotation and hardpoint
 * orientation is orthonormal with determinant +1, but matrices typed into a UTF editor, scaled in a
 * modelling tool or converted from another game can be scaled, mirrored, sheared or degenerate.
 * The game and Librelancer use the nine floats as a matrix as stored, so a scaled matrix draws the
 * part scaled; a quaternion alone drops that silently. This module splits such a matrix into the
 * nearest rotation and a per-axis scale (what a glTF node can hold) and says what it found.
 *
 * @module
 */
import { type Quat, rowsToQuat } from "./transform.ts";

/** How far (relative) a column's length or two columns' cosine may stray before it is not a rotation. */
const TOLERANCE = 1e-3;

/** A stored matrix as a glTF node can hold it. */
export interface RotationReading {
  /** The nearest proper rotation (identity when the matrix is degenerate). */
  readonly rotation: Quat;
  /** Per-axis scale, the lengths of R's columns; x negative when mirrored. `[1, 1, 1]` for a rotation. */
  readonly scale: [number, number, number];
  /** What is wrong with it, in words (`scaled by (2, 2, 2)`); absent for a rotation within f32 noise. */
  readonly problem?: string;
  /** True when the matrix holds a shear, which a node's translation/rotation/scale cannot express. */
  readonly sheared?: boolean;
}

/**
 * Reads nine floats (the rows of R, `p_parent = R·p_child + t`). A rotation within f32 noise takes
 * the same path as before (`rowsToQuat`), so retail output is unchanged.
 *
 * @example
 * ```ts
 * readRotation([2, 0, 0, 0, 2, 0, 0, 0, 2]); // identity rotation, scale [2, 2, 2], problem "scaled by (2, 2, 2)"
 * ```
 */
export function readRotation(rows: readonly number[]): RotationReading {
  // Nearly every stored matrix is a rotation: tell so without the arrays the general reading builds
  // (two readings per hardpoint, one per joint), by the same arithmetic as below.
  if (isRotation(rows)) return { rotation: rowsToQuat(rows), scale: [1, 1, 1] };
  const col = (j: number) => [rows[j], rows[3 + j], rows[6 + j]];
  const cols = [col(0), col(1), col(2)];
  const lengths = cols.map((c) => Math.hypot(c[0], c[1], c[2]));
  const det = determinant(rows);
  if (
    !rows.slice(0, 9).every(Number.isFinite) || lengths.some((l) => !(l > 1e-6)) || !(Math.abs(det) > 1e-9)
  ) {
    return {
      rotation: [0, 0, 0, 1],
      scale: [1, 1, 1],
      problem: `is degenerate (determinant ${round(det)}, axis lengths ${list(lengths)})`,
    };
  }
  let worstCos = 0;
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
    worstCos = Math.max(worstCos, Math.abs(dot(cols[i], cols[j])) / (lengths[i] * lengths[j]));
  }
  const sheared = worstCos > TOLERANCE;
  const scaled = lengths.some((l) => Math.abs(l - 1) > TOLERANCE);
  const mirrored = det < 0;
  if (!sheared && !scaled && !mirrored) return { rotation: rowsToQuat(rows), scale: [1, 1, 1] };
  // Mirror about the child's X so the rest is proper, then take the nearest rotation (polar).
  const sign = mirrored ? -1 : 1;
  const unitRows = rows.slice(0, 9).map((v, k) => v * (k % 3 === 0 ? sign : 1) / lengths[k % 3]);
  const scale: [number, number, number] = [sign * lengths[0], lengths[1], lengths[2]];
  const problems: string[] = [];
  if (scaled) problems.push(`scaled by (${list(lengths)})`);
  if (mirrored) problems.push("mirrored (determinant < 0)");
  if (sheared) {
    const degrees = 90 - Math.acos(Math.min(1, worstCos)) * 180 / Math.PI;
    problems.push(`sheared (axes ${round(degrees)}° off square)`);
  }
  return {
    rotation: rowsToQuat(nearestRotation(unitRows)),
    scale,
    problem: `is ${problems.join(", ")}`,
    ...(sheared ? { sheared: true } : {}),
  };
}

/**
 * True when {@link readRotation}'s general path would find `rows` finite, of unit axes, square and
 * proper (none of its problems): the same sums in the same order, on numbers instead of arrays.
 */
function isRotation(rows: readonly number[]): boolean {
  const a0 = rows[0], a1 = rows[3], a2 = rows[6];
  const b0 = rows[1], b1 = rows[4], b2 = rows[7];
  const c0 = rows[2], c1 = rows[5], c2 = rows[8];
  if (
    !(Number.isFinite(a0) && Number.isFinite(b0) && Number.isFinite(c0) && Number.isFinite(a1) &&
      Number.isFinite(b1) && Number.isFinite(c1) && Number.isFinite(a2) && Number.isFinite(b2) &&
      Number.isFinite(c2))
  ) return false;
  const la = Math.hypot(a0, a1, a2), lb = Math.hypot(b0, b1, b2), lc = Math.hypot(c0, c1, c2);
  if (!(Math.abs(la - 1) <= TOLERANCE && Math.abs(lb - 1) <= TOLERANCE && Math.abs(lc - 1) <= TOLERANCE)) {
    return false;
  }
  const det = determinant(rows);
  if (!(Math.abs(det) > 1e-9) || det < 0) return false;
  return Math.abs(a0 * b0 + a1 * b1 + a2 * b2) / (la * lb) <= TOLERANCE &&
    Math.abs(a0 * c0 + a1 * c1 + a2 * c2) / (la * lc) <= TOLERANCE &&
    Math.abs(b0 * c0 + b1 * c1 + b2 * c2) / (lb * lc) <= TOLERANCE;
}

/** Polar decomposition by Newton iteration `Q ← (Q + Q⁻ᵀ)/2`; converges for det > 0. */
function nearestRotation(rows: number[]): number[] {
  let q = rows;
  for (let i = 0; i < 30; i++) {
    const inv = inverseTranspose(q);
    const next = q.map((v, k) => (v + inv[k]) / 2);
    const change = Math.max(...next.map((v, k) => Math.abs(v - q[k])));
    q = next;
    if (change < 1e-12) break;
  }
  return q;
}

function determinant(m: readonly number[]): number {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
    m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** (M⁻¹)ᵀ = cofactor matrix / det. */
function inverseTranspose(m: readonly number[]): number[] {
  const d = determinant(m);
  return [
    (m[4] * m[8] - m[5] * m[7]) / d,
    -(m[3] * m[8] - m[5] * m[6]) / d,
    (m[3] * m[7] - m[4] * m[6]) / d,
    -(m[1] * m[8] - m[2] * m[7]) / d,
    (m[0] * m[8] - m[2] * m[6]) / d,
    -(m[0] * m[7] - m[1] * m[6]) / d,
    (m[1] * m[5] - m[2] * m[4]) / d,
    -(m[0] * m[5] - m[2] * m[3]) / d,
    (m[0] * m[4] - m[1] * m[3]) / d,
  ];
}

function dot(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

function list(values: readonly number[]): string {
  return values.map(round).join(", ");
}
