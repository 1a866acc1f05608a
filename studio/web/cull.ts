/**
 * What part of a large graph the editor draws: a graph of more than {@link CULL_FROM} nodes draws
 * only the nodes in and around the view, and the wires that pass through it (a 10,000-node graph
 * took 20 s to open when the browser laid out all of them).
 *
 * @module
 */
import type { Bounds, View } from "./framing.ts";

/** Graphs of more nodes than this draw only what is in and around the view. */
export const CULL_FROM = 1000;

/**
 * The canvas box a redraw draws nodes in, for a graph of `count` nodes in an editor of `width` ×
 * `height` pixels showing `view`: the view and half a view around it (a small pan shows drawn nodes
 * at once); undefined draws all (a graph of at most {@link CULL_FROM} nodes, or an editor with no size).
 */
export function drawnBox(view: View, width: number, height: number, count: number): Bounds | undefined {
  if (count <= CULL_FROM || !width || !height) return undefined;
  const [w, h] = [width / view.scale, height / view.scale];
  return { left: view.x - w / 2, top: view.y - h / 2, right: view.x + 1.5 * w, bottom: view.y + 1.5 * h };
}
