/**
 * How a part node's own frame, as the model was authored, lies against the hinge or shaft the rig
 * fitted: which of its axes runs nearest the fitted one, how far off, and how far its origin is from
 * the line. A report reader sees from it whether the model already pivoted the part right.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { FitQuality } from "./part_extras.ts";
import { cross, dot, length, normalize, sub, type Vec3 } from "./transform.ts";

/** Compares the part node's own frame with the fitted hinge or shaft (`origin`, unit `axis`; world). */
export function authoredPivot(node: Node, origin: Vec3, axis: Vec3): FitQuality["authored_pivot"] {
  const world = node.getWorldMatrix();
  let best = { axis: "X" as "X" | "Y" | "Z", cos: -1 };
  for (const [k, name] of (["X", "Y", "Z"] as const).entries()) {
    const cos = Math.abs(dot(normalize([world[k * 4], world[k * 4 + 1], world[k * 4 + 2]]), axis));
    if (cos > best.cos) best = { axis: name, cos };
  }
  const toOrigin = sub([world[12], world[13], world[14]], origin);
  return {
    axis: best.axis,
    degrees: (Math.acos(Math.min(1, best.cos)) * 180) / Math.PI,
    offset: length(cross(toOrigin, axis)),
  };
}
