/**
 * Posing decoded DSON nodes in a glTF scene: a node's current pose channels read back from its
 * local transform, the channels a preset (or a formula) sets put in, and the local transform the
 * decoder gives a node with those values set again; own scales composed as Daz does once every
 * node is posed. Rigid followers `decode.dson` re-parented are posed in their written parent's
 * frame. Used by `preset_apply.ts`.
 *
 * @module
 */
import {
  type Document,
  type mat4,
  MathUtils,
  type Node,
  PropertyType,
  type Scene,
  type vec3 as Vec3Type,
  type vec4,
} from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { quat, vec3 } from "gl-matrix/esm/index.js";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { METRES_PER_CM } from "./model.ts";
import { invert, matrix, multiply, snapToOne } from "./matrix64.ts";
import type { JointChannel } from "./preset_read.ts";
import { eulerDegrees, eulerQuat, type PoseFrame, poseTransform, scaleDivisor } from "./rest_pose.ts";
import type { Vec3 } from "./rigid_fit.ts";

/** A decoded node's DSON record (the fields a pose needs). */
export interface NodeRecord {
  center_point: Vec3;
  orientation: Vec3;
  rotation_order: string;
  /** False for a node whose glTF scale undoes its parent's own scale (see `scaleDivisor`). */
  inherits_scale?: boolean;
  /**
   * Per axis, what the glTF scale of a node that does not inherit an uneven scale carries beyond its
   * own (`fitUninherited` in `scale_composition.ts`; decode.dson v68).
   */
  scale_fit?: Vec3;
}

/** A node's DSON record, when it has the fields a pose needs. */
export function record(node: Node): NodeRecord | undefined {
  const dson = getPartgraphExtras(node).dson as Partial<NodeRecord> | undefined;
  const vec = (v: unknown) => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number");
  return dson && vec(dson.center_point) && vec(dson.orientation) && typeof dson.rotation_order === "string"
    ? dson as NodeRecord
    : undefined;
}

/**
 * A node's DSON key (`extras.partgraph.dson.key`: its node instance's id, unique in the scene, which
 * formulas and rigid followers name it by), when it has one.
 */
export function dsonKey(node: Node): string | undefined {
  const key = (getPartgraphExtras(node).dson as { key?: unknown } | undefined)?.key;
  return typeof key === "string" ? key : undefined;
}

/**
 * Every DSON node's own (DSON local) scale: its glTF scale, times the divisor the decoder took from
 * its parent's own scale when it does not inherit scale (over the `scale_fit` it took under an uneven
 * one, which a node that inherits scale takes too where a right-angle turn makes it exact). Parents
 * come before their children.
 */
export function dsonScales(doc: Document): Map<Node, Vec3> {
  const scales = new Map<Node, Vec3>();
  const visit = (node: Node, parentScale: Vec3 | undefined) => {
    const own = record(node);
    let scale = [...node.getScale()] as Vec3;
    const fit = own?.scale_fit;
    if (own && isScaleFit(fit)) {
      scale = scale.map((v, k) => v / fit[k]) as Vec3;
    } else if (own && own.inherits_scale === false && parentScale) {
      const divisor = scaleDivisor(parentScale);
      scale = scale.map((v) => v * divisor) as Vec3;
    }
    if (own) scales.set(node, scale);
    for (const child of node.listChildren()) visit(child, own ? scale : undefined);
  };
  for (const scene of doc.getRoot().listScenes()) {
    for (const root of scene.listChildren()) visit(root, undefined);
  }
  return scales;
}

/** True for a usable `scale_fit`: three finite numbers, none 0. */
export function isScaleFit(fit: unknown): fit is Vec3 {
  return Array.isArray(fit) && fit.length === 3 &&
    fit.every((v) => typeof v === "number" && Number.isFinite(v) && v !== 0);
}

/**
 * Gives each node whose own scale a preset changed, and each child of one, the glTF scale that
 * composes as Daz does: its own scale, divided by its parent's where it does not inherit scale.
 * Nodes the preset left alone keep their glTF scale exactly, and so do the `placed` rigid followers
 * (set through their `parent_offset` already: only their children are compensated). Under a parent
 * scaled unevenly a node keeps its own scale here: `fitPresetScales` (`preset_scale_check.ts`) fits
 * the nearest, as the decode does.
 */
export function applyScales(
  rescaled: ReadonlySet<Node>,
  scales: ReadonlyMap<Node, Vec3>,
  placed: ReadonlySet<Node>,
): void {
  const touched = new Set<Node>();
  for (const node of rescaled) {
    if (!placed.has(node)) touched.add(node);
    for (const child of node.listChildren()) if (scales.has(child)) touched.add(child);
  }
  for (const node of touched) {
    const parent = node.getParentNode();
    const parentScale = parent && scales.get(parent);
    const compensated = record(node)!.inherits_scale === false && parentScale;
    const divisor = compensated ? scaleDivisor(parentScale) : 1;
    node.setScale(scales.get(node)!.map((v) => v / divisor) as Vec3);
  }
}

/** What {@link repose} records for {@link applyScales}. */
export interface Rescaling {
  /** Each DSON node's own scale. */
  readonly scales: Map<Node, Vec3>;
  /** Nodes whose own scale the preset changed. */
  readonly rescaled: Set<Node>;
  /** Rigid followers posed through their `parent_offset`: their glTF scale is set. */
  readonly placed: Set<Node>;
}

/**
 * Sets the preset's channels on a node: the pose it has now (read back from its local transform,
 * and its own scale from `scales`) with the preset's values replacing the channels the preset
 * names. A changed own scale goes into `scales`, and the node into `rescaled`, for
 * {@link applyScales} to set once every node is posed (a rigid follower sets its own, and is
 * recorded so that only its children are compensated).
 */
export function repose(
  node: Node,
  values: Map<JointChannel, number>,
  { scales, rescaled, placed }: Rescaling,
): void {
  const own = record(node)!;
  const follow = followRecord(node);
  const parentNode = follow ? follow.parent : node.getParentNode();
  const parent = parentNode ? record(parentNode) : undefined;
  const parentFrame = parent && { centerPoint: parent.center_point, orientation: parent.orientation };
  // A rigid follower sits under the joint it follows: its pose is read, and set, in its written
  // parent's frame, `offset` being that frame in the joint's (see `follow_parent.ts`).
  const local = follow ? trs(multiply(follow.inverse, node.getMatrix())) : nodeTrs(node);
  const pose = {
    ...currentPose(local, own, parentFrame),
    scale: follow ? local.scale : [...scales.get(node)!] as Vec3,
  };
  const scaleBefore = [...pose.scale];
  let generalScale = pose.generalScale;
  for (const [channel, value] of values) {
    if (channel === "scale/general") generalScale = value;
    else {
      const [kind, axis] = channel.split("/") as ["rotation" | "translation" | "scale", "x" | "y" | "z"];
      pose[kind]["xyz".indexOf(axis)] = value;
    }
  }
  const { translation, rotation, scale } = poseTransform({ ...pose, generalScale }, parentFrame);
  if (follow) {
    const where = trs(multiply(follow.offset, MathUtils.compose(translation, rotation, scale, matrix())));
    node.setTranslation(where.translation).setRotation(where.rotation).setScale(where.scale);
    if (scale.some((v, k) => v !== scaleBefore[k])) {
      // Its children that do not inherit scale are compensated by its own (DSON) scale.
      scales.set(node, [...scale] as Vec3);
      rescaled.add(node);
      placed.add(node);
    }
    return;
  }
  node.setTranslation(translation).setRotation(rotation);
  if (scale.some((v, k) => v !== scales.get(node)![k])) {
    scales.set(node, [...scale] as Vec3);
    rescaled.add(node);
  }
}

/**
 * The pose channels that give a node its current local transform: the inverse of
 * {@link poseTransform}. A decoded general scale is folded into x, y and z.
 */
export function currentPose(
  node: LocalTrs,
  own: NodeRecord,
  parent: { centerPoint: Vec3; orientation: Vec3 } | undefined,
): PoseFrame {
  const parentRotation = parent ? eulerQuat(parent.orientation, "XYZ") : quat.create();
  const inverseOrientation = quat.invert(quat.create(), eulerQuat(own.orientation, "XYZ"));
  const pose = quat.multiply(quat.create(), inverseOrientation, parentRotation);
  quat.multiply(pose, pose, node.rotation as unknown as quat);
  const offset = vec3.transformQuat(vec3.create(), node.translation as unknown as vec3, parentRotation);
  const translation = [0, 1, 2].map((k) =>
    offset[k] / METRES_PER_CM - (own.center_point[k] - (parent?.centerPoint[k] ?? 0))
  ) as Vec3;
  return {
    centerPoint: own.center_point,
    orientation: own.orientation,
    rotationOrder: own.rotation_order,
    rotation: eulerDegrees(pose, own.rotation_order),
    translation,
    scale: [...node.scale] as Vec3,
    generalScale: 1,
  };
}

/** A local transform as translation, rotation (quaternion) and scale. */
export interface LocalTrs {
  readonly translation: Vec3;
  readonly rotation: [number, number, number, number];
  readonly scale: Vec3;
}

/** A node's local transform as {@link LocalTrs}. */
export function nodeTrs(node: Node): LocalTrs {
  return { translation: node.getTranslation(), rotation: node.getRotation(), scale: node.getScale() };
}

/**
 * A re-parented rigid follower's written parent (found by its DSON key) and `parent_offset`, or
 * undefined for any other node (or a record edited into something unusable: posed in place).
 */
function followRecord(node: Node): { parent: Node | null; offset: mat4; inverse: mat4 } | undefined {
  const dson = getPartgraphExtras(node).dson as {
    rigid_follow?: { parent?: unknown; parent_offset?: unknown };
  };
  const follow = dson?.rigid_follow;
  const offset = follow?.parent_offset as mat4 | undefined;
  if (!Array.isArray(offset) || offset.length !== 16 || !offset.every(Number.isFinite)) return undefined;
  const inverse = invert(offset);
  if (!inverse) return undefined;
  if (follow!.parent === null) return { parent: null, offset, inverse };
  const parent = findByKey(node, String(follow!.parent));
  return parent ? { parent, offset, inverse } : undefined;
}

/** The node of `node`'s document whose DSON key is `key`. */
function findByKey(node: Node, key: string): Node | undefined {
  let root: Node = node;
  for (let up = root.getParentNode(); up; up = up.getParentNode()) root = up;
  const scenes = root.listParents().filter((p) => p.propertyType === PropertyType.SCENE) as Scene[];
  const found = (n: Node): Node | undefined => {
    if (dsonKey(n) === key) return n;
    for (const child of n.listChildren()) {
      const hit = found(child);
      if (hit) return hit;
    }
    return undefined;
  };
  for (const scene of scenes) {
    for (const top of scene.listChildren()) {
      const hit = found(top);
      if (hit) return hit;
    }
  }
  return undefined;
}

function trs(m: mat4): LocalTrs {
  const translation = [0, 0, 0] as Vec3Type, rotation = [0, 0, 0, 1] as vec4, scale = [1, 1, 1] as Vec3Type;
  MathUtils.decompose(m, translation, rotation, scale);
  return {
    translation: [...translation] as Vec3,
    rotation: [...rotation] as [number, number, number, number],
    scale: scale.map(snapToOne) as Vec3,
  };
}
