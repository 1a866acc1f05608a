/**
 * Where the editor draws nodes: their positions in the graph's `ui` field, the layout of a graph
 * opened without them (columns by depth from the sources), and a free spot for a new node.
 *
 * @module
 */
import { INPUTS_ID, OUTPUTS_ID, splitLink } from "./shapes.ts";
import { WIDTH } from "./svg.ts";
import type { Graph } from "./types.ts";

/** The width of a column of the layout of a graph without positions (nodes by depth). */
const COLUMN = 260;

/** The position of node `id` of `graph` (its `ui` entry, else where the layout would put it). */
export function positionOf(graph: Graph, id: string): [number, number] {
  // Reading must not add an empty `ui` (drawing an empty graph would make it differ from its file).
  const ui = graph.ui ?? {};
  if (id === INPUTS_ID) return ui.inputs ?? [0, 0];
  // As laid out for a graph whose nodes all have depth 1 (an empty one), not on Group Input.
  if (id === OUTPUTS_ID) return ui.outputs ?? [2 * COLUMN, 0];
  return ui.nodes?.[id] ?? [0, 0];
}

/**
 * Places the nodes of `graph` without a saved position (in `graph.ui`) in columns by their depth from
 * the sources; a graph without `ui` and nodes (an empty one) is left as it is.
 */
export function layoutMissing(graph: Graph): void {
  const depth = depthsFromSources(graph);
  const rows = new Map<number, number>();
  const ui = graph.ui ?? {};
  const nodes: Record<string, [number, number]> = { ...(ui.nodes ?? {}) };
  let maxDepth = 1;
  for (const id of Object.keys(graph.nodes)) {
    const d = depth.get(id)!;
    maxDepth = Math.max(maxDepth, d);
    if (nodes[id]) continue;
    const row = rows.get(d) ?? 0;
    rows.set(d, row + 1);
    nodes[id] = [d * COLUMN, row * 170];
  }
  if (!graph.ui && !Object.keys(graph.nodes).length) return;
  graph.ui = {
    ...ui,
    nodes,
    inputs: ui.inputs ?? [0, 0],
    outputs: ui.outputs ?? [(maxDepth + 1) * COLUMN, 0],
  };
}

/**
 * Each node's depth from the sources (1 + its deepest upstream node; a link into a cycle counts as
 * a source). Walked with a stack of its own, not by recursion: a generated chain of 20,000 nodes
 * listed output first, or closed into a cycle, overflowed the call stack and the graph would not open.
 */
function depthsFromSources(graph: Graph): Map<string, number> {
  const depth = new Map<string, number>();
  const onPath = new Set<string>();
  const upstream = (id: string) =>
    Object.values(graph.nodes[id].inputs ?? {}).map((v) =>
      typeof v === "string" ? splitLink(v)[0] : undefined
    );
  for (const start of Object.keys(graph.nodes)) {
    if (depth.has(start)) continue;
    const stack = [{ id: start, ups: upstream(start), next: 0, d: 1 }];
    onPath.add(start);
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next < top.ups.length) {
        const up = top.ups[top.next++];
        // A graph-input link, a node that is not there, or one on the path (a cycle): depth 0 above.
        if (up === undefined || !(up in graph.nodes) || onPath.has(up)) continue;
        const known = depth.get(up);
        if (known !== undefined) top.d = Math.max(top.d, known + 1);
        else {
          onPath.add(up);
          stack.push({ id: up, ups: upstream(up), next: 0, d: 1 });
        }
        continue;
      }
      stack.pop();
      onPath.delete(top.id);
      depth.set(top.id, top.d);
      const below = stack[stack.length - 1];
      if (below) below.d = Math.max(below.d, top.d + 1);
    }
  }
  return depth;
}

/** A node drawn on the canvas: its top-left corner and height (every node is `WIDTH` wide). */
export interface Placed {
  readonly at: readonly [number, number];
  readonly height: number;
}

/**
 * `at`, moved right past every node in `others` that a node of `height` would cover there. The search
 * box adds each node at the view's centre: nodes added one after another would lie on top of each
 * other, the last hiding the others and their sockets. To the right, a chain added in order reads as
 * it flows.
 */
export function clearSpot(at: [number, number], height: number, others: readonly Placed[]): [number, number] {
  const y = at[1];
  let x = at[0];
  for (let moved = true; moved;) {
    moved = false;
    for (const { at: [ox, oy], height: oh } of others) {
      if (x < ox + WIDTH && ox < x + WIDTH && y < oy + oh && oy < y + height) {
        x = ox + WIDTH + 40;
        moved = true;
      }
    }
  }
  return [x, y];
}
