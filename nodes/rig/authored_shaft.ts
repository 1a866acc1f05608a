/**
 * An all-moving surface's shaft where the file's author put it: the part node turned by its author so
 * one of its axes runs along the shaft (as a rigger sets a pivot in Blender: origin on the spindle,
 * an axis along it), its origin within the surface's chord. The rig's own place for the shaft (the
 * MAC's quarter point) is a guess; real spindles sit at 20–45 % of the MAC, placed for hinge moment.
 * A node not turned by its author says nothing: its origin may be anywhere the modeller left it (the
 * world origin, the root, the bounds' centre that Blender's Origin to Geometry sets).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import { dot, type Mat4, multiply, normalize, sub, transformPoint, type Vec3 } from "./transform.ts";

/** Most a turned node's axis may lie off the fitted shaft (degrees) to be read as set along it. */
export const AUTHORED_AXIS_DEGREES = 1;
/**
 * Where along the chord (fractions of the fitted chord, from the quarter point) and how far off the
 * surface's plane an authored origin may lie: from 5 % to 70 % of the chord, within 15 % of it off.
 */
const AFT_RANGE: readonly [number, number] = [-0.2, 0.45], OFF_PLANE = 0.15;

/**
 * The point at mid-span of the shaft through the node's authored origin, or undefined when the node
 * does not show one (not turned by its author, no axis along `fit`'s shaft, its origin outside the
 * surface's chord). `toAircraft` maps world coordinates to the aircraft frame the fit is in.
 *
 * @example
 * ```ts
 * authoredShaft(node, fit, toAircraft); // fit.origin moved onto the spindle the author set, or undefined
 * ```
 */
export function authoredShaft(node: Node, fit: HingeFit, toAircraft: Mat4): Vec3 | undefined {
  const q = node.getRotation();
  if (!(Math.abs(q[3]) < Math.cos((0.5 * Math.PI) / 360))) return undefined;
  const world = multiply(toAircraft, node.getWorldMatrix());
  const cos = Math.cos((AUTHORED_AXIS_DEGREES * Math.PI) / 180);
  const along = [0, 1, 2].some((k) =>
    Math.abs(dot(normalize([world[k * 4], world[k * 4 + 1], world[k * 4 + 2]]), fit.axis)) >= cos
  );
  if (!along) return undefined;
  const d = sub(transformPoint(world, [0, 0, 0]), fit.origin), s = dot(d, fit.axis);
  const aside: Vec3 = [d[0] - fit.axis[0] * s, d[1] - fit.axis[1] * s, d[2] - fit.axis[2] * s];
  const aft = dot(aside, fit.chordDir) / fit.chord, off = Math.abs(dot(aside, fit.normal)) / fit.chord;
  if (!(aft >= AFT_RANGE[0] && aft <= AFT_RANGE[1] && off <= OFF_PLANE)) return undefined;
  return [fit.origin[0] + aside[0], fit.origin[1] + aside[1], fit.origin[2] + aside[2]];
}
