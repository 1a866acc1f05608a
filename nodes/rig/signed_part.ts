/**
 * The part record `rig.fit_hinge` leaves on a fitted panel: its hinge in the parent's space, signed by
 * trial so a positive angle moves the panel the way its kind's \`positive\` says, with the fit's quality.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import type { AircraftFrame } from "./frame.ts";
import type { FitJudgement } from "./fit_confidence.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { isKruegerFlap, KRUEGER_SPEC, panelSpec } from "./krueger_flaps.ts";
import type { PartAnnotation } from "./part_extras.ts";
import { signHingeBySimulation, wantedMotion } from "./sense.ts";
import type { KeyedRange } from "./keyed_hinge.ts";
import { authoredPivot } from "./authored_pivot.ts";
import {
  canonicalVec3,
  dot,
  IDENTITY,
  invertAffine,
  type Mat4,
  noNegativeZero,
  normalize,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";

/** Which line a panel's hinge follows. */
export type HingeRule = "forward_edge" | "aft_edge" | "quarter_chord" | "all_moving" | "animation";

/** Builds the annotation for one fitted panel: hinge in parent space, signed by trial. */
export function signedPart(
  node: Node,
  part: PartAnnotation,
  fit: HingeFit,
  quality: {
    bins: number;
    vertices: number;
    judgement: FitJudgement;
    mirroredFrom?: string;
    rule: { rule: HingeRule; why?: string };
    keyedRange?: KeyedRange;
  },
  frame: AircraftFrame,
  toAircraft: Mat4,
  opening: "up" | "down" | Vec3 | undefined,
  ctx: RunContext,
): PartAnnotation {
  const spec = panelSpec(node);
  const parent = node.getParentNode();
  const parentWorld = parent ? parent.getWorldMatrix() : IDENTITY;
  const fromAircraft = invertAffine(toAircraft);
  const originWorld = transformPoint(fromAircraft, fit.origin);
  const axisWorldUnsigned = transformDirection(fromAircraft, fit.axis);
  const parentInverse = invertAffine(parentWorld);
  const originLocal = transformPoint(parentInverse, originWorld);
  const axisLocal = normalize(transformDirection(parentInverse, axisWorldUnsigned));
  const wanted = wantedMotion(spec.positive, fit.normal, opening);
  const signed = signHingeBySimulation(
    parentWorld,
    originLocal,
    axisLocal,
    transformPoint(fromAircraft, fit.farEdge),
    toAircraft,
    wanted.direction,
  );
  if (signed.agreement < 0.3) {
    ctx.warn(
      `panel '${node.getName()}': a positive angle moves its far edge only weakly the way a ` +
        `${part.kind} should (agreement ${
          signed.agreement.toFixed(2)
        }); check forward/up (${frame.forward}, ${frame.up})`,
    );
  }
  const originWorldOnLine = transformPoint(parentWorld, originLocal);
  const keyed = quality.keyedRange && keyedLimits(quality.keyedRange, signed.axisWorld);
  return {
    ...part,
    // A Krueger swings down and forward through far more than a droop flap's limits.
    ...(isKruegerFlap(node) ? { min: KRUEGER_SPEC.min, max: KRUEGER_SPEC.max } : {}),
    ...(keyed ? { min: keyed.min, max: keyed.max } : {}),
    positive: wanted.positive,
    hinge: {
      origin: canonicalVec3(originLocal),
      axis: canonicalVec3(signed.axis),
      origin_world: canonicalVec3(originWorldOnLine),
      axis_world: canonicalVec3(signed.axisWorld),
    },
    fit: {
      bins_filled: fit.binsFilled,
      bins: quality.bins,
      inliers: fit.inliers,
      residual: fit.residual,
      chord: fit.chord,
      span: fit.spanLength,
      vertices: quality.vertices,
      confidence: quality.judgement.confidence,
      reasons: quality.judgement.reasons,
      coverage: quality.judgement.coverage,
      source: fit.fromSurface ? "surface" : "vertices",
      ...(quality.mirroredFrom ? { mirrored_from: quality.mirroredFrom } : {}),
      rule: quality.rule.rule,
      ...(quality.rule.why ? { rule_why: quality.rule.why } : {}),
      ...(keyed ? { keyed_range: keyed } : {}),
      authored_pivot: authoredPivot(node, originWorldOnLine, normalize(axisWorldUnsigned)),
    },
  };
}

/**
 * The range a panel's clips key, as the part's own angles: the keyed turns are about the keyed
 * world axis, the part's about its signed one (opposite when the signing flipped it); 0.01°.
 */
function keyedLimits(range: KeyedRange, axisWorld: Vec3): { clips: string[]; min: number; max: number } {
  const sign = dot(range.axisWorld, axisWorld) < 0 ? -1 : 1;
  const [low, high] = sign > 0 ? range.degrees : [-range.degrees[1], -range.degrees[0]];
  const round = (d: number) => noNegativeZero(Math.round(d * 100) / 100);
  return { clips: [...range.clips], min: round(low), max: round(high) };
}
