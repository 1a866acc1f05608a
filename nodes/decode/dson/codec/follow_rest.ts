/**
 * Rigid followers placed at rest, whatever the scene's pose. Daz fits a follower to its reference
 * vertices as they deform: a shape refits it in the figure's rest frame, and the pose then carries
 * it with the skin (morphs → rigidity refit at rest → skinning by the pose). Its own channels, the
 * ones a scene saves, place it on the figure at rest (the base mesh, bones unposed) — what
 * Diffeomorphic's importer reads too (it vertex-parents the prop on the figure built at rest). So a
 * follower goes under its joint, and its blend meshes take their inverse binds, with every bone at
 * its rest frame; the pose is put back after, and moves the follower with its joint. Before decode.dson
 * v62 they were placed with the scene's pose in the joints: in a posed scene, a follower under the
 * figure stayed at its rest place while the skin moved away (a ring left in the air by a bent arm).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { SceneNode } from "./model.ts";
import { poseTransform } from "./rest_pose.ts";

/**
 * Runs `work` with every bone of `dsonNodes` (but those in `keep`) unposed in `nodes` — its local
 * translation and rotation those of its rest frame, its own pose scale taken out — and puts the pose
 * back after. A scene without a posed bone (pose channels, or rotations formulas drive) runs `work` untouched (the same bytes as before).
 *
 * @example
 * ```ts
 * atRest(gltfNodes, dson.nodes, new Set(followerIndices), () => parentFollowers(...));
 * ```
 */
export function atRest<T>(
  nodes: readonly Node[],
  dsonNodes: readonly SceneNode[],
  keep: ReadonlySet<number>,
  work: () => T,
): T {
  const saved: { node: Node; t: number[]; r: number[]; s: number[] }[] = [];
  dsonNodes.forEach((d, i) => {
    if (d.type !== "bone" || keep.has(i)) return;
    const node = nodes[i];
    const rest = poseTransform(
      { ...d, translation: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], generalScale: 1 },
      d.parent >= 0 ? dsonNodes[d.parent] : undefined,
    );
    // The scale a parent's that is not inherited divides in (build_scene.ts) stays; the pose's goes.
    const own = d.scale.map((s) => s * d.generalScale);
    const scale = node.getScale().map((s, k) => (own[k] !== 0 ? s / own[k] : 1));
    const t = node.getTranslation(), r = node.getRotation(), s = node.getScale();
    const same = (a: readonly number[], b: readonly number[]) => a.every((v, k) => v === b[k]);
    if (same(t, rest.translation) && same(r, rest.rotation) && same(s, scale)) return;
    saved.push({ node, t: [...t], r: [...r], s: [...s] });
    node.setTranslation(rest.translation).setRotation(rest.rotation)
      .setScale(scale as [number, number, number]);
  });
  try {
    return work();
  } finally {
    for (const { node, t, r, s } of saved) {
      node.setTranslation(t as [number, number, number]).setRotation(r as [number, number, number, number])
        .setScale(s as [number, number, number]);
    }
  }
}
