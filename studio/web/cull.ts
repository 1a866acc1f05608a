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

/**
 * Below this zoom a graph that draws only what is in view ({@link CULL_FROM} nodes and more) draws
 * each node as its box: body, header colour and run state, no title, sockets or labels. Its text is
 * under 5 pixels high there, and every node in the half-view-wider box around the view is drawn: a
 * 20,000-node graph zoomed out drew ten elements per node (title, sockets, their tooltips, labels)
 * where three show all that can be seen (as Blender's node editor and others draw far-off nodes).
 */
export const FAR_BELOW = 0.4;

/** True when a redraw of a graph of `count` nodes at zoom `scale` draws its nodes as boxes. */
export const drawnFar = (scale: number, count: number): boolean => count > CULL_FROM && scale < FAR_BELOW;
