/**
 * DSON node frames as glTF transforms. A DSON node rests at its `center_point` with its axes turned
 * by `orientation` (both in figure space); glTF wants each node's transform in its parent's frame,
 * so a node's local transform is the rest offset from its parent plus the scene's pose values.
 *
 * @module
 */
import { mat4, quat, vec3 } from "gl-matrix";
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
export function restWorld(node: SceneNode): mat4 {
  const rotation = eulerQuat(node.orientation, "XYZ");
  const position = vec3.scale(vec3.create(), node.centerPoint, METRES_PER_CM);
  return mat4.fromRotationTranslation(mat4.create(), rotation, position);
}

/** Inverse of a rest matrix (rotation and translation only, so always invertible). */
export function invertRest(m: mat4): mat4 {
  return mat4.invert(mat4.create(), m) ?? mat4.create();
}

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
  const parent = node.parent >= 0 ? nodes[node.parent] : undefined;
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
