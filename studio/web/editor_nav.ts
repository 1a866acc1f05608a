/// <reference lib="dom" />
/**
 * The node editor without a mouse (a keyboard-only user, a screen reader): the arrow keys select the
 * nearest node that way on the canvas, as a focus ring moves across a page (nothing selected: the
 * first node, reading order), the view following; what is selected is said in the status bar (a live
 * region), with its sockets and wires; Enter goes to its parameters. Wires are made with the connect
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
 * to a nearer one far to the side). No `from` (or it is gone): the first node in reading order, top
 * to bottom then left to right. Undefined when there is none that way.
 */
export function nextNode(model: GraphModel, from: string | undefined, key: string): string | undefined {
  const ids = model.ids();
  if (from === undefined || !ids.includes(from)) {
    return ids.map((id) => ({ id, at: model.position(id) }))
      .sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0])[0]?.id;
  }
  const [dx, dy] = DIRECTIONS[key];
  const [x0, y0] = centre(model, from);
  let best: { id: string; score: number } | undefined;
  for (const id of ids) {
    if (id === from) continue;
    const [x, y] = centre(model, id);
    const ahead = (x - x0) * dx + (y - y0) * dy;
    const aside = Math.abs((x - x0) * dy + (y - y0) * dx);
    if (ahead <= 0 || aside > ahead) continue;
    const score = ahead + 2 * aside;
    if (!best || score < best.score) best = { id, score };
  }
  return best?.id;
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
    "arrows: next node · Enter: parameters · C: connect",
  ].join("; ");
}
