/// <reference lib="dom" />
/**
 * SVG drawing helpers and the look of the node editor: node sizes, socket and header colours.
 *
 * @module
 */
import { shownName, shownText } from "./shown_name.ts";

/** The SVG namespace. */
export const SVG = "http://www.w3.org/2000/svg";
/** Node width. */
export const WIDTH = 200;
/** Node header height. */
export const HEADER = 26;
/** Height of one socket row. */
export const ROW = 22;

/** Socket colours by value type (Blender colours sockets by type too). */
export const SOCKET_COLOURS: Record<string, string> = {
  bytes: "#c7a24a",
  scene: "#00d6a3",
  json: "#a35cd6",
  string: "#70b2ff",
  number: "#a1a1a1",
  boolean: "#cca6d6",
  any: "#666666",
};

/** Node header colours by type category. */
export const HEADER_COLOURS: Record<string, string> = {
  io: "#4d2e2e",
  decode: "#2e3f4d",
  constraints: "#3d2e4d",
  rig: "#2e4d36",
  export: "#4d452e",
  demo: "#2e4d4b",
  graph: "#3a3a3a",
  group: "#1f5f3f",
};

/** An SVG element with attributes. */
export function el(name: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** An SVG text element. */
export function text(value: string, x: number, y: number, cls: string, anchor = "start"): SVGElement {
  const t = el("text", { x, y, class: cls, "text-anchor": anchor });
  t.textContent = shownName(value);
  return t;
}

/** An SVG tooltip. */
export function titleOf(value: string): SVGElement {
  const t = document.createElementNS(SVG, "title");
  t.textContent = shownText(value);
  return t;
}

/** A wire's bezier path from an output to an input. */
export function curve([x1, y1]: [number, number], [x2, y2]: [number, number]): string {
  const bend = Math.max(40, Math.abs(x2 - x1) / 2);
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}

/** Escapes a key for a JSON pointer (RFC 6901), as validation paths do. */
export function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
