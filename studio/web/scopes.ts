/**
 * Where a graph file is run from a top graph: the group nodes entered, in turn, to reach each place
 * it runs. What the page keeps about a top graph by node path — its run's flattened ids, the way a
 * file tab goes back into a group — names a group file's nodes under every such place, so a rename
 * in that file follows in each (a shared group run by two top graphs, or twice by one).
 *
 * @module
 */
import { type Graph, joinPath } from "./types.ts";

/** Deeper than any real nesting; a group file that an unsaved edit made run itself stops here. */
const MAX_DEPTH = 32;

/**
 * The group node paths from top graph `top` to each place graph file `file` runs (`[]` when `file`
 * is `top` itself), read from the graphs as open in the page (`graphOf`: a file's open graph, or
 * undefined when it is not open, which ends the walk there: its nodes are not known here).
 *
 * @example
 * ```ts
 * import type { Graph } from "./types.ts";
 * import { scopesOf } from "./scopes.ts";
 *
 * const graphs = new Map<string, Graph>([
 *   ["a.json", { version: 1, nodes: { g: { type: "graph", graph: "rig.json" } } }],
 *   ["rig.json", { version: 1, nodes: {} }],
 * ]);
 * scopesOf((path) => graphs.get(path), "a.json", "rig.json"); // [["g"]]
 * ```
 */
export function scopesOf(
  graphOf: (path: string) => Graph | undefined,
  top: string,
  file: string,
): string[][] {
  const found: string[][] = [];
  const walk = (path: string, scope: string[]) => {
    if (path === file) found.push(scope);
    const graph = graphOf(path);
    if (!graph || scope.length >= MAX_DEPTH) return;
    for (const [id, node] of Object.entries(graph.nodes)) {
      if (node.type === "graph" && node.graph) walk(joinPath(path, node.graph), [...scope, id]);
    }
  };
  walk(top, []);
  return found;
}
