/**
 * Arrange: a layered layout of nodes along their wires, as node editors' auto-layout does (Blender's
 * Node Arrange add-on, litegraph's `arrange()`): columns by depth along the links (a source as far
 * right as its first consumer allows, so a read sits beside its decode), the order within a column
 * chosen to cross fewer wires (barycentre sweeps over the columns, the best order kept), each node
 * level with what feeds it where there is room, and no two nodes on each other. Separate parts of
 * the graph are stacked one under another; nodes with no wire go in a grid below. Deterministic: the
 * same nodes, wires and positions give the same layout.
 *
 * @example
 * ```ts
 * import { arrange } from "./arrange.ts";
 *
 * const at = arrange({
 *   ids: ["read", "decode"],
 *   wires: [{ from: "read", fromSocket: "bytes", to: "decode", toSocket: "bytes" }],
 *   at: () => [0, 0],
 *   height: () => 70,
 *   socket: () => 0,
 * });
 * // read in the first column, decode in the next, level with it.
 * ```
 *
 * @module
 */
import type { Wire } from "./shapes.ts";
import { HEADER, ROW, WIDTH } from "./svg.ts";

/** What arranging needs to know of the nodes it moves. */
export interface ArrangeInput {
  /** The nodes to arrange, in file order (ties keep it). */
  readonly ids: readonly string[];
  /** Every wire; those not between two of `ids` are left out. */
  readonly wires: readonly Wire[];
  /** A node's position now (the order within a column starts from it, and the layout keeps its corner). */
  at(id: string): readonly [number, number];
  /** A node's drawn height. */
  height(id: string): number;
  /** The row of a node's socket on a side (0 for the first; -1 when it does not draw it). */
  socket(id: string, socket: string, side: "in" | "out"): number;
}

/** The distance from one column's left edge to the next's. */
export const COLUMN_STEP = WIDTH + 90;
/** The space between two nodes of a column, and between stacked parts of the graph. */
export const ROW_GAP = 40;
/** How many barycentre sweeps (down and back) order the columns. */
const SWEEPS = 12;

/** A node of the layered layout: one of the nodes, or a bend point of a wire that skips columns. */
interface Slot {
  readonly id?: string;
  readonly height: number;
  layer: number;
  /** Its place in its column, from the top (fractional while sorting). */
  order: number;
  y: number;
  /** Wires in and out. */
  readonly ins: Edge[];
  readonly outs: Edge[];
}

/** A wire between two slots, and the socket row at each end; one object in both ends' lists. */
interface Edge {
  from: Slot;
  to: Slot;
  fromRow: number;
  readonly toRow: number;
}

/** Takes `edge` out of both its ends' lists. */
function unlink(edge: Edge): void {
  edge.from.outs.splice(edge.from.outs.indexOf(edge), 1);
  edge.to.ins.splice(edge.to.ins.indexOf(edge), 1);
}

/** Adds a wire from `from` to `to`. */
function link(from: Slot, to: Slot, fromRow: number, toRow: number): void {
  const edge = { from, to, fromRow, toRow };
  from.outs.push(edge);
  to.ins.push(edge);
}

/** New positions (top-left corners) for `input.ids`, laid out as the module doc says. */
export function arrange(input: ArrangeInput): Map<string, [number, number]> {
  const { ids } = input;
  const result = new Map<string, [number, number]>();
  if (!ids.length) return result;
  const slots = new Map<string, Slot>();
  ids.forEach((id, i) => {
    slots.set(id, { id, height: input.height(id), layer: 0, order: i, y: 0, ins: [], outs: [] });
  });
  const seen = new Set<string>();
  for (const w of input.wires) {
    const [from, to] = [slots.get(w.from), slots.get(w.to)];
    const key = `${w.from}\n${w.fromSocket}\n${w.to}\n${w.toSocket}`;
    if (!from || !to || from === to || seen.has(key)) continue;
    seen.add(key);
    const [fromRow, toRow] = [
      Math.max(0, input.socket(w.from, w.fromSocket, "out")),
      Math.max(0, input.socket(w.to, w.toSocket, "in")),
    ];
    link(from, to, fromRow, toRow);
  }
  const [x0, y0] = [
    Math.min(...ids.map((id) => input.at(id)[0])),
    Math.min(...ids.map((id) => input.at(id)[1])),
  ];
  let top = 0;
  const loose: Slot[] = [];
  for (const part of parts(ids.map((id) => slots.get(id)!))) {
    if (part.length === 1) {
      loose.push(part[0]);
      continue;
    }
    const bottom = layOut(part, input);
    for (const s of part) result.set(s.id!, [x0 + s.layer * COLUMN_STEP, Math.round(y0 + top + s.y)]);
    top += bottom + ROW_GAP * 2;
  }
  // Nodes without wires: a grid, rows of about the square root of their count, in file order.
  const across = Math.max(1, Math.ceil(Math.sqrt(loose.length)));
  for (let row = 0; row * across < loose.length; row++) {
    const cells = loose.slice(row * across, (row + 1) * across);
    cells.forEach((s, i) => result.set(s.id!, [x0 + i * COLUMN_STEP, Math.round(y0 + top)]));
    top += Math.max(...cells.map((s) => s.height)) + ROW_GAP;
  }
  return result;
}

/** The connected parts of the graph (wires either way), each in file order, ordered by first node. */
function parts(all: Slot[]): Slot[][] {
  const part = new Map<Slot, number>();
  const found: Slot[][] = [];
  for (const start of all) {
    if (part.has(start)) continue;
    const members: Slot[] = [];
    const stack = [start];
    part.set(start, found.length);
    while (stack.length) {
      const s = stack.pop()!;
      members.push(s);
      for (const next of [...s.ins.map((w) => w.from), ...s.outs.map((w) => w.to)]) {
        if (!part.has(next)) part.set(next, found.length), stack.push(next);
      }
    }
    members.sort((a, b) => a.order - b.order);
    found.push(members);
  }
  return found;
}

/** Lays out one connected part: sets each slot's layer and y (from 0); returns the part's height. */
function layOut(part: Slot[], input: ArrangeInput): number {
  layer(part);
  const columns = withBends(part);
  // Start from the order the file shows them in (top to bottom), so an arranged graph still reads
  // as its author placed it where the wires leave a choice.
  const start = new Map(part.map((s) => [s, input.at(s.id!)[1]]));
  const startY = (s: Slot): number => start.get(s) ?? startY(s.ins[0].from);
  for (const column of columns) {
    column.sort((a, b) => startY(a) - startY(b) || a.order - b.order);
    column.forEach((s, i) => (s.order = i));
  }
  let best = columns.map((c) => c.slice()), fewest = crossings(columns);
  for (let sweep = 0; sweep < SWEEPS && fewest > 0; sweep++) {
    const down = sweep % 2 === 0;
    for (let i = 1; i < columns.length; i++) {
      const column = columns[down ? i : columns.length - 1 - i];
      reorder(
        column,
        (s) => down ? s.ins.map((w) => place(w.from, w.fromRow)) : s.outs.map((w) => place(w.to, w.toRow)),
      );
    }
    const now = crossings(columns);
    if (now < fewest) [best, fewest] = [columns.map((c) => c.slice()), now];
  }
  best.forEach((column) => column.forEach((s, i) => (s.order = i)));
  return placeRows(best);
}

/** A wire end's place for sorting: its slot's order, and its socket row as a fraction. */
const place = (s: Slot, row: number) => s.order + row / 64;

/** Sorts a column by the mean place of each slot's neighbours (those without keep their place). */
function reorder(column: Slot[], neighbours: (s: Slot) => number[]): void {
  const key = new Map(column.map((s) => {
    const at = neighbours(s);
    return [s, at.length ? at.reduce((a, b) => a + b, 0) / at.length : s.order];
  }));
  column.sort((a, b) => key.get(a)! - key.get(b)! || a.order - b.order);
  column.forEach((s, i) => (s.order = i));
}

/**
 * Layers by the longest path from the sources, wires that close a cycle left out; then each node
 * that feeds others moves right up to the column before its nearest consumer (a graph's reads beside
 * what decodes them, not all in the first column).
 */
function layer(part: Slot[]): void {
  // Depth-first from each slot in file order; a wire back to a slot on the path closes a cycle.
  const state = new Map<Slot, 1 | 2>();
  const back = new Set<Edge>();
  const order: Slot[] = [];
  for (const root of part) {
    if (state.has(root)) continue;
    const stack: { s: Slot; next: number }[] = [{ s: root, next: 0 }];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next < top.s.outs.length) {
        const wire = top.s.outs[top.next++];
        const st = state.get(wire.to);
        if (st === 1) back.add(wire);
        else if (st === undefined) state.set(wire.to, 1), stack.push({ s: wire.to, next: 0 });
        continue;
      }
      stack.pop();
      state.set(top.s, 2);
      order.push(top.s);
    }
  }
  order.reverse(); // a topological order of the wires kept
  const forward = (s: Slot) => s.outs.filter((w) => !back.has(w));
  for (const s of part) s.layer = 0;
  for (const s of order) for (const w of forward(s)) w.to.layer = Math.max(w.to.layer, s.layer + 1);
  for (let i = order.length - 1; i >= 0; i--) {
    const s = order[i], outs = forward(s);
    if (outs.length) s.layer = Math.max(s.layer, Math.min(...outs.map((w) => w.to.layer)) - 1);
  }
  // Wires that closed a cycle now run right to left: they are drawn as they are, and not followed.
  for (const s of part) for (const w of s.outs.filter((w) => back.has(w))) unlink(w);
}

/**
 * The columns, each a list of slots, with a bend slot in every column a wire skips (so ordering sees
 * where long wires pass, and leaves them a gap).
 */
function withBends(part: Slot[]): Slot[][] {
  const columns: Slot[][] = [];
  const add = (s: Slot) => (columns[s.layer] ??= []).push(s);
  part.forEach(add);
  for (const s of part) {
    for (const w of s.outs.slice()) {
      if (w.to.layer - s.layer <= 1) continue;
      unlink(w);
      let [from, fromRow] = [s, w.fromRow];
      for (let l = s.layer + 1; l < w.to.layer; l++) {
        const bend: Slot = { height: ROW, layer: l, order: from.order, y: 0, ins: [], outs: [] };
        link(from, bend, fromRow, 0);
        add(bend);
        [from, fromRow] = [bend, 0];
      }
      link(from, w.to, fromRow, w.toRow);
    }
  }
  for (let l = 0; l < columns.length; l++) columns[l] ??= [];
  return columns;
}

/** Wire crossings between neighbouring columns (by the slots' orders and socket rows). */
function crossings(columns: Slot[][]): number {
  let total = 0;
  for (const column of columns) {
    const ends: [number, number][] = [];
    for (const s of column) for (const w of s.outs) ends.push([place(s, w.fromRow), place(w.to, w.toRow)]);
    ends.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    total += inversions(ends.map((e) => e[1]));
  }
  return total;
}

/** Pairs out of order in `values` (merge sort: n log n). */
function inversions(values: number[]): number {
  if (values.length < 2) return 0;
  const mid = values.length >> 1;
  const [left, right] = [values.slice(0, mid), values.slice(mid)];
  let count = inversions(left) + inversions(right);
  let [i, j, k] = [0, 0, 0];
  while (i < left.length && j < right.length) {
    if (left[i] <= right[j]) values[k++] = left[i++];
    else values[k++] = right[j++], count += left.length - i;
  }
  while (i < left.length) values[k++] = left[i++];
  while (j < right.length) values[k++] = right[j++];
  return count;
}

/**
 * Sets each slot's y, column by column from the left: level with the mean of the wires feeding it
 * where there is room, else just below the slot above it; then, from the right, a slot nothing feeds
 * (a read) level with what it feeds. Returns the bottom of the lowest slot.
 */
function placeRows(columns: Slot[][]): number {
  const socketY = (row: number) => HEADER + 14 + row * ROW;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const settle = (column: Slot[], wanted: (s: Slot) => number | undefined) => {
    let below: number | undefined;
    for (const s of column) {
      const want = wanted(s) ?? s.y;
      s.y = below === undefined ? want : Math.max(below + ROW_GAP, want);
      below = s.y + s.height;
    }
  };
  for (const column of columns) {
    settle(
      column,
      (s) =>
        s.ins.length ? mean(s.ins.map((w) => w.from.y + socketY(w.fromRow) - socketY(w.toRow))) : undefined,
    );
  }
  for (let l = columns.length - 2; l >= 0; l--) {
    settle(
      columns[l],
      (s) =>
        s.ins.length || !s.outs.length
          ? undefined
          : mean(s.outs.map((w) => w.to.y + socketY(w.toRow) - socketY(w.fromRow))),
    );
  }
  const all = columns.flat();
  const top = Math.min(...all.map((s) => s.y));
  let bottom = 0;
  for (const s of all) s.y -= top, bottom = Math.max(bottom, s.y + s.height);
  return bottom;
}
