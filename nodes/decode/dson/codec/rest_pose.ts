/**
 * DSON node frames as glTF transforms. A DSON node rests at its `center_point` with its axes turned
 * by `orientation` (both in figure space); glTF wants each node's transform in its parent's frame,
 * so a node's local transform is the rest offset from its parent plus the scene's pose values.
 *
 * @module
 */
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4, quat, vec3 } from "gl-matrix/esm/index.js";
import { METRES_PER_CM, type SceneNode } from "./model.ts";

/** A glTF node transform (metres). */
export interface LocalTransform {
  readonly translation: [number, number, number];
  readonly rotation: [number, number, number, number];
  readonly scale: [number, number, number];
}

/**
 * Rest world matrix of a node (metres): at its centre point, axes turned by its orientation.
 *
 * @example
 * ```ts
 * const inverseBind = invertRest(restWorld(scene.nodes[joint]));
 * ```
 */
export function restWorld(node: Pick<SceneNode, "centerPoint" | "orientation">): mat4 {
  const rotation = eulerQuat(node.orientation, "XYZ");
  const position = vec3.scale(vec3.create(), node.centerPoint, METRES_PER_CM);
  return mat4.fromRotationTranslation(mat4.create(), rotation, position);
}

/** Inverse of a rest matrix (rotation and translation only, so always invertible). */
export function invertRest(m: mat4): mat4 {
  return mat4.invert(mat4.create(), m) ?? mat4.create();
}

/** What a node's local transform is made of: its rest frame and its pose channels (cm, degrees). */
export type PoseFrame = Pick<
  SceneNode,
  "centerPoint" | "orientation" | "translation" | "rotation" | "scale" | "generalScale" | "rotationOrder"
>;

/**
 * Local TRS of node `i` in its parent's rest frame: the rest offset between centre points, plus the
 * scene's pose values (translation, rotation in the node's rotation order, scale).
 *
 * @example
 * ```ts
 * const { translation, rotation } = localTransform(scene.nodes, 3);
 * ```
 */
export function localTransform(nodes: readonly SceneNode[], i: number): LocalTransform {
  const node = nodes[i];
  return poseTransform(node, node.parent >= 0 ? nodes[node.parent] : undefined);
}

/**
 * Local TRS of a node with pose channels `node`, under a parent with rest frame `parent` (none: a
 * root). {@link localTransform} for one node; pose presets use it to re-pose a decoded joint.
 *
 * @example
 * ```ts
 * const t = poseTransform({ ...frame, rotation: [0, 0, 30] }, parentFrame);
 * ```
 */
export function poseTransform(
  node: PoseFrame,
  parent?: Pick<SceneNode, "centerPoint" | "orientation">,
): LocalTransform {
  const parentRotation = parent ? eulerQuat(parent.orientation, "XYZ") : quat.create();
  const inverseParent = quat.invert(quat.create(), parentRotation);
  const offset = vec3.fromValues(
    node.centerPoint[0] - (parent?.centerPoint[0] ?? 0) + node.translation[0],
    node.centerPoint[1] - (parent?.centerPoint[1] ?? 0) + node.translation[1],
    node.centerPoint[2] - (parent?.centerPoint[2] ?? 0) + node.translation[2],
  );
  vec3.scale(offset, offset, METRES_PER_CM);
  vec3.transformQuat(offset, offset, inverseParent);
  const rotation = quat.multiply(quat.create(), inverseParent, eulerQuat(node.orientation, "XYZ"));
  quat.multiply(rotation, rotation, eulerQuat(node.rotation, node.rotationOrder));
  quat.normalize(rotation, rotation);
  const s = node.generalScale;
  return {
    translation: [offset[0], offset[1], offset[2]],
    rotation: [rotation[0], rotation[1], rotation[2], rotation[3]],
    scale: [node.scale[0] * s, node.scale[1] * s, node.scale[2] * s],
  };
}

/**
 * The divisor a node that does not inherit scale (`inherits_scale: false`) takes from its parent's
 * own (DSON local) scale: Daz composes the node under its parent's world scale without that local
 * scale, which a glTF child undoes by dividing its own scale by it. Only a uniform, non-zero scale
 * can be undone so (a non-uniform one cannot under a turned child): 1 otherwise, and for no scale.
 */
export function scaleDivisor(parentScale: readonly number[]): number {
  const [x, y, z] = parentScale;
  return x === y && y === z && x !== 0 ? x : 1;
}

/**
 * Quaternion of Euler angles in degrees applied in `order` (the first letter turns first, about
 * the parent's axes).
 *
 * @example
 * ```ts
 * eulerQuat([0, 90, 0], "YZX"); // a quarter turn about +Y
 * ```
 */
export function eulerQuat(degrees: readonly number[], order: string): quat {
  const out = quat.create();
  for (const letter of order) {
    const axis = "XYZ".indexOf(letter);
    const angle = degrees[axis];
    if (!angle) continue;
    const step = quat.create();
    if (axis === 0) quat.rotateX(step, step, angle * Math.PI / 180);
    else if (axis === 1) quat.rotateY(step, step, angle * Math.PI / 180);
    else quat.rotateZ(step, step, angle * Math.PI / 180);
    quat.multiply(out, step, out);
  }
  return out;
}

/**
 * Euler angles in degrees (x, y, z) that {@link eulerQuat} turns into `q` for `order`: the inverse,
 * with the middle angle in [−90°, 90°].
 *
 * @example
 * ```ts
 * eulerDegrees(eulerQuat([10, 20, 30], "YZX"), "YZX"); // ≈ [10, 20, 30]
 * ```
 */
export function eulerDegrees(q: quat, order: string): [number, number, number] {
  // The rotation matrix in float64 (gl-matrix's own types are float32), element (row r, column c).
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const [i, j, k] = [...order].map((letter) => "XYZ".indexOf(letter));
  // q = R_k · R_j · R_i; an odd permutation of XYZ flips the signs of the sine terms.
  const sign = (j - i + 3) % 3 === 1 ? 1 : -1;
  const out: [number, number, number] = [0, 0, 0];
  const toDegrees = 180 / Math.PI;
  out[j] = Math.asin(Math.max(-1, Math.min(1, -sign * m[k][i]))) * toDegrees;
  if (Math.abs(m[k][i]) < 1 - 1e-6) {
    out[i] = Math.atan2(sign * m[k][j], m[k][k]) * toDegrees;
    out[k] = Math.atan2(sign * m[j][i], m[i][i]) * toDegrees;
  } else {
    // Gimbal lock: only the sum (or difference) of the outer angles is defined; put it all in i.
    out[i] = Math.atan2(-sign * m[j][k], m[j][j]) * toDegrees;
  }
  return out;
}
