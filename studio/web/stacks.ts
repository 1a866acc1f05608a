/**
 * Nodes a file places under others. Graph files as tools and users leave them put nodes on one spot:
 * every position `[0, 0]` (an exporter's default), a laid-out part pasted twice (a merge, a copied `ui`
 * block), a grid snap. The editor draws nodes in file order, each over those before, so a node wholly
 * under later ones cannot be clicked, dragged or wired by the mouse. On open such nodes are laid out
 * below the rest as the editor lays out nodes without positions (`layout.ts`).
 *
 * @module
 */
import { layoutMissing } from "./layout.ts";
import { INPUTS_ID, OUTPUTS_ID } from "./shapes.ts";
import { WIDTH } from "./svg.ts";
import type { Graph } from "./types.ts";

/** A node as drawn: its id, top-left corner and height (every node is `WIDTH` wide). */
export interface Drawn {
  readonly id: string;
  readonly at: readonly [number, number];
  readonly height: number;
}

/** The space left between the nodes kept in place and those laid out below them. */
const GAP = 120;
/** Up to this many nodes over a node, its cover is checked exactly; over more, at 16 × 8 points of it. */
const EXACT_UP_TO = 24;
/** The side of a cell of the grid that finds a node's neighbours without comparing every pair. */
const CELL = 256;

/**
 * The ids of the nodes of `nodes` (in drawing order: each drawn over those before it) that are wholly
 * covered by nodes drawn after them, so the mouse cannot reach them. Exact: the node's box is cut by
 * the edges of the later boxes over it and every piece checked; under a heap of more than
 * {@link EXACT_UP_TO} nodes, 16 × 8 points of it spread over its box are (a sliver between them is
 * no place to aim a click at).
 */
export function hiddenNodes(nodes: readonly Drawn[]): string[] {
  const grid = new Map<string, number[]>();
  const cells = (n: Drawn) => {
    const keys: string[] = [];
    const [x0, y0] = [Math.floor(n.at[0] / CELL), Math.floor(n.at[1] / CELL)];
    const [x1, y1] = [Math.floor((n.at[0] + WIDTH) / CELL), Math.floor((n.at[1] + n.height) / CELL)];
    // A node at a huge position (a scatter of 1e6) still spans only a few cells: WIDTH and its height.
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) keys.push(`${x},${y}`);
    return keys;
  };
  nodes.forEach((n, i) => {
    for (const key of cells(n)) {
      const here = grid.get(key);
      if (here) here.push(i);
      else grid.set(key, [i]);
    }
  });
  // A stack on one spot (20,000 nodes at [0, 0]): a node under a later one at the same corner at least
  // as tall is hidden, found in one pass from the top; comparing each with all above it took 108 s.
  const underSame = new Set<number>();
  const tallestAbove = new Map<string, number>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const { at: [x, y], height } = nodes[i];
    const spot = `${x},${y}`;
    const tallest = tallestAbove.get(spot);
    if (tallest !== undefined && tallest >= height) underSame.add(i);
    else tallestAbove.set(spot, height);
  }
  const hidden: string[] = [];
  nodes.forEach((n, i) => {
    if (underSame.has(i)) return void hidden.push(n.id);
    const [left, top, right, bottom] = [n.at[0], n.at[1], n.at[0] + WIDTH, n.at[1] + n.height];
    const over = new Set<number>();
    for (const key of cells(n)) for (const j of grid.get(key)!) if (j > i) over.add(j);
    const boxes = [...over].map((j) => nodes[j]).map((
      o,
    ) => [o.at[0], o.at[1], o.at[0] + WIDTH, o.at[1] + o.height])
      .filter(([l, t, r, b]) => l < right && left < r && t < bottom && top < b);
    if (!boxes.length) return;
    if (boxes.some(([l, t, r, b]) => l <= left && t <= top && right <= r && bottom <= b)) {
      return void hidden.push(n.id);
    }
    const covered = (x: number, y: number) =>
      boxes.some(([l, t, r, b]) => l <= x && x <= r && t <= y && y <= b);
    if (boxes.length > EXACT_UP_TO) {
      // A dense heap (thousands scattered over a few screens): cutting by every edge is cubic in them.
      for (let a = 0; a < 16; a++) {
        for (let b = 0; b < 8; b++) {
          if (!covered(left + (a + 0.5) * WIDTH / 16, top + (b + 0.5) * n.height / 8)) return;
        }
      }
      return void hidden.push(n.id);
    }
    const cut = (lo: number, hi: number, edges: number[]) =>
      [...new Set([lo, hi, ...edges.filter((e) => e > lo && e < hi)])].sort((a, b) => a - b);
    const xs = cut(left, right, boxes.flatMap(([l, , r]) => [l, r]));
    const ys = cut(top, bottom, boxes.flatMap(([, t, , b]) => [t, b]));
    for (let a = 0; a + 1 < xs.length; a++) {
      for (let b = 0; b + 1 < ys.length; b++) {
        const [x, y] = [(xs[a] + xs[a + 1]) / 2, (ys[b] + ys[b + 1]) / 2];
        if (!covered(x, y)) return;
      }
    }
    hidden.push(n.id);
  });
  return hidden;
}

/**
 * Moves the nodes `hidden` of `graph` (ids as {@link hiddenNodes} gives them) out from under the
 * others: their positions are dropped and they are laid out as a graph without positions is (columns
 * by depth), below every node kept in place (`kept`, as drawn), left-aligned with them.
 */
export function layOutBelow(graph: Graph, hidden: readonly string[], kept: readonly Drawn[]): void {
  const ui = graph.ui ??= {};
  const moved = new Set(hidden);
  if (moved.has(INPUTS_ID)) delete ui.inputs;
  if (moved.has(OUTPUTS_ID)) delete ui.outputs;
  const nodes = ui.nodes ??= {};
  for (const id of hidden) delete nodes[id];
  layoutMissing(graph);
  const left = kept.length ? Math.min(...kept.map((n) => n.at[0])) : 0;
  const below = kept.length ? Math.max(...kept.map((n) => n.at[1] + n.height)) + GAP : 0;
  const shift = ([x, y]: [number, number]): [number, number] => [Math.round(x + left), Math.round(y + below)];
  for (const id of hidden) {
    if (id === INPUTS_ID) graph.ui!.inputs = shift(graph.ui!.inputs!);
    else if (id === OUTPUTS_ID) graph.ui!.outputs = shift(graph.ui!.outputs!);
    else graph.ui!.nodes![id] = shift(graph.ui!.nodes![id]);
  }
}
