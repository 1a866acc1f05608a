/// <reference lib="dom" />
/**
 * How the node editor draws one node: an SVG group with its header, title, run badge, issue mark and
 * typed sockets (the `data-*` attributes the page and its browser tests find them by).
 *
 * @module
 */
import type { Shape } from "./shapes.ts";
import { shownName } from "./shown_name.ts";
import { el, HEADER, HEADER_COLOURS, ROW, SOCKET_COLOURS, text, titleOf, WIDTH } from "./svg.ts";
import type { Issue } from "./types.ts";

/** The tooltip of a badge from a run of the graph as it was before an edit. */
export const STALE_BADGE = "from the last run; the graph changed since";

/** Run state of a node, shown as a badge. */
export interface NodeState {
  state: string;
  ms?: number;
}

/** How a node is drawn besides its shape: where, selected or not, its issues and run state. */
export interface NodeLook {
  readonly at: [number, number];
  readonly selected: boolean;
  /** The check's issues at the node (its JSON path or below). */
  readonly issues: readonly Issue[];
  /** Its run badge, if the last run gave it one. */
  readonly state?: NodeState;
  /** True when the graph changed since that run: the badge is dimmed, and says why. */
  readonly stale: boolean;
}

/**
 * Node `id` as SVG: its body and header (coloured by category), title, run badge, issue mark, and its
 * sockets (coloured by type, an input the check reports marked) with their labels.
 */
export function drawNode(id: string, shape: Shape, look: NodeLook): SVGGElement {
  const [x, y] = look.at;
  const rows = Math.max(shape.inputs.length, shape.outputs.length);
  const { issues, state, stale } = look;
  const g = el("g", {
    class: `node${look.selected ? " selected" : ""}${issues.length ? " has-issue" : ""}`,
    transform: `translate(${x} ${y})`,
    "data-node": id,
    "data-state": state?.state ?? "",
  }) as SVGGElement;
  g.append(
    el("rect", { class: "body", width: WIDTH, height: HEADER + rows * ROW + 8, rx: 6 }),
    el("rect", {
      class: "header",
      width: WIDTH,
      height: HEADER,
      rx: 6,
      fill: HEADER_COLOURS[shape.category] ?? "#333",
    }),
    headerTitle(shape.title),
  );
  if (state) {
    const badge = state.ms !== undefined ? `${state.state} ${Math.round(state.ms)} ms` : state.state;
    const mark = text(
      badge,
      WIDTH - 6,
      -6,
      `badge state-${state.state}${stale ? " stale" : ""}`,
      "end",
    );
    // The node may not compute this any more: the badge stays, dimmed, and says why.
    if (stale) mark.append(titleOf(STALE_BADGE));
    g.append(mark);
  }
  if (issues.length) {
    const mark = text("⚠", WIDTH - 18, 18, "issue-mark");
    mark.append(titleOf(issues.map((i) => i.message).join("\n")));
    g.append(mark);
  }
  shape.inputs.forEach((s, i) => {
    const bad = issues.some((issue) => issue.path.includes(`/inputs/${s.name}`));
    g.append(socket(id, s.name, s.type, "in", 0, HEADER + 14 + i * ROW, bad));
    g.append(
      cut(s.optional ? `${s.name}?` : s.name, LABEL_CHARS, 10, HEADER + 18 + i * ROW, "label", "start", "in"),
    );
  });
  shape.outputs.forEach((s, i) => {
    g.append(socket(id, s.name, s.type, "out", WIDTH, HEADER + 14 + i * ROW, false));
    g.append(cut(s.name, LABEL_CHARS, WIDTH - 10, HEADER + 18 + i * ROW, "label", "end", "out"));
  });
  return g;
}

/** A socket's circle, with its name and type as its tooltip. */
function socket(
  id: string,
  name: string,
  type: string,
  side: "in" | "out",
  x: number,
  y: number,
  bad: boolean,
) {
  const c = el("circle", {
    class: `socket${bad ? " bad" : ""}`,
    cx: x,
    cy: y,
    r: 6,
    fill: SOCKET_COLOURS[type] ?? "#888",
    "data-node": id,
    "data-socket": name,
    "data-side": side,
    "data-type": type,
  });
  c.append(titleOf(`${name}: ${type}`));
  return c;
}

/**
 * The most characters of a title the header shows, and of a socket label (inputs and outputs share a
 * row), at about the editor's font: a longer node id, group file or graph input name (a generated
 * graph's, a file's 10 KB name) is cut with "…" rather than run over the canvas; the whole is its
 * tooltip.
 */
const TITLE_CHARS = 24, LABEL_CHARS = 14;

/** A node's title as its header shows it. */
const headerTitle = (title: string): SVGElement => cut(title, TITLE_CHARS, 8, 17, "title", "start", "title");

/**
 * SVG text of at most `most` characters (bidi controls and control characters shown, see svg.ts);
 * when cut, clipped to its part of the node (`clip-<area>` in index.html) for glyphs wider than most.
 */
function cut(
  value: string,
  most: number,
  x: number,
  y: number,
  cls: string,
  anchor: string,
  area: "title" | "in" | "out",
): SVGElement {
  const chars = [...shownName(value)];
  if (chars.length <= most) return text(value, x, y, cls, anchor);
  const t = text(`${chars.slice(0, most - 1).join("")}…`, x, y, cls, anchor);
  t.setAttribute("clip-path", `url(#clip-${area})`);
  const whole = chars.length > 2000
    ? `${chars.slice(0, 2000).join("")}… (${chars.length} characters)`
    : value;
  t.append(titleOf(whole));
  return t;
}

/**
 * Node `id` as a zoomed-out large graph draws it (`cull.ts`): its body `height` high and its header
 * coloured by `category`, the run state on the group for the style sheet to colour the body; no
 * text, sockets or tooltips. Selection and issues are the same classes as {@link drawNode}'s.
 */
export function drawFarNode(id: string, height: number, category: string, look: NodeLook): SVGGElement {
  const g = el("g", {
    class: `node far${look.selected ? " selected" : ""}${look.issues.length ? " has-issue" : ""}`,
    transform: `translate(${look.at[0]} ${look.at[1]})`,
    "data-node": id,
    "data-state": look.state?.state ?? "",
  }) as SVGGElement;
  g.append(
    el("rect", { class: "body", width: WIDTH, height, rx: 6 }),
    el("rect", {
      class: "header",
      width: WIDTH,
      height: HEADER,
      rx: 6,
      fill: HEADER_COLOURS[category] ?? "#333",
    }),
  );
  return g;
}
