/**
 * The part record `rig.fit_hinge` leaves on a panel that slides (`slide_blades.ts`: a glider's
 * Schempp-Hirth blade): `ctrl_type: "translation"`, unit `m`, its `hinge` the line it slides along —
 * a positive value moves it along the axis, out of its skin — and its limits in the pivot's parent's
 * units (a pivot goes under the panel's parent and slides along its own X there).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import type { PartAnnotation } from "./part_extras.ts";
import type { BladeSlide } from "./slide_blades.ts";
import { authoredPivot } from "./authored_pivot.ts";
import {
  canonicalVec3,
  IDENTITY,
  invertAffine,
  length,
  type Mat4,
  noNegativeZero,
  normalize,
  transformDirection,
  transformPoint,
} from "./transform.ts";

/** Builds the annotation of a sliding panel: the slide in its parent's space, limits in its units. */
export function slidPart(
  node: Node,
  part: PartAnnotation,
  slide: BladeSlide,
  fit: HingeFit,
  quality: { bins: number; vertices: number },
  toAircraft: Mat4,
): PartAnnotation {
  const parent = node.getParentNode();
  const parentWorld = parent ? parent.getWorldMatrix() : IDENTITY;
  const fromAircraft = invertAffine(toAircraft), parentInverse = invertAffine(parentWorld);
  const originWorld = transformPoint(fromAircraft, slide.origin);
  const directionWorld = normalize(transformDirection(fromAircraft, slide.direction));
  const originLocal = transformPoint(parentInverse, originWorld);
  const along = transformDirection(parentInverse, directionWorld);
  // A slide of one world unit is this many of the parent's (a translation is not mirrored, only scaled).
  const perWorld = length(along);
  const round = (x: number) => noNegativeZero(Math.round(x * perWorld * 1e4) / 1e4);
  const reasons = slide.doubt ? [slide.doubt] : [];
  return {
    ...part,
    ctrl_type: "translation",
    unit: "m",
    min: round(slide.min),
    max: round(slide.max),
    positive: "open",
    hinge: {
      origin: canonicalVec3(originLocal),
      axis: canonicalVec3(normalize(along)),
      origin_world: canonicalVec3(transformPoint(parentWorld, originLocal)),
      axis_world: canonicalVec3(directionWorld),
    },
    fit: {
      bins_filled: fit.binsFilled,
      bins: quality.bins,
      inliers: fit.inliers,
      residual: 0,
      chord: slide.height,
      span: slide.span,
      vertices: quality.vertices,
      confidence: slide.doubt ? "weak" : "good",
      reasons,
      coverage: 1,
      source: fit.fromSurface ? "surface" : "vertices",
      rule: "slide",
      rule_why: slide.why,
      slide: {
        surface: slide.surface,
        pose: slide.pose,
        travel: Math.round((slide.max - slide.min) * 1e4) / 1e4,
      },
      authored_pivot: authoredPivot(node, originWorld, directionWorld),
    },
  };
}
