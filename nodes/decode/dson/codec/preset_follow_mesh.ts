/**
 * Keeps the skinned meshes of rigid followers with their nodes when a preset poses them. A follower
 * on a blend of joints has the meshes below it skinned with the blend (`follow_skin.ts`): glTF
 * ignores a skinned mesh node's transform, so posing the follower, or a node between it and the
 * mesh's owner, would leave them behind. Each joint's inverse bind matrix is
 * `joint_bind⁻¹ · parent_bind · C · offset`, where `C` is the product of the local transforms from
 * the follower down to the mesh's owner and `offset` the mesh's in the owner's frame; a preset that
 * changes `C` to `C'` gives it `IBM · (C · offset)⁻¹ · (C' · offset)`: the same bind, the new pose.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4 } from "gl-matrix/esm/index.js";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { dsonKey } from "./preset_pose.ts";

/** A follower's skinned mesh and the transform from the follower to the mesh before the preset. */
interface FollowedMesh {
  readonly mesh: Node;
  readonly follower: Node;
  readonly owner: Node;
  readonly offset: mat4;
  readonly before: mat4;
}

/**
 * The skinned meshes of followers (`extras.partgraph.dson.rigid_follow_mesh`) and the transforms
 * from their followers down to them now, before a preset poses them. A record that names no node,
 * an owner not below the follower, or an offset that is not 16 numbers (edited by hand) is skipped:
 * the mesh stays as it is.
 *
 * @example
 * ```ts
 * const followed = followedMeshes(doc);
 * // … pose the nodes …
 * moveFollowedMeshes(followed, warn);
 * ```
 */
export function followedMeshes(doc: Document): FollowedMesh[] {
  const nodes = doc.getRoot().listNodes();
  const byKey = new Map<unknown, Node>();
  for (const node of nodes) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key)) byKey.set(key, node);
  }
  const out: FollowedMesh[] = [];
  for (const mesh of nodes) {
    const record = (getPartgraphExtras(mesh).dson as {
      rigid_follow_mesh?: { follower?: unknown; owner?: unknown; offset?: unknown };
    })?.rigid_follow_mesh;
    const follower = byKey.get(record?.follower), owner = byKey.get(record?.owner);
    const offset = record?.offset;
    if (!follower || !owner || !mesh.getSkin() || !Array.isArray(offset) || offset.length !== 16) continue;
    if (!offset.every(Number.isFinite)) continue;
    const before = chain(follower, owner);
    if (!before) continue;
    out.push({ mesh, follower, owner, offset: [...offset] as unknown as mat4, before });
  }
  return out;
}

/**
 * Moves each mesh of {@link followedMeshes} whose follower the preset posed: its inverse binds get the
 * follower's change (see the module doc) in a new array (the old one may be shared with other
 * scenes). A follower posed to a transform with no inverse before leaves its mesh, with a warning.
 */
export function moveFollowedMeshes(followed: readonly FollowedMesh[], warn: WarningSink): void {
  for (const { mesh, follower, owner, offset, before } of followed) {
    const after = chain(follower, owner);
    if (!after || mat4.exactEquals(before, after)) continue;
    const bound = mat4.invert(f64(), mat4.multiply(f64(), before, offset));
    if (!bound) {
      warn(
        `dson preset: the mesh '${mesh.getName()}' of rigid follower '${follower.getName()}' is not moved ` +
          "with it: the follower was scaled to nothing",
      );
      continue;
    }
    const change = mat4.multiply(bound, bound, mat4.multiply(f64(), after, offset));
    const accessor = mesh.getSkin()!.getInverseBindMatrices();
    if (!accessor) continue;
    const old = accessor.getArray()!;
    const next = new Float32Array(old.length);
    for (let j = 0; j * 16 < old.length; j++) {
      const ibm = mat4.multiply(f64(), old.subarray(j * 16, j * 16 + 16) as unknown as mat4, change);
      next.set(ibm, j * 16);
    }
    accessor.setArray(next);
  }
}

/**
 * The product of the local matrices from `follower` down to `owner` (both included), in float64;
 * undefined when `owner` is not `follower` or below it.
 */
function chain(follower: Node, owner: Node): mat4 | undefined {
  let product = Array.from(owner.getMatrix()) as unknown as mat4;
  for (let n: Node | null = owner; n !== follower;) {
    n = n.getParentNode();
    if (!n) return undefined;
    product = mat4.multiply(f64(), n.getMatrix() as unknown as mat4, product);
  }
  return product;
}

/** A float64 matrix to write into (gl-matrix's `create` makes float32 ones). */
function f64(): mat4 {
  return new Array(16).fill(0) as unknown as mat4;
}
