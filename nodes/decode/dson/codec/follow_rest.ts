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
import { poseTransform, scaleDivisor } from "./rest_pose.ts";
import { fitUninherited } from "./scale_composition.ts";

/**
 * Runs `work` with every bone of `dsonNodes` (but those in `keep`) unposed in `nodes` — its local
 * translation and rotation those of its rest frame, its scale the one it takes at rest ({@link
 * restScales}: its own pose scale out, and no fit for the posed chain) — and puts the pose
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
  const unposed = (d: SceneNode, i: number) => d.type === "bone" && !keep.has(i);
  const scales = restScales(dsonNodes, unposed);
  dsonNodes.forEach((d, i) => {
    if (!unposed(d, i)) return;
    const node = nodes[i];
    const rest = poseTransform(
      { ...d, translation: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], generalScale: 1 },
      d.parent >= 0 ? dsonNodes[d.parent] : undefined,
    );
    const scale = scales[i];
    const t = node.getTranslation(), r = node.getRotation(), s = node.getScale();
    const same = (a: readonly number[], b: readonly number[]) => a.every((v, k) => v === b[k]);
    if (same(t, rest.translation) && same(r, rest.rotation) && same(s, scale)) return;
    saved.push({ node, t: [...t], r: [...r], s: [...s] });
    node.setTranslation(rest.translation).setRotation(rest.rotation).setScale(scale);
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

/**
 * Each node's glTF scale with the bones `unposed` picks at rest (turn and own scale taken out), as
 * build_scene.ts scales them: a parent's uniform own scale divided out of a node that does not
 * inherit scale, and {@link fitUninherited}'s fit under an uneven one — fitted to the chain at rest,
 * not the posed chain's fit (`scale_fit`), which at rest would stretch the bone wrongly and with it
 * every follower placed under it (decode.dson v69). Nothing uneven is left at rest but the scales
 * of nodes that are not bones (a figure stretched per axis), so the fit is exact unless a bone that
 * does not inherit scale is turned in its frame under such a node.
 */
function restScales(
  dsonNodes: readonly SceneNode[],
  unposed: (node: SceneNode, index: number) => boolean,
): [number, number, number][] {
  const rest = dsonNodes.map((d, i) =>
    unposed(d, i)
      ? {
        ...d,
        rotation: [0, 0, 0] as SceneNode["rotation"],
        scale: [1, 1, 1] as SceneNode["scale"],
        generalScale: 1,
      }
      : d
  );
  const built = rest.map((d) => {
    const own = d.scale.map((s) => s * d.generalScale) as [number, number, number];
    const parent = d.parent >= 0 ? rest[d.parent] : undefined;
    if (d.inheritsScale || !parent) return own;
    const divisor = scaleDivisor(parent.scale.map((s) => s * parent.generalScale));
    return own.map((s) => s / divisor) as [number, number, number];
  });
  return fitUninherited(rest, built).scales;
}
