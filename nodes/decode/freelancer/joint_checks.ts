/**
 * What the resolver checks in a constraint record before placing a part: its rotation (which
 * hand edits and converters leave scaled, mirrored or sheared), its axis (not unit length, or
 * zero) and its offset (zero in every retail record). Each finding is a named warning giving the
 * part, the record kind and its byte offset; what glTF can hold of the matrix is kept (a sheared
 * matrix's warning is `shear_below.ts`'s, once what lies below the part is placed).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../runtime/node.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { readRotation } from "./codec/rotation.ts";
import { conjugate, type Quat, rotate } from "./codec/transform.ts";
import type { ShearedPart } from "./shear_below.ts";

/** `Rev constraint of part 'Gun' (byte 1234)`: how warnings name a record. */
export function describeRecord(record: ConstraintRecord, part: string): string {
  const kind = record.kind[0].toUpperCase() + record.kind.slice(1);
  return `${kind} constraint of part '${part}' (byte ${record.at})`;
}

/**
 * The child's rest rotation (the nearest rotation of the stored matrix). A scale (or mirror) the
 * matrix holds is set on `child`, as the game draws the matrix as stored; a degenerate matrix is named
 * in a warning. A sheared one, which a glTF node cannot hold, goes to `sheared` with what its node
 * leaves undone, for `placeBelowShears` to place what lies below it and name it.
 */
export function restRotation(
  record: ConstraintRecord,
  part: string,
  child: Node,
  warn: WarningSink,
  sheared: ShearedPart[],
): Quat {
  const reading = readRotation(record.rotation);
  if (!reading.problem) {
    // A rotation to within TOLERANCE but off by more than f32 noise (rows typed with three decimals, as
    // FLModelTool writes them): what lies below is placed by the stored matrix, as the game places it
    // (before, a hardpoint 40 units out sat 0.02 units off). Its mesh's difference is under 0.1% of its
    // size, so nothing is said.
    const residual = residualOf(reading.rotation, [1, 1, 1], record.rotation);
    if (residual.some((v, i) => Math.abs(v - IDENTITY[i]) > NOISE)) {
      sheared.push({ record, part, node: child, residual, said: "", quiet: true });
    }
    return reading.rotation;
  }
  child.setScale(reading.scale);
  const kept = reading.scale.every((s) => s === 1)
    ? "drawn unrotated"
    : `drawn with its nearest rotation and scale (${
      reading.scale.map((s) => Math.round(s * 1e4) / 1e4).join(", ")
    })` +
      // glTF viewers flip a mirrored node's winding; Direct3D and Librelancer's GL renderer do not.
      (reading.scale[0] < 0
        ? "; glTF viewers flip its winding, the game does not (it culls the front faces unless two-sided)"
        : "");
  const said = `${describeRecord(record, part)}: rotation ${reading.problem}, not a rotation; ${kept}`;
  if (!reading.sheared) {
    warn(said);
    return reading.rotation;
  }
  const residual = residualOf(reading.rotation, reading.scale, record.rotation);
  sheared.push({ record, part, node: child, residual, said });
  return reading.rotation;
}

/** How far a stored matrix may stray from its rotation and still be that rotation in float32. */
const NOISE = 1e-5;

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Rows of `K = S⁻¹·Qᵀ·M`: what a node's rotation `q` and scale `s` leave undone of the stored `m`. */
function residualOf(q: Quat, s: readonly number[], m: readonly number[]): number[] {
  const qt = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((e) => rotate(conjugate(q), e)); // columns of Qᵀ
  const residual: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      // (Qᵀ·M)[i][j] = Σ_k Qᵀ[i][k]·M[k][j], Qᵀ[i][k] = (Qᵀ·e_k)[i].
      let v = 0;
      for (let k = 0; k < 3; k++) v += qt[k][i] * m[3 * k + j];
      residual.push(v / s[i]);
    }
  }
  return residual;
}

/**
 * Warns about an axis that is not unit length (Freelancer slides a prismatic joint by `axis·d`,
 * so its limits are scaled by the length; a revolute joint turns about its direction, and the part's
 * `construct` extras carry it unit length, since Librelancer builds the turn with `CreateFromAxisAngle`,
 * which does not normalise and would draw the part skewed) or is zero or non-finite (no direction: the
 * game cannot move the part, so it is held at rest). Returns the axis length to scale prismatic limits
 * by (1 for a unit axis, 0 for one with no direction).
 */
export function checkAxis(record: ConstraintRecord, part: string, warn: WarningSink): number {
  const axis = record.axis;
  if (!axis) return 1;
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const stored = `axis (${axis.join(", ")}) at byte ${record.at + AXIS_AT}`;
  if (!hasDirection(axis)) {
    warn(
      `${describeRecord(record, part)}: ${stored} has no direction; the game cannot move the part ` +
        `(a slide by axis·d stays put, a turn about no axis is none: Librelancer draws it squashed), so ` +
        `it is held at rest: limits 0..0, its script keys at rest`,
    );
    return 0;
  }
  if (Math.abs(length - 1) <= 1e-3) return 1;
  const moves = record.kind === "pris" || record.kind === "cyl"
    ? `the game slides axis·d, so the limits are scaled by ${round(length)} to the distance slid (` +
      "LancerEdit's `construct` extras: the unit axis and the scaled limits, the same slide)"
    : "the joint turns about its direction (LancerEdit's `construct` extras: the unit axis, since " +
      "Librelancer turns by CreateFromAxisAngle, which would draw the part skewed)";
  warn(`${describeRecord(record, part)}: ${stored} has length ${round(length)}, not 1; ${moves}`);
  return record.kind === "pris" || record.kind === "cyl" ? length : 1;
}

/** Where a Rev, Pris or Cyl record's axis lies: after the names, translation, offset and rotation. */
const AXIS_AT = 188;

/** Whether an axis has a direction to turn about or slide along (non-zero, finite). */
export function hasDirection(axis: readonly number[] | undefined): boolean {
  if (!axis) return true;
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  return length > 1e-6 && Number.isFinite(length);
}

/**
 * How far a prismatic joint moves per unit of its value: the axis length, as Freelancer slides by
 * `axis·d`; 1 for a unit axis (within f32 noise); 0 for one with no direction (the game cannot move it).
 */
export function slideLength(axis: readonly number[] | undefined): number {
  if (!axis) return 1;
  if (!hasDirection(axis)) return 0;
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  return Math.abs(length - 1) > 1e-3 ? length : 1;
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
