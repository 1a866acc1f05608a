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
  // Marks by node index (roots are checked in range before), not a Set: a million roots are common
  // enough (city and CAD exports), and a Set of them cost more than the walk.
  const inScene = new Uint8Array(nodes.length);
  for (const scene of scenes) {
    for (const root of (scene.nodes as number[] | undefined) ?? []) inScene[root] = 1;
  }
  // A node is drawn when the chain of its parents ends at a scene's root, and under a lower LOD level
  // when it passes one. Each node's answer is remembered, so the walk is linear in nodes however deep
  // or cyclic (a cycle, refused elsewhere, ends at the first node seen again).
  const DRAWN = 1, UNDER_LOD = 2, NEITHER = 3;
  const state = new Uint8Array(nodes.length);
  const stateOf = (i: number): number => {
    const path: number[] = [];
    let at = i, found = NEITHER;
    while (at !== -1 && at < nodes.length) {
      if (state[at]) {
        found = state[at];
        break;
      }
      if (lods.has(at)) {
        found = UNDER_LOD;
        break;
      }
      if (inScene[at]) {
        found = DRAWN;
        break;
      }
      state[at] = NEITHER; // provisional: a cycle back here ends the walk
      path.push(at);
      at = parent[at];
    }
    for (const visited of path) state[visited] = found;
    return state[i] || found;
  };
  const undrawn: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (nodes[i].mesh !== undefined && stateOf(i) === NEITHER) undrawn.push(i);
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
