/**
 * What a rigid follower's reference vertices say about the mesh they lie on: the joint that
 * dominates their skin weights (the one the follower goes under, see `rigid_follow.ts`), their
 * averaged weight set (what a follower on a blend of joints is skinned with, see `follow_skin.ts`),
 * and the morphs that move them (which a joint cannot follow).
 *
 * @module
 */
import type { Morph, SceneMesh } from "./model.ts";
import { INFLUENCES } from "./skin.ts";

/** The joint a set of vertices follows most, and its share of their summed weight. */
export interface DominantJoint {
  /** Scene node index. */
  readonly joint: number;
  /** Its summed weight over the vertices divided by theirs, in (0, 1]. */
  readonly share: number;
}

/**
 * The joint with the largest summed skin weight over `vertices` of a skinned `mesh` (a tie goes to
 * the joint first in scene order, so the choice never depends on slot order); undefined for an
 * unskinned mesh or no weight at all.
 *
 * @example
 * ```ts
 * dominantJoint(figureMesh, Int32Array.of(10, 11, 12)); // { joint: 3, share: 0.8 }
 * ```
 */
export function dominantJoint(mesh: SceneMesh, vertices: Int32Array): DominantJoint | undefined {
  const sums = jointSums(mesh, vertices);
  if (!sums) return undefined;
  let joint = -1, best = 0;
  for (const [node, sum] of sums.byJoint) {
    if (sum > best || (sum === best && node < joint)) [joint, best] = [node, sum];
  }
  return joint < 0 ? undefined : { joint, share: best / sums.total };
}

/** One joint of a weight set and its weight. */
export interface JointWeight {
  /** Scene node index. */
  readonly joint: number;
  readonly weight: number;
}

/**
 * The skin weights of `vertices` averaged into one weight set: each joint's summed weight over their
 * summed weight, the strongest `INFLUENCES` kept and renormalised (as a vertex's are), strongest
 * first (a tie: scene order). Linear blend skinning with it moves a rigid prop as the vertices move
 * on average: a follower on a blend of joints is skinned with it (see `follow_skin.ts`). Empty for
 * an unskinned mesh or no weight at all.
 *
 * @example
 * ```ts
 * averageWeights(figureMesh, Int32Array.of(10, 11, 12)); // [{ joint: 3, weight: 0.8 }, { joint: 2, weight: 0.2 }]
 * ```
 */
export function averageWeights(mesh: SceneMesh, vertices: Int32Array): JointWeight[] {
  const sums = jointSums(mesh, vertices);
  if (!sums) return [];
  const kept = [...sums.byJoint]
    .sort(([a, x], [b, y]) => y - x || a - b)
    .slice(0, INFLUENCES);
  const total = kept.reduce((sum, [, w]) => sum + w, 0);
  return kept.map(([joint, sum]) => ({ joint, weight: sum / total }));
}

/** Each joint's summed skin weight over `vertices`, and the sum of all; undefined without any. */
function jointSums(
  mesh: SceneMesh,
  vertices: Int32Array,
): { byJoint: Map<number, number>; total: number } | undefined {
  if (!mesh.skin) return undefined;
  const { slotNode, slotWeight } = mesh.skin;
  const byJoint = new Map<number, number>();
  let total = 0;
  for (const v of vertices) {
    for (let s = 0; s < INFLUENCES; s++) {
      const node = slotNode[v * INFLUENCES + s], weight = slotWeight[v * INFLUENCES + s];
      if (node < 0 || !(weight > 0)) continue;
      byJoint.set(node, (byJoint.get(node) ?? 0) + weight);
      total += weight;
    }
  }
  return total > 0 ? { byJoint, total } : undefined;
}

/**
 * The morphs of `mesh` that move at least one of `vertices` (a non-zero delta), in mesh order.
 *
 * @example
 * ```ts
 * movingMorphs(figureMesh, Int32Array.of(10, 11, 12)).map((m) => m.name); // ["Smile"]
 * ```
 */
export function movingMorphs(mesh: SceneMesh, vertices: Int32Array): Morph[] {
  const chosen = new Uint8Array(mesh.vertexCount);
  for (const v of vertices) chosen[v] = 1;
  return mesh.morphs.filter((morph) => {
    for (let k = 0; k < morph.index.length; k++) {
      if (!chosen[morph.index[k]]) continue;
      if (morph.delta[k * 3] || morph.delta[k * 3 + 1] || morph.delta[k * 3 + 2]) return true;
    }
    return false;
  });
}
