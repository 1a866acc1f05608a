/**
 * The aircraft frame: aft, up and left as unit vectors of the scene's (glTF) axes, built from the
 * `forward`/`up` parameters every rig node takes. `"auto"` uses the frame a decoder recorded with
 * `setSourceInfo`, falling back to the defaults (−Z forward, +Y up, as three.js models face).
 *
 * Aircraft coordinates are (aft, up, left): right-handed, so a mirrored model never mirrors the
 * maths.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { EnumParam } from "../../runtime/node.ts";
import { AXES, type Axis, getSourceInfo } from "../../runtime/scene/source.ts";
import { cross, dot, type Vec3 } from "./transform.ts";

/** Default forward axis. */
export const DEFAULT_FORWARD: Axis = "-Z";
/** Default up axis. */
export const DEFAULT_UP: Axis = "+Y";

/** The frame values a rig node accepts. */
export type FrameChoice = Axis | "auto";

/** The `forward` parameter every frame-aware rig node declares. */
export const FORWARD_PARAM: EnumParam = {
  type: "enum",
  values: ["auto", ...AXES],
  default: DEFAULT_FORWARD,
  doc: 'The aircraft\'s nose direction in scene axes; "auto" uses the frame the decoder recorded.',
};

/** The `up` parameter every frame-aware rig node declares. */
export const UP_PARAM: EnumParam = {
  type: "enum",
  values: ["auto", ...AXES],
  default: DEFAULT_UP,
  doc: 'The aircraft\'s up direction in scene axes; "auto" uses the frame the decoder recorded.',
};

/** An orthonormal aircraft frame in scene axes, plus the scene's unit when known. */
export interface AircraftFrame {
  readonly forward: Axis;
  readonly up: Axis;
  /** Unit vector toward the tail. */
  readonly aftDir: Vec3;
  /** Unit vector up. */
  readonly upDir: Vec3;
  /** Unit vector toward the aircraft's left (`aft × up`). */
  readonly leftDir: Vec3;
  /**
   * Metres per scene unit: 1 for a plain glTF scene (the spec's unit), the decoder's value when it
   * recorded one, null when the decoder said the unit is unknown.
   */
  readonly metresPerUnit: number | null;
  /** True when `forward` was `"auto"` and the scene recorded no usable frame, so the default is used. */
  readonly forwardDefaulted: boolean;
}

/** A signed axis as a unit vector. */
export function axisVector(axis: Axis): Vec3 {
  const sign = axis[0] === "-" ? -1 : 1;
  const index = "XYZ".indexOf(axis[1]);
  const v: Vec3 = [0, 0, 0];
  v[index] = sign;
  return v;
}

/**
 * Builds the frame for a scene from the node's `forward`/`up` parameters.
 *
 * @example
 * ```ts
 * const frame = resolveFrame(doc, "+Z", "+Y"); // Blender/glTF-spec front
 * frame.leftDir; // [1, 0, 0]
 * ```
 * @throws Error when forward and up are parallel.
 */
export function resolveFrame(doc: Document, forward: string, up: string): AircraftFrame {
  const source = getSourceInfo(doc);
  // A file may carry an edited or foreign record: a frame that is no perpendicular pair of axes is
  // not used, and an unusable unit counts as unknown.
  const recorded = source && AXES.includes(source.forward) && AXES.includes(source.up) &&
      Math.abs(dot(axisVector(source.forward), axisVector(source.up))) < 0.5
    ? source
    : undefined;
  const f = (forward === "auto" ? recorded?.forward ?? DEFAULT_FORWARD : forward) as Axis;
  const u = (up === "auto" ? recorded?.up ?? DEFAULT_UP : up) as Axis;
  if (!AXES.includes(f) || !AXES.includes(u)) throw new Error(`unknown frame axes forward=${f} up=${u}`);
  const forwardDir = axisVector(f);
  const upDir = axisVector(u);
  if (Math.abs(dot(forwardDir, upDir)) > 0.5) {
    throw new Error(`forward ${f} and up ${u} are parallel; they must be perpendicular`);
  }
  const aftDir: Vec3 = [-forwardDir[0], -forwardDir[1], -forwardDir[2]];
  const unit = source?.metresPerUnit;
  const metresPerUnit = !source ? 1 : typeof unit === "number" && unit > 0 && unit < Infinity ? unit : null;
  return {
    forward: f,
    up: u,
    aftDir,
    upDir,
    leftDir: cross(aftDir, upDir),
    metresPerUnit,
    forwardDefaulted: forward === "auto" && !recorded,
  };
}

/** The opposite signed axis (`+Z` → `-Z`). */
export function oppositeAxis(axis: Axis): Axis {
  return `${axis[0] === "-" ? "+" : "-"}${axis[1]}` as Axis;
}

/** Scene → aircraft coordinates of a direction or of a point (the frame has no translation). */
export function toAircraft(frame: AircraftFrame, v: ArrayLike<number>): Vec3 {
  return [dot(frame.aftDir, v), dot(frame.upDir, v), dot(frame.leftDir, v)];
}

/**
 * The scene → aircraft rotation as a column-major 4×4, to fold into a world matrix so vertices are
 * transformed once.
 */
export function aircraftMatrix(frame: AircraftFrame): number[] {
  const { aftDir: a, upDir: u, leftDir: l } = frame;
  return [a[0], u[0], l[0], 0, a[1], u[1], l[1], 0, a[2], u[2], l[2], 0, 0, 0, 0, 1];
}
