/**
 * The aircraft frame: aft, up and left as unit vectors of the scene's (glTF) axes, built from the
 * `forward`/`up` parameters every rig node takes. `"auto"` uses the frame a decoder recorded with
 * `setSourceInfo`, else the one `rig.fit_hinge` found from the geometry and recorded, else finds it
 * from the geometry ({@link detectFrame}), falling back to the defaults (−Z forward, +Y up, as
 * three.js models face) when the geometry cannot tell.
 *
 * Aircraft coordinates are (aft, up, left): right-handed, so a mirrored model never mirrors the
 * maths.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { AXES, type Axis, getSourceInfo } from "../../runtime/scene/source.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../runtime/scene/extras.ts";
import { type DetectedFrame, detectFrame } from "./frame_detect.ts";
import { cross, dot, type Vec3 } from "./transform.ts";
import { DEFAULT_FORWARD, DEFAULT_UP } from "./frame_params.ts";

export { DEFAULT_FORWARD, DEFAULT_UP, FORWARD_PARAM, type FrameChoice, UP_PARAM } from "./frame_params.ts";

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
  /** True when `forward` was `"auto"`, the scene recorded no usable frame and the geometry could not tell. */
  readonly forwardDefaulted: boolean;
  /** The frame found from the geometry, when `"auto"` found it there (now or in an earlier node). */
  readonly detected?: DetectedFrame;
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
  const recorded = source && isFrame(source.forward, source.up) ? source : undefined;
  const auto = forward === "auto" || up === "auto";
  const detected = auto && !recorded ? recordedDetection(doc) ?? detectFrame(doc) : undefined;
  const found = recorded ?? detected;
  let f = (forward === "auto" ? found?.forward ?? DEFAULT_FORWARD : forward) as Axis;
  let u = (up === "auto" ? found?.up ?? DEFAULT_UP : up) as Axis;
  if (!AXES.includes(f) || !AXES.includes(u)) throw new Error(`unknown frame axes forward=${f} up=${u}`);
  // One axis given, the other found: when they clash, the found one gives way to the default.
  if (!isFrame(f, u) && forward === "auto" && up !== "auto") f = u[1] === "Z" ? "+X" : DEFAULT_FORWARD;
  if (!isFrame(f, u) && up === "auto" && forward !== "auto") u = f[1] === "Y" ? "+Z" : DEFAULT_UP;
  if (!isFrame(f, u)) {
    throw new Error(`forward ${f} and up ${u} are parallel; they must be perpendicular`);
  }
  const forwardDir = axisVector(f);
  const upDir = axisVector(u);
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
    forwardDefaulted: forward === "auto" && !found,
    ...(detected ? { detected } : {}),
  };
}

/** True for a perpendicular pair of known axes. */
function isFrame(forward: unknown, up: unknown): boolean {
  return AXES.includes(forward as Axis) && AXES.includes(up as Axis) &&
    Math.abs(dot(axisVector(forward as Axis), axisVector(up as Axis))) < 0.5;
}

/**
 * Records a frame found from the geometry on the scene (`extras.partgraph.frame` of the default
 * scene), so later rig nodes under `"auto"` use the same frame even if names or pieces changed.
 */
export function recordDetection(doc: Document, detected: DetectedFrame): void {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return;
  setPartgraphExtras(scene, {
    frame: {
      forward: detected.forward,
      up: detected.up,
      confidence: detected.confidence,
      reasons: [...detected.reasons],
    },
  });
}

/** The frame {@link recordDetection} stored, when it is a usable one. */
function recordedDetection(doc: Document): DetectedFrame | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const frame = scene ? getPartgraphExtras(scene).frame : undefined;
  if (!frame || typeof frame !== "object" || Array.isArray(frame)) return undefined;
  const { forward, up, confidence, reasons } = frame as Record<string, unknown>;
  if (!isFrame(forward, up) || (confidence !== "good" && confidence !== "weak")) return undefined;
  const lines = Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === "string") : [];
  return { forward: forward as Axis, up: up as Axis, confidence, reasons: lines };
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
