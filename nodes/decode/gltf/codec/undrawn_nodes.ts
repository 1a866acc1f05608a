/**
 * Parts no viewer draws: a node with a mesh that no scene reaches (not a scene's root, nor under one).
 * Kept as the file has it — where it belongs is unknown — but named: three.js's `GLTFLoader` builds only
 * the scene, so such a part is simply missing there (Blender's importer brings it in at the root). It is
 * what is left of a hierarchy whose parent entry was damaged (`null`, read as an empty node) or of an
 * exporter that unlinked a part; MSFT_lod's lower levels are outside every scene on purpose and said
 * by their own warning.
 *
 * @module
 */
import type { Checker, Json } from "./checker.ts";

/** How many parts a warning names before counting the rest. */
const NAMED = 8;

/** Warns, at /nodes, of mesh nodes outside every scene. `parent`: each node's parent (-1 for a root). */
export function warnUndrawnNodes(c: Checker, parent: readonly number[]): void {
  const nodes = c.list("nodes");
  const scenes = c.list("scenes");
  if (!nodes.length || !scenes.length) return;
  const lods = new Set<number>();
  for (const node of nodes) {
    const ids = ((node.extensions as Json | undefined)?.MSFT_lod as Json | undefined)?.ids;
    if (Array.isArray(ids)) ids.forEach((id) => lods.add(id));
  }
  const inScene = new Set<number>();
  for (const scene of scenes) {
    for (const root of (scene.nodes as number[] | undefined) ?? []) inScene.add(root);
  }
  // A node is drawn when the chain of its parents ends at a scene's root (iterative: depth is bounded).
  const drawn = (i: number): boolean => {
    for (let at = i, steps = 0; steps <= nodes.length; steps++) {
      if (inScene.has(at)) return true;
      if (lods.has(at) || parent[at] === -1) return false;
      at = parent[at];
    }
    return false;
  };
  const undrawn = nodes.flatMap((node, i) => node.mesh !== undefined && !drawn(i) && !underLod(i) ? [i] : []);
  function underLod(i: number): boolean {
    for (let at = i, steps = 0; at !== -1 && steps <= nodes.length; at = parent[at], steps++) {
      if (lods.has(at)) return true;
    }
    return false;
  }
  if (!undrawn.length) return;
  const label = (i: number) =>
    typeof nodes[i].name === "string" && nodes[i].name ? `'${nodes[i].name}'` : `${i}`;
  const named = undrawn.slice(0, NAMED).map(label).join(", ");
  const rest = undrawn.length > NAMED ? ` and ${undrawn.length - NAMED} more` : "";
  c.repaired(
    "/nodes",
    `${undrawn.length} node(s) with a mesh in no scene (nodes ${named}${rest}): neither a scene's root nor ` +
      "under one, so viewers such as three.js do not draw them (Blender's importer puts them at the root); " +
      "kept as the file has them",
  );
}
