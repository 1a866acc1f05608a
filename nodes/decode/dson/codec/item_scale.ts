/**
 * Fitted items whose root carries a scale of its own: a shirt a user scaled to 102 % against poke-through,
 * a belt stretched wider on one axis, as Daz Studio scenes save it on the item's node instance. A fitted
 * item's root follows its body's root (`conform_follow.ts`: the target's world, so the item's own scale
 * is dropped), and body morphs are projected onto its mesh in its geometry's unscaled space
 * (`auto_project.ts`). The formats notes (B.6, B.8) give DSON's node composition and say that a
 * conforming item follows its figure, but not whether Daz keeps a fitted item's own scale on top of the
 * follow, nor in which space it projects: the result is a guess, and each such item is named, with how
 * far its vertices would move were the scale kept.
 *
 * @module
 */
import type { Conformer, SceneMesh, SceneNode } from "./model.ts";
import { figureRoot } from "./model.ts";
import { eulerQuat } from "./rest_pose.ts";

/**
 * One warning per conforming item whose root node has a scale of its own (`scale` or `general_scale`
 * other than 1), naming the item, its body, the scale and how far (cm) it would move its vertices.
 *
 * @example
 * ```ts
 * for (const message of itemScaleWarnings(dson.nodes, dson.meshes, dson.conformers)) warn(message);
 * ```
 */
export function itemScaleWarnings(
  nodes: readonly SceneNode[],
  meshes: readonly SceneMesh[],
  conformers: readonly Conformer[],
): string[] {
  const out: string[] = [];
  for (const conformer of conformers) {
    const root = nodes[conformer.figure];
    const own = root.scale.map((s) => s * root.generalScale);
    if (own.every((s) => s === 1)) continue;
    const far = farthest(root, own, meshes.filter((m) => figureRoot(nodes, m.owner) === conformer.figure));
    const scale = root.scale.every((s) => s === 1)
      ? `general_scale ${root.generalScale}`
      : `scale ${root.scale.join(", ")}${
        root.generalScale !== 1 ? `, general_scale ${root.generalScale}` : ""
      }`;
    out.push(
      `dson: fitted item '${root.key}' (conform_target at ${conformer.path}) has a scale of its own (${scale}): ` +
        `it follows '${
          nodes[conformer.target].key
        }' at the body's scale, its own left out, and body morphs ` +
        "are projected onto its unscaled mesh. The formats notes do not say whether Daz keeps a fitted item's " +
        "own scale on top of the follow (users scale clothing a few percent against poke-through) or in " +
        `which space it projects: where Daz keeps it, the item is drawn up to ${+far.toFixed(
          2,
        )} cm from Daz's ` +
        "place",
    );
  }
  return out;
}

/** How far (cm) the item's own scale, about its root's centre in its frame, moves its farthest vertex. */
function farthest(root: SceneNode, own: readonly number[], meshes: readonly SceneMesh[]): number {
  const [x, y, z, w] = eulerQuat(root.orientation, "XYZ");
  // The root's frame as rows: the scale acts along its oriented axes (O·S·O⁻¹).
  const o = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const c = root.centerPoint;
  let most = 0;
  for (const mesh of meshes) {
    const p = mesh.positions;
    for (let v = 0; v + 2 < p.length; v += 3) {
      const d = [p[v] - c[0], p[v + 1] - c[1], p[v + 2] - c[2]];
      // In the root's frame, scaled, less unscaled: (S − I)·Oᵀ·d, whose length O keeps.
      let sum = 0;
      for (let k = 0; k < 3; k++) {
        const along = o[0][k] * d[0] + o[1][k] * d[1] + o[2][k] * d[2];
        sum += ((own[k] - 1) * along) ** 2;
      }
      most = Math.max(most, Math.sqrt(sum));
    }
  }
  return most;
}
