/// <reference lib="dom" />
/**
 * The node editor without a mouse (a keyboard-only user, a screen reader): the arrow keys select the
 * nearest node that way on the canvas, as a focus ring moves across a page (nothing selected: the
 * first node, reading order), the view following; what is selected is said in the status bar (a live
 * region), with its sockets and wires; PageDown and PageUp step through every node in reading order;
 * Shift+arrows move the selection; Enter goes to its parameters. Wires are made with the connect
 * dialog (`connect_dialog.ts`).
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { label } from "./shapes.ts";
import { WIDTH } from "./svg.ts";

/** An arrow key's direction on the canvas (y grows downwards). */
const DIRECTIONS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** How far Shift+arrow moves the selected nodes, in canvas units (a tenth of a node's width). */
export const MOVE_STEP = 20;

/** An arrow key's direction on the canvas, as `[dx, dy]` (y grows downwards). */
export function arrowStep(key: string): [number, number] {
  return DIRECTIONS[key];
}

/** True for the four arrow keys. */
export function isArrow(key: string): boolean {
  return key in DIRECTIONS;
}

/** The centre of node `id` as drawn. */
function centre(model: GraphModel, id: string): [number, number] {
  const [x, y] = model.position(id);
  return [x + WIDTH / 2, y + model.height(id) / 2];
}

/**
 * The node an arrow key goes to from `from`: of the nodes whose centre lies that way (within 45° of
 * it), the nearest, a step sideways counting twice a step ahead (so Down goes to the node below, not
 * to a nearer one far to the side). Nodes on the very same spot (a tool that writes every position as
 * `[0, 0]`, a pasted `ui` block, a grid snap) are a stack walked in file order: Right and Down go to
 * the next in it, Left and Up to the one before, then on past the stack; without that, only one node
 * of a stack could be reached. No `from` (or it is gone): the first node in reading order, top to
 * bottom then left to right. Undefined when there is none that way.
 */
export function nextNode(model: GraphModel, from: string | undefined, key: string): string | undefined {
  const ids = model.ids();
  const index = from === undefined ? -1 : ids.indexOf(from);
  if (index < 0) return readingOrder(model)[0];
  const [dx, dy] = DIRECTIONS[key];
  const forward = dx + dy > 0;
  const [x0, y0] = centre(model, from!);
  const [left, top] = model.position(from!);
  let best: { id: string; score: number } | undefined;
  ids.forEach((id, i) => {
    if (id === from) return;
    const [x, y] = centre(model, id);
    const ahead = (x - x0) * dx + (y - y0) * dy;
    const aside = Math.abs((x - x0) * dy + (y - y0) * dx);
    // Placed at the same spot (their centres differ when their heights do).
    const [l, t] = model.position(id);
    const stacked = l === left && t === top;
    // In a stack, the next one in file order (the previous, going back) is the nearest of all.
    if (stacked ? (forward ? i < index : i > index) : ahead <= 0 || aside > ahead) return;
    const score = stacked ? Math.abs(i - index) - ids.length : ahead + 2 * aside;
    if (!best || score < best.score) best = { id, score };
  });
  return best?.id;
}

/**
 * PageDown (PageUp): the node after (before) `from` in reading order, round to the first (last): every
 * node in turn, wherever the arrows' nearest-that-way rule would pass one by (a scatter of far nodes).
 */
export function pageNode(model: GraphModel, from: string | undefined, key: "PageDown" | "PageUp"): string {
  const order = readingOrder(model);
  const at = from === undefined ? -1 : order.indexOf(from);
  if (at < 0) return key === "PageDown" ? order[0] : order[order.length - 1];
  return order[(at + (key === "PageDown" ? 1 : order.length - 1)) % order.length];
}

/** Every node id in reading order: top to bottom, then left to right, then file order. */
export function readingOrder(model: GraphModel): string[] {
  return model.ids().map((id, i) => ({ id, i, at: model.position(id) }))
    .sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0] || a.i - b.i).map((n) => n.id);
}

/**
 * What the status bar says of node `id` when the keyboard selects it: its name and type, its inputs
 * (and what each is wired from) and outputs, and the keys that act on it.
 */
export function describeNode(model: GraphModel, id: string): string {
  const shape = model.shape(id);
  const wires = model.wires();
  const inputs = shape.inputs.map((s) => {
    const from = wires.find((w) => w.to === id && w.toSocket === s.name);
    return `${s.name} (${s.type})${from ? ` ← ${label(from.from)}.${from.fromSocket}` : ""}`;
  });
  const outputs = shape.outputs.map((s) => `${s.name} (${s.type})`);
  const type = model.graph.nodes[id]?.type;
  return [
    `Selected ${label(id)}${type ? ` (${type})` : ""}`,
    `inputs: ${inputs.join(", ") || "none"}`,
    `outputs: ${outputs.join(", ") || "none"}`,
    "arrows: nearest node that way · PageDown/PageUp: every node in turn · Enter: parameters · C: connect",
  ].join("; ");
}
