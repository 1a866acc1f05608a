/**
 * Puts each rigid follower's glTF node under the joint it follows (found by `rigid_follow.ts`),
 * with the local transform that keeps its world transform: `local = joint_world⁻¹ · world`, in
 * float64 (glTF-Transform keeps node transforms as JS numbers). Posing the joint then carries the
 * follower along in any viewer. Its record in `extras.partgraph.dson.rigid_follow` says what it
 * follows, and the `parent_offset` a pose preset needs to pose it in its written parent's frame.
 *
 * @module
 */
import { type mat4, MathUtils, type Node, type vec3, type vec4 } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { RigidFollower, SceneNode } from "./model.ts";
import { invert, multiply, snapToOne } from "./matrix64.ts";
import { isDefaultModes } from "./follower_modes.ts";

/**
 * How far a recomposed local matrix may stray from the exact one (relative to its largest entry)
 * before it counts as not a TRS (a shear from a non-uniform scale above a turned node).
 */
const TRS_TOLERANCE = 1e-6;

/**
 * Re-parents each follower under its joint, world transform kept (see the module doc), and returns
 * those it re-parented. One that would need a shear (non-uniform scale above it) stays where it is,
 * with a warning.
 *
 * @example
 * ```ts
 * const parented = parentFollowers(gltfNodes, dson.nodes, dson.followers, warn);
 * ```
 */
export function parentFollowers(
  nodes: readonly Node[],
  dsonNodes: readonly SceneNode[],
  followers: readonly RigidFollower[],
  warn: WarningSink,
): RigidFollower[] {
  const parented: RigidFollower[] = [];
  // Built once: a file can hold as many followers as nodes.
  const indexOf = new Map(nodes.map((node, i) => [node, i]));
  for (const follower of followers) {
    const node = nodes[follower.node], joint = nodes[follower.joint];
    const written = node.getParentNode();
    const jointInverse = invert(joint.getWorldMatrix());
    if (!jointInverse) {
      warn(
        `dson: rigid follower '${
          dsonNodes[follower.node].key
        }' stays under its parent as written: the joint ` +
          `it follows, '${dsonNodes[follower.joint].key}', is scaled to nothing`,
      );
      continue;
    }
    const local = multiply(jointInverse, node.getWorldMatrix());
    const t = [0, 0, 0] as vec3, r = [0, 0, 0, 1] as vec4, s = [1, 1, 1] as vec3;
    MathUtils.decompose(local, t, r, s);
    const recomposed = MathUtils.compose(t, r, s, new Array(16).fill(0) as unknown as mat4);
    const size = Math.max(1, ...Array.from(local, Math.abs));
    if (recomposed.some((v, k) => Math.abs(v - local[k]) > TRS_TOLERANCE * size)) {
      warn(
        `dson: rigid follower '${dsonNodes[follower.node].key}' stays under its parent as written: under ` +
          `'${
            dsonNodes[follower.joint].key
          }' it would need a shear (a non-uniform scale above it), which a glTF ` +
          "node cannot hold",
      );
      continue;
    }
    // A follower scaled to nothing has no offset to pose it by (a preset then poses it in place).
    const writtenInverse = invert(node.getMatrix());
    const parentOffset = writtenInverse ? Array.from(multiply(local, writtenInverse)) : null;
    if (written !== joint) {
      joint.addChild(node);
      node.setTranslation(t).setRotation(r).setScale(s.map(snapToOne) as vec3);
    }
    const record = (getPartgraphExtras(node).dson ?? {}) as Record<string, never>;
    setPartgraphExtras(node, {
      dson: {
        ...record,
        rigid_follow: {
          target: follower.target,
          joint: dsonNodes[follower.joint].key,
          share: follower.share,
          reference_vertices: follower.referenceVertices,
          // The vertices themselves: a preset or a bake changing the shape refits it to them.
          vertices: [...follower.vertices],
          parent: written ? dsonNodes[indexOf.get(written) ?? -1]?.key ?? written.getName() : null,
          parent_offset: parentOffset,
          // Only when written otherwise than turned and unscaled: such a follower keeps the record it had.
          ...(isDefaultModes(follower.modes) ? {} : {
            rotation_mode: follower.modes.rotationMode,
            scale_modes: [...follower.modes.scaleModes],
            // The node whose axes they measure along (transform_nodes or reference), when named.
            ...(follower.modes.frame ? { frame: follower.modes.frame } : {}),
          }),
          // Only for a blend: a follower of one joint keeps the record it had.
          ...(follower.blend.length > 1
            ? { blend: follower.blend.map((b) => ({ joint: dsonNodes[b.joint].key, weight: b.weight })) }
            : {}),
        },
      },
    });
    parented.push(follower);
  }
  return parented;
}
