/**
 * A scene node with some pose channels set, as formulas and alias dials pose bones.
 *
 * @module
 */
import type { SceneNode } from "./model.ts";
import type { Vec3 } from "./rigid_fit.ts";

/**
 * `node` with the pose channels (`rotation/z`, `scale/general`) set to `values`: a new record.
 *
 * @example
 * ```ts
 * nodes.list[n] = poseNode(nodes.list[n], new Map([["rotation/x", 30]]));
 * ```
 */
export function poseNode(node: SceneNode, values: ReadonlyMap<string, number>): SceneNode {
  const pose = {
    rotation: [...node.rotation] as Vec3,
    translation: [...node.translation] as Vec3,
    scale: [...node.scale] as Vec3,
    generalScale: node.generalScale,
  };
  for (const [channel, value] of values) {
    const [kind, axis] = channel.split("/") as ["rotation" | "translation" | "scale", string];
    if (axis === "general") pose.generalScale = value;
    else pose[kind]["xyz".indexOf(axis)] = value;
  }
  // A new record: the node's pose values are read-only once loaded.
  return { ...node, ...pose };
}
