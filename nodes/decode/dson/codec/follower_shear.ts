/**
 * Rigid followers re-parented under a joint that is scaled unevenly across their turn. A follower goes
 * under the joint it follows (`follow_parent.ts`) and rides it as a prop parented to it does; DSON
 * stretches such a child along its own turned axes (`scale_composition.ts`), a glTF child along its
 * parent's, a shear no glTF node holds. A follower written under that joint is named by the decode's
 * check of the written hierarchy; one written elsewhere (under the figure, as Daz saves a prop fitted
 * to a figure) was not, and was drawn off silently (decode.dson v70).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { quat } from "gl-matrix/esm/index.js";
import type { RigidFollower, SceneNode } from "./model.ts";
import { eulerDegrees, eulerQuat } from "./rest_pose.ts";
import { type ComposedNode, unevenlyScaled } from "./scale_composition.ts";

/**
 * The warning naming the followers of `followers` (re-parented by `parentFollowers`, not under their
 * written parent) and the nodes below them that the glTF hierarchy, with every node as `nodes` holds
 * it (the pose put back), draws otherwise than DSON composes them under their joint; `named` are the
 * nodes the decode named already. Undefined when there are none.
 *
 * @example
 * ```ts
 * const message = followerShearWarning(gltfNodes, dson.nodes, parented, named);
 * if (message) warn(message);
 * ```
 */
export function followerShearWarning(
  nodes: readonly Node[],
  dsonNodes: readonly SceneNode[],
  followers: readonly RigidFollower[],
  named: ReadonlySet<number>,
): string | undefined {
  const moved = followers.filter((f) => dsonNodes[f.node].parent !== f.joint && f.node !== f.joint);
  if (!moved.length) return undefined;
  // Each node as DSON composes it, but a moved follower: a child of its joint, inheriting the joint's
  // stretch, turned and scaled as its glTF node now is there. Its glTF turn is taken in the joint's
  // rest frame (O_j) and gives its own (O_f): in its own frame, as a DSON node turns, O_f⁻¹·O_j·R.
  const composed: ComposedNode[] = dsonNodes.map((d) => d);
  const scales = nodes.map((n) => [...n.getScale()]);
  for (const f of moved) {
    const node = nodes[f.node], own = dsonNodes[f.node];
    const turn = quat.invert(quat.create(), eulerQuat(own.orientation, "XYZ"));
    quat.multiply(turn, turn, eulerQuat(dsonNodes[f.joint].orientation, "XYZ"));
    quat.multiply(turn, turn, node.getRotation());
    composed[f.node] = {
      key: own.key,
      parent: f.joint,
      orientation: own.orientation,
      rotation: eulerDegrees(turn, "XYZ"),
      rotationOrder: "XYZ",
      scale: [...node.getScale()] as [number, number, number],
      generalScale: 1,
      inheritsScale: true,
    };
  }
  const movedNodes = new Set(moved.map((f) => f.node));
  const followerOf = (i: number): number => {
    for (let a = i, steps = 0; a >= 0 && steps <= composed.length; a = composed[a].parent, steps++) {
      if (movedNodes.has(a)) return a;
    }
    return -1;
  };
  const found = unevenlyScaled(composed, scales).filter((u) => !named.has(u.node) && followerOf(u.node) >= 0);
  if (!found.length) return undefined;
  const first = found.slice(0, 3).map(({ node, scaledBy, off }) => {
    const above = scaledBy >= 0 ? composed[scaledBy] : undefined;
    const by = above
      ? `on '${above.key}' (scale ${above.scale.map((v) => +v.toFixed(4)).join(", ")})`
      : "under an uneven scale";
    const follower = followerOf(node);
    const what = follower === node ? "" : ` (below rigid follower '${composed[follower].key}')`;
    return `'${composed[node].key}'${what} ${by}, up to ${+(off * 100).toPrecision(2)}% of its size off`;
  });
  return `dson: ${found.length} rigid follower(s) or node(s) below one ride a joint scaled unevenly across ` +
    "their turn: Daz carries a follower as a child of the joint it follows, whose stretch then runs along " +
    "the follower's own turned axes; a glTF child takes it along the joint's axes, a shear no glTF node " +
    `holds. Drawn as glTF composes them: ${first.join("; ")}${
      found.length > 3 ? ` and ${found.length - 3} more` : ""
    }`;
}
