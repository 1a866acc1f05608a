/**
 * Skins the meshes of a rigid follower on a blend of joints with one uniform weight set: the averaged
 * skin weights of its reference vertices (`RigidFollower.blend`). Daz moves a follower by the rigid
 * transform fitted to its reference vertices as they deform; glTF has no node that follows a blend
 * of joints, and riding the dominant joint alone ignores the other joints' share. Linear blend
 * skinning with the averaged weights moves the prop as its reference vertices move on average.
 * This is what Daz's own bridges do for game engines: DazBridgeUtils' `bake_rfn_to_target_mesh`
 * script bakes each mesh below a rigid follow node into a figure skinned, on every vertex, with the
 * reference vertices' weights averaged per bone, under the strongest bone. Measured over generated
 * blends and poses (`rigid_blend_test.ts`, against a Kabsch fit of the reference vertices) it lands
 * nearer Daz's placement than the dominant joint alone (mean 3.1 mm against 4.1 mm), and about as
 * near as the best uniform weight set fitted to those poses; a large turn between the blended joints
 * still shrinks the prop a little, as it does the surface under it.
 *
 * The follower's node stays under its dominant joint (`follow_parent.ts`), and so do the nodes below
 * it: a preset posing them keeps working. The meshes in its subtree (not those of another follower
 * below it, which follow their own group) go to the scene root (glTF ignores a skinned mesh node's
 * transform, and the validator wants them at the root) with an identity transform; each joint's
 * inverse bind matrix is `joint_world⁻¹ · mesh_world` at rest, so the rest pose is unchanged and no
 * vertex is rewritten. Each records, in `extras.partgraph.dson.rigid_follow_mesh`, the follower's
 * key, the key of the node it was made for (`owner`) and its offset in that node's frame, so that
 * `dson.apply_preset` can move it when a preset poses the follower or a node between.
 *
 * Nodes below such a follower that hold no mesh (an empty, a socket, a rigged item's figure and
 * bones) cannot follow a blend: they ride the dominant joint alone, and one warning per follower
 * names them (Daz moves them rigidly with the follower; its bake script leaves them out). The
 * follower's `rigid_follow.unblended` lists them all (the follower itself when it has no mesh).
 *
 * @module
 */
import type { Accessor, Node, Scene } from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4 as m4 } from "gl-matrix/esm/index.js";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { RigidFollower, SceneNode } from "./model.ts";
import { INFLUENCES } from "./skin.ts";

/** Node keys a warning names before counting the rest. */
const NAMED = 3;

/** What skinning the followers changes, and what it reads. */
export interface FollowSkinTarget {
  readonly accessors: SceneAccessors;
  readonly scene: Scene;
  /** The glTF node of each DSON node. */
  readonly nodes: readonly Node[];
  readonly dsonNodes: readonly SceneNode[];
  /** The unskinned mesh nodes made for geometries (each a child of its node). */
  readonly meshNodes: ReadonlySet<Node>;
}

/**
 * Skins the meshes below each follower whose blend holds more than one joint (see the module doc).
 * A follower with no mesh below it is warned about: it rides the dominant joint alone, and the
 * warning names the share of the weight that ignores. So are the nodes below one with meshes that
 * hold none: they ride the dominant joint too, while the meshes follow the blend.
 *
 * @example
 * ```ts
 * skinBlendedFollowers({ accessors, scene, nodes, dsonNodes, meshNodes }, parented, warn);
 * ```
 */
export function skinBlendedFollowers(
  target: FollowSkinTarget,
  followers: readonly RigidFollower[],
  warn: WarningSink,
): void {
  const { nodes, dsonNodes } = target;
  const followerNodes = new Set(followers.map((f) => nodes[f.node]));
  const dsonIndex = new Map(nodes.map((node, i) => [node, i]));
  for (const follower of followers) {
    if (follower.blend.length < 2) continue;
    const meshes = meshesBelow(nodes[follower.node], target.meshNodes, followerNodes);
    const ignored = `ignoring ${percent(1 - follower.share)} of their skin weight (on ${
      follower.blend.filter((b) => b.joint !== follower.joint).map((b) => `'${dsonNodes[b.joint].key}'`)
        .join(", ")
    })`;
    if (!meshes.length) {
      warn(
        `dson: rigid follower '${dsonNodes[follower.node].key}' has no mesh to skin with its reference ` +
          `vertices' blend of joints: it rides '${dsonNodes[follower.joint].key}' alone, ${ignored}`,
      );
      recordUnblended(nodes[follower.node], [dsonNodes[follower.node].key]);
    } else {
      // Found before the meshes leave their nodes for the scene root.
      const bare = nodesWithoutMesh(nodes[follower.node], target.meshNodes, followerNodes)
        .flatMap((node) => dsonIndex.has(node) ? [dsonNodes[dsonIndex.get(node)!].key] : []);
      if (bare.length) {
        warn(
          `dson: rigid follower '${dsonNodes[follower.node].key}' is on a blend of joints, and its meshes ` +
            `are skinned with it, but ${bare.length} node(s) below it hold no such mesh (${
              named(bare)
            }): they ride '${dsonNodes[follower.joint].key}' alone, ${ignored}`,
        );
        recordUnblended(nodes[follower.node], bare);
      }
    }
    for (const meshNode of meshes) skinMesh(target, follower, meshNode, warn);
  }
}

/**
 * Records on the follower's `rigid_follow` extras the keys of the nodes its warning names (all of
 * them, not only the first few): those riding its joint alone although it is on a blend, so that
 * `describeDson` (`partgraph inspect`) lists what the warning says.
 */
function recordUnblended(followerNode: Node, keys: readonly string[]): void {
  const record = (getPartgraphExtras(followerNode).dson ?? {}) as Record<string, never>;
  const follow = (record.rigid_follow ?? {}) as Record<string, never>;
  setPartgraphExtras(followerNode, {
    dson: { ...record, rigid_follow: { ...follow, unblended: [...keys] } },
  });
}

/** Skins one mesh node below a follower with its blend and moves it to the scene root. */
function skinMesh(
  target: FollowSkinTarget,
  follower: RigidFollower,
  meshNode: Node,
  warn: WarningSink,
): void {
  const { accessors, nodes, dsonNodes } = target;
  const world = meshNode.getWorldMatrix();
  const ibm = new Float32Array(follower.blend.length * 16);
  for (const [j, { joint }] of follower.blend.entries()) {
    const inverse = m4.invert(new Array(16).fill(0) as unknown as m4, nodes[joint].getWorldMatrix() as never);
    if (!inverse) {
      warn(
        `dson: the mesh '${meshNode.getName()}' of rigid follower '${dsonNodes[follower.node].key}' rides '${
          dsonNodes[follower.joint].key
        }' alone: '${dsonNodes[joint].key}', of its blend, is scaled to nothing`,
      );
      return;
    }
    ibm.set(m4.multiply(inverse, inverse, world as never) as unknown as number[], j * 16);
  }
  const skin = accessors.doc.createSkin(meshNode.getName());
  for (const { joint } of follower.blend) skin.addJoint(nodes[joint]);
  skin.setInverseBindMatrices(accessors.create("MAT4", ibm));
  const [joints, weights] = uniformSlots(follower.blend.map((b) => b.weight));
  for (const primitive of meshNode.getMesh()!.listPrimitives()) {
    const count = (primitive.getAttribute("POSITION") as Accessor).getCount();
    primitive.setAttribute("JOINTS_0", accessors.create("VEC4", repeat(joints, count, Uint8Array)));
    primitive.setAttribute("WEIGHTS_0", accessors.create("VEC4", repeat(weights, count, Float32Array)));
  }
  const owner = meshNode.getParentNode()!;
  const offset = Array.from(meshNode.getMatrix());
  target.scene.addChild(meshNode);
  meshNode.setTranslation([0, 0, 0]).setRotation([0, 0, 0, 1]).setScale([1, 1, 1]).setSkin(skin);
  const record = (getPartgraphExtras(meshNode).dson ?? {}) as Record<string, never>;
  const ownerKey = (getPartgraphExtras(owner).dson as { key?: string } | undefined)?.key ?? owner.getName();
  setPartgraphExtras(meshNode, {
    dson: {
      ...record,
      rigid_follow_mesh: { follower: dsonNodes[follower.node].key, owner: ownerKey, offset },
    },
  });
}

/**
 * One vertex's `JOINTS_0` and `WEIGHTS_0`: the blend's joints in skin order, and its weights as
 * float32 whose sum is 1 as nearly as float32 allows (the first takes the rounding), so the
 * validator's normalisation check passes.
 */
function uniformSlots(blend: readonly number[]): [number[], number[]] {
  const joints = Array.from({ length: INFLUENCES }, (_, s) => s < blend.length ? s : 0);
  const weights = Array.from({ length: INFLUENCES }, (_, s) => s < blend.length ? Math.fround(blend[s]) : 0);
  weights[0] = Math.fround(1 - weights.slice(1).reduce((a, b) => a + b, 0));
  return [joints, weights];
}

function repeat<T extends Uint8Array | Float32Array>(
  slots: readonly number[],
  count: number,
  Type: { new (length: number): T },
): T {
  const out = new Type(count * INFLUENCES);
  for (let i = 0; i < count; i++) out.set(slots, i * INFLUENCES);
  return out;
}

/**
 * The mesh nodes of `meshNodes` in the subtree of `node`, in hierarchy order; another follower's
 * subtree is its own.
 */
function meshesBelow(node: Node, meshNodes: ReadonlySet<Node>, followers: ReadonlySet<Node>): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    for (const child of n.listChildren()) {
      if (followers.has(child)) continue;
      if (meshNodes.has(child)) out.push(child);
      walk(child);
    }
  };
  walk(node);
  return out;
}

/**
 * The nodes in the subtree of `node` (not `node` itself; another follower's subtree is its own)
 * with no mesh node of `meshNodes` as a child, in hierarchy order: empties (a group, a socket, a
 * light) and the figures and bones of a rigged item. A node has no way to follow a blend of joints
 * (glTF has no constraints), so these ride the follower's joint alone.
 */
function nodesWithoutMesh(node: Node, meshNodes: ReadonlySet<Node>, followers: ReadonlySet<Node>): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    for (const child of n.listChildren()) {
      if (followers.has(child) || meshNodes.has(child)) continue;
      if (!child.listChildren().some((c) => meshNodes.has(c))) out.push(child);
      walk(child);
    }
  };
  walk(node);
  return out;
}

/** The first few keys of a list, quoted, for a warning. */
function named(keys: readonly string[]): string {
  return keys.slice(0, NAMED).map((k) => `'${k}'`).join(", ") +
    (keys.length > NAMED ? ` and ${keys.length - NAMED} more` : "");
}

/** A share as a percentage, one decimal. */
function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
