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
  // Boxes as numbers, not arrays: a dense heap asks millions of point-in-box questions.
  const [L, T, R, B] = [0, 1, 2, 3].map(() => new Float64Array(nodes.length));
  nodes.forEach((n, i) => {
    [L[i], T[i], R[i], B[i]] = [n.at[0], n.at[1], n.at[0] + WIDTH, n.at[1] + n.height];
  });
  // Each cell's nodes in drawing order: the nodes over a node are at the end of its cells' lists. A
  // node at a huge position (a scatter of 1e6) still spans only a few cells: WIDTH and its height.
  const grid = new Map<string, number[]>();
  const span = (i: number) => {
    const [x0, y0] = [Math.floor(L[i] / CELL), Math.floor(T[i] / CELL)];
    return { x0, y0, columns: Math.floor(R[i] / CELL) - x0 + 1, rows: Math.floor(B[i] / CELL) - y0 + 1 };
  };
  /** Node `i`'s cells' lists, column by column. */
  const cellsOf = (i: number) => {
    const { x0, y0, columns, rows } = span(i);
    const lists: number[][] = [];
    for (let x = 0; x < columns; x++) {
      for (let y = 0; y < rows; y++) {
        const key = `${x0 + x},${y0 + y}`;
        let here = grid.get(key);
        if (!here) grid.set(key, here = []);
        lists.push(here);
      }
    }
    return lists;
  };
  nodes.forEach((_, i) => cellsOf(i).forEach((here) => here.push(i)));
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
    const [left, top, right, bottom] = [L[i], T[i], R[i], B[i]];
    const lists = cellsOf(i);
    // The later nodes over it, from the top down, up to one more than are judged exactly: in a heap
    // of thousands (20,000 scattered over a 1,000-unit square) gathering all of them for every node
    // was quadratic (6.5 s).
    const seen = new Set<number>();
    const over: number[] = [];
    gather: for (const here of lists) {
      for (let k = here.length - 1; k >= 0 && here[k] > i; k--) {
        const j = here[k];
        if (seen.has(j)) continue;
        seen.add(j);
        if (L[j] < right && left < R[j] && T[j] < bottom && top < B[j]) over.push(j);
        if (over.length > EXACT_UP_TO) break gather;
      }
    }
    if (!over.length) return;
    if (over.some((j) => L[j] <= left && T[j] <= top && right <= R[j] && bottom <= B[j])) {
      return void hidden.push(n.id);
    }
    if (over.length > EXACT_UP_TO) {
      // A dense heap: cutting by every edge is cubic in them. Each point asks its cell's nodes from the
      // top down, and the first over it answers (a later node over the point is over the node).
      // The node over the last point is most often over the next one too: it is asked first.
      const { x0, y0, rows } = span(i);
      let last = over[0];
      const coveredAbove = (x: number, y: number) => {
        if (L[last] <= x && x <= R[last] && T[last] <= y && y <= B[last]) return true;
        const here = lists[(Math.floor(x / CELL) - x0) * rows + Math.floor(y / CELL) - y0];
        for (let k = here.length - 1; k >= 0 && here[k] > i; k--) {
          const j = here[k];
          if (L[j] <= x && x <= R[j] && T[j] <= y && y <= B[j]) return (last = j, true);
        }
        return false;
      };
      for (let a = 0; a < 16; a++) {
        for (let b = 0; b < 8; b++) {
          if (!coveredAbove(left + (a + 0.5) * WIDTH / 16, top + (b + 0.5) * n.height / 8)) return;
        }
      }
      return void hidden.push(n.id);
    }
    const covered = (x: number, y: number) =>
      over.some((j) => L[j] <= x && x <= R[j] && T[j] <= y && y <= B[j]);
    const cut = (lo: number, hi: number, edges: number[]) =>
      [...new Set([lo, hi, ...edges.filter((e) => e > lo && e < hi)])].sort((a, b) => a - b);
    const xs = cut(left, right, over.flatMap((j) => [L[j], R[j]]));
    const ys = cut(top, bottom, over.flatMap((j) => [T[j], B[j]]));
    for (let a = 0; a + 1 < xs.length; a++) {
      for (let b = 0; b + 1 < ys.length; b++) {
        if (!covered((xs[a] + xs[a + 1]) / 2, (ys[b] + ys[b + 1]) / 2)) return;
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
