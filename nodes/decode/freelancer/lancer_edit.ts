/**
 * What LancerEdit's glTF importer reads back from a resolved Freelancer model: each part's `construct`
 * extras, and — with `pivots: false`, for a round trip through LancerEdit, whose importer reads every
 * node as a part — each movable part driven as its own pivot, no joint nodes inserted.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../runtime/node.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { conjugate, degrees, multiply, type Quat, xOnto } from "./codec/transform.ts";
import type { JointDof, ResolvedJoint } from "./resolver_run.ts";

const IDENTITY: Quat = [0, 0, 0, 1];

/**
 * A pose without pivots is ignored, said once: LancerEdit's importer reads a part's construct from the
 * node's transform, so a posed part would come back with its pose as its rest.
 */
export function warnNoPivots(pose: Readonly<Record<string, JsonValue>>, warn: WarningSink): void {
  const posed = Object.keys(pose);
  if (posed.length) {
    warn(`pivots off: pose of ${posed.map((p) => `'${p}'`).join(", ")} ignored (every part at rest)`);
  }
}

/**
 * Without pivots, each Rev, Pris and Sphere part is its own pivot for the animation scripts: turned
 * about its joint axis (in the parent's frame) on the left of its rest rotation, or slid along it,
 * from where it rests (below a sheared part, where the stored matrices put it).
 */
export function partsAsPivots(
  records: readonly ConstraintRecord[],
  parts: Map<string, Node>,
): ResolvedJoint[] {
  return records.flatMap((record): ResolvedJoint[] => {
    if (record.kind !== "rev" && record.kind !== "pris" && record.kind !== "sphere") return [];
    const node = parts.get(record.child.toLowerCase())!;
    const frame = record.kind === "sphere" ? IDENTITY : xOnto(record.axis!);
    const dof: JointDof = {
      node,
      ctrl: record.kind === "pris" ? "translation" : "rotation",
      min: record.min ?? 0,
      max: record.max ?? 0,
      restRotation: frame,
      restTranslation: node.getTranslation(),
      after: multiply(conjugate(frame), node.getRotation()),
    };
    return [{ part: node.getName(), kind: record.kind, dofs: [dof] }];
  });
}

/**
 * LancerEdit's per-part constraint extras (what its glTF importer reads back). A Rev or Pris axis is
 * written unit length, the same joint: Librelancer turns a Rev part by `CreateFromAxisAngle(axis, θ)`,
 * which does not normalise (a longer axis draws the part skewed), and LancerEdit reads a Pris script's
 * keys back as distances slid, which the game multiplies by the axis (`axis·d`): a Pris axis of length L
 * carries its limits times L. An axis with no direction is written as stored (the joint moves nothing).
 */
export function lancerConstructExtras(record: ConstraintRecord): Record<string, JsonValue> {
  switch (record.kind) {
    case "rev":
      return {
        construct: "rev",
        min: degrees(record.min!),
        max: degrees(record.max!),
        offset: record.offset!,
        axis_rotation: unitAxis(record.axis!).axis,
      };
    case "pris": {
      const { axis, length } = unitAxis(record.axis!);
      return {
        construct: "pris",
        min: record.min! * length || 0,
        max: record.max! * length || 0,
        offset: record.offset!,
        axis_translation: axis,
      };
    }
    case "sphere": {
      const l = record.limits!;
      return {
        construct: "sphere",
        min: [l[0], l[2], l[4]],
        max: [l[1], l[3], l[5]],
        offset: record.offset!,
      };
    }
    case "cyl":
      return {
        construct: "cyl",
        limits: record.limits!,
        limit_order: record.limit_order ?? "turn_first",
        offset: record.offset!,
        axis: record.axis!,
      };
    default:
      return { construct: record.kind };
  }
}

/**
 * `axis` at unit length and the length it had (Freelancer slides by `axis·d`, so a slide's limits times
 * the length are the same slide); an axis with no direction (zero, non-finite) as stored, length 1.
 */
export function unitAxis(axis: readonly number[]): { axis: number[]; length: number } {
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  if (!(length > 1e-6) || !Number.isFinite(length) || Math.abs(length - 1) <= 1e-3) {
    return { axis: [...axis], length: 1 };
  }
  return { axis: axis.map((v) => v / length), length };
}
