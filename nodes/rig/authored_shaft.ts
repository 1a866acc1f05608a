/**
 * An all-moving surface's shaft where the file's author put it: the part node turned by its author so
 * one of its axes runs along the shaft (as a rigger sets a pivot in Blender: origin on the spindle,
 * an axis along it), its origin within the surface's chord. The rig's own place for the shaft (the
 * MAC's quarter point) is a guess; real spindles sit at 20–45 % of the MAC, placed for hinge moment.
 * A node not turned by its author says less: its origin may be where the modeller left it (the world
 * origin, the root's leading edge, the bounds' centre that Blender's Origin to Geometry sets), none of
 * which is taken; one elsewhere in the chord is taken, and said to be.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import { dot, length, type Mat4, multiply, normalize, sub, transformPoint, type Vec3 } from "./transform.ts";

/** Most a turned node's axis may lie off the fitted shaft (degrees) to be read as set along it. */
export const AUTHORED_AXIS_DEGREES = 1;
/**
 * Where along the chord (fractions of the fitted chord, from the quarter point) and how far off the
 * surface's plane an authored origin may lie: from 5 % to 70 % of the chord, within 15 % of it off.
 */
const AFT_RANGE: readonly [number, number] = [-0.2, 0.45], OFF_PLANE = 0.15;

/** Where the shaft through an authored origin lies, and whether its node was turned onto the shaft. */
export interface AuthoredShaft {
  /** The shaft's point at mid-span (aircraft frame). */
  readonly origin: Vec3;
  /** True when the node's author turned it so one of its axes runs along the shaft. */
  readonly turned: boolean;
}

/**
 * The shaft through the node's authored origin, or undefined when the node does not show one: its
 * origin outside the surface's chord, or at its mesh's bounds' centre or vertices' mean (Blender's
 * Origin to Geometry). A node turned by its author must have an axis along `fit`'s shaft; one not turned
 * (an origin snapped onto the spindle, the node left square to the file) is `turned: false`, to be
 * said. `toAircraft` maps world coordinates to the aircraft frame the fit is in.
 *
 * @example
 * ```ts
 * authoredShaft(node, fit, toAircraft)?.origin; // fit.origin moved onto the spindle the author set
 * ```
 */
export function authoredShaft(node: Node, fit: HingeFit, toAircraft: Mat4): AuthoredShaft | undefined {
  const q = node.getRotation(), world = multiply(toAircraft, node.getWorldMatrix());
  const turned = !(Math.abs(q[3]) >= Math.cos((0.5 * Math.PI) / 360));
  const cos = Math.cos((AUTHORED_AXIS_DEGREES * Math.PI) / 180);
  const along = [0, 1, 2].some((k) =>
    Math.abs(dot(normalize([world[k * 4], world[k * 4 + 1], world[k * 4 + 2]]), fit.axis)) >= cos
  );
  if (turned && !along) return undefined;
  const at = transformPoint(world, [0, 0, 0]);
  const d = sub(at, fit.origin), s = dot(d, fit.axis);
  const aside: Vec3 = [d[0] - fit.axis[0] * s, d[1] - fit.axis[1] * s, d[2] - fit.axis[2] * s];
  const aft = dot(aside, fit.chordDir) / fit.chord, off = Math.abs(dot(aside, fit.normal)) / fit.chord;
  if (!(aft >= AFT_RANGE[0] && aft <= AFT_RANGE[1] && off <= OFF_PLANE)) return undefined;
  if (!turned && !awayFromCentres(node, world, at, fit.chord)) return undefined;
  return { origin: [fit.origin[0] + aside[0], fit.origin[1] + aside[1], fit.origin[2] + aside[2]], turned };
}

/** How near (share of the chord) an origin at its mesh's bounds' centre or vertices' mean lies to them. */
const AT_CENTRE = 0.03;

/**
 * True when the node's origin (`at`, aircraft frame) is away from both its own mesh's bounds' centre and
 * its vertices' mean (either is where Blender's Origin to Geometry puts it); false for a node without
 * a mesh of its own (nothing to tell by).
 */
function awayFromCentres(node: Node, world: Mat4, at: Vec3, chord: number): boolean {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], sum = [0, 0, 0];
  let n = 0;
  const p = [0, 0, 0];
  for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
    const position = primitive.getAttribute("POSITION");
    for (let i = 0; position && i < position.getCount(); i++) {
      position.getElement(i, p);
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], p[c]), hi[c] = Math.max(hi[c], p[c]), sum[c] += p[c];
      }
      n++;
    }
  }
  if (!n) return false;
  const near = (local: number[]) => length(sub(transformPoint(world, local), at)) <= AT_CENTRE * chord;
  return !near(lo.map((v, c) => (v + hi[c]) / 2)) && !near(sum.map((v) => v / n));
}
