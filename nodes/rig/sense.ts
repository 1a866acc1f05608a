/**
 * Which way a positive hinge angle must move a panel's far edge, and the test that signs a hinge
 * axis by trying it: the far edge is turned by a small positive angle through the same parent
 * transform the pivot will live under, and the axis is flipped if the edge went the wrong way. A
 * cross product alone gets this wrong under a mirrored ancestor, where a positive local rotation is
 * a negative world rotation.
 *
 * @module
 */
import type { Sense } from "./kinds.ts";
import {
  dot,
  invertAffine,
  linearDeterminant,
  type Mat4,
  normalize,
  rotatePointAboutAxis,
  sub,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";

/** A wanted far-edge motion (aircraft coordinates) and the interop `positive` word for it. */
export interface WantedMotion {
  readonly direction: Vec3;
  readonly positive: string;
}

const UP: Vec3 = [0, 1, 0];
const DOWN: Vec3 = [0, -1, 0];
const RIGHT: Vec3 = [0, 0, -1];

/**
 * Panels closer to upright than this (|normal · up| below it) move sideways, like a rudder, when
 * their kind says "trailing edge down" (a trim tab on a fin, a vertical ventral surface).
 */
const UPRIGHT_NORMAL_UP = 0.35;

/**
 * The motion a kind's positive angle should give its far edge.
 *
 * @param normal Unit panel normal, aircraft coordinates.
 * @param opening For brakes and split surfaces: `"up"`, `"down"`, or the outward body normal.
 */
export function wantedMotion(
  sense: Sense,
  normal: Vec3,
  opening: "up" | "down" | Vec3 | undefined,
): WantedMotion {
  switch (sense) {
    case "trailing_edge_down":
      return Math.abs(dot(normal, UP)) < UPRIGHT_NORMAL_UP
        ? { direction: RIGHT, positive: "trailing_edge_right" }
        : { direction: DOWN, positive: "trailing_edge_down" };
    case "trailing_edge_right":
      return { direction: RIGHT, positive: "trailing_edge_right" };
    case "leading_edge_down":
      return { direction: DOWN, positive: "leading_edge_down" };
    case "trailing_edge_up":
      return opening === "down"
        ? { direction: DOWN, positive: "trailing_edge_down" }
        : { direction: UP, positive: "trailing_edge_up" };
    case "open":
      if (opening === "up" || opening === undefined) return { direction: UP, positive: "open" };
      if (opening === "down") return { direction: DOWN, positive: "open" };
      return { direction: opening, positive: "open" };
  }
}

/** The signed hinge, parent space and world, with how clearly the trial moved the way wanted. */
export interface SignedHinge {
  /** Unit axis in parent space. */
  readonly axis: Vec3;
  /** Unit world axis about which a positive angle turns (right-hand rule). */
  readonly axisWorld: Vec3;
  /** cos of the angle between the trial motion and the wanted one (after signing; 1 = exactly). */
  readonly agreement: number;
}

const TRIAL_ANGLE = 0.01;

/**
 * Signs a hinge axis by simulation.
 *
 * @param parentWorld World matrix of the node the pivot will be a child of (identity at top level).
 * @param originLocal Hinge point, parent space.
 * @param axisLocal Unit hinge direction, parent space (either sign).
 * @param farEdgeWorld A point on the panel's far edge, world space.
 * @param toAircraft World → aircraft rotation.
 * @param wanted The motion wanted, aircraft coordinates.
 */
export function signHingeBySimulation(
  parentWorld: Mat4,
  originLocal: Vec3,
  axisLocal: Vec3,
  farEdgeWorld: Vec3,
  toAircraft: Mat4,
  wanted: Vec3,
): SignedHinge {
  const inverse = invertAffine(parentWorld);
  const farLocal = transformPoint(inverse, farEdgeWorld);
  const moved = transformPoint(
    parentWorld,
    rotatePointAboutAxis(farLocal, originLocal, axisLocal, TRIAL_ANGLE),
  );
  const motion = normalize(transformDirection(toAircraft, sub(moved, farEdgeWorld)));
  const agreement = dot(motion, wanted);
  const sign = agreement < 0 ? -1 : 1;
  const axis: Vec3 = [axisLocal[0] * sign, axisLocal[1] * sign, axisLocal[2] * sign];
  // A mirroring parent turns a positive local rotation into a negative world one.
  const mirror = linearDeterminant(parentWorld) < 0 ? -1 : 1;
  const world = normalize(transformDirection(parentWorld, axis));
  return {
    axis,
    axisWorld: [world[0] * mirror, world[1] * mirror, world[2] * mirror],
    agreement: Math.abs(agreement),
  };
}
