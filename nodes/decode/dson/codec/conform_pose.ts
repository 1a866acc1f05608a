/**
 * Conforming figures (clothing fitted to a body, `conform_target`): in Daz their bones follow the
 * target figure's bones of the same name, so a posed body carries its clothes. partgraph does not
 * drive one skeleton from another; a conforming figure's bones keep the pose channels its file
 * gives them. Where those differ from the target's same-named bones (the body posed, the item's
 * bones written at rest), the item would not follow the pose: that is said, not left silent.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonFile } from "./dson_file.ts";
import { figureRoot, type SceneNode } from "./model.ts";

/** How far two pose values may differ and still be the same pose (degrees, cm, scale). */
const SAME = 1e-6;

/**
 * Warns, once per conforming figure of the scene whose target is in it, when bones of the figure
 * are posed differently from the target's bones of the same id, naming the first and counting them.
 *
 * @example
 * ```ts
 * warnConformingPoses(nodes.list, (uri) => nodes.localNode(uri), instances, library, main);
 * ```
 */
export function warnConformingPoses(
  nodes: readonly SceneNode[],
  localNode: (uri: string) => number | undefined,
  instances: readonly unknown[],
  library: ContentLibrary,
  main: DsonFile,
): void {
  const bonesOf = new Map<number, Map<string, number>>();
  const bones = (figure: number) => {
    let found = bonesOf.get(figure);
    if (!found) {
      found = new Map();
      for (const [i, node] of nodes.entries()) {
        if (node.type === "bone" && figureRoot(nodes, i) === figure && !found.has(node.id)) {
          found.set(node.id, i);
        }
      }
      bonesOf.set(figure, found);
    }
    return found;
  };
  for (const [f, figure] of nodes.entries()) {
    if (figure.type !== "figure" || figure.conformTarget === undefined) continue;
    const target = localNode(figure.conformTarget);
    if (target === undefined || target === f) continue;
    const targetBones = bones(figureRoot(nodes, target));
    let count = 0;
    let first = "";
    for (const [id, b] of bones(f)) {
      const t = targetBones.get(id);
      if (t === undefined) continue;
      const difference = poseDifference(nodes[b], nodes[t]);
      if (!difference) continue;
      if (!count) first = `'${id}': ${difference}`;
      count++;
    }
    if (!count) continue;
    const at = instances.findIndex((n) => (n as { id?: unknown } | null)?.id === figure.key);
    library.repaired(
      main,
      at >= 0 ? `/scene/nodes/${at}/conform_target` : "/scene/nodes",
      `conforming figure '${figure.key}' follows '${nodes[target].key}': in Daz its bones take the pose of ` +
        `the target's bones of the same name, here they keep their own, and ${count} differ (the first, ${first}), ` +
        "so the item does not follow the target's pose there",
    );
  }
}

/** What differs between two nodes' pose channels, or "" when they pose alike. */
function poseDifference(own: SceneNode, target: SceneNode): string {
  const channels: [string, readonly number[], readonly number[]][] = [
    ["rotation", own.rotation, target.rotation],
    ["translation", own.translation, target.translation],
    ["scale", own.scale, target.scale],
    ["general_scale", [own.generalScale], [target.generalScale]],
  ];
  for (const [name, a, b] of channels) {
    if (a.some((v, k) => Math.abs(v - b[k]) > SAME)) {
      return `${name} (${a.join(", ")}) here, (${b.join(", ")}) on the target`;
    }
  }
  return "";
}
