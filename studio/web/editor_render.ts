/// <reference lib="dom" />
/**
 * The node editor's drawing (`editor.ts`): its nodes and wires as SVG, redrawn as a pure function of
 * the graph, the view and the editor's state, keeping what would be drawn the same.
 *
 * @module
 */
import type { Bounds, View } from "./framing.ts";
import type { GraphModel } from "./model.ts";
import { drawFarNode, drawNode, type NodeState } from "./node_svg.ts";
import { el, HEADER, ROW, SOCKET_COLOURS, SVG, WIDTH } from "./svg.ts";
import type { Issue } from "./types.ts";
import type { Shape } from "./shapes.ts";
import { drawnBox, drawnFar } from "./cull.ts";
import { issuesByNode, wireIsWrong } from "./node_issues.ts";
import { wirePath } from "./wire_clip.ts";
import { type Drawn, kept, overlaps, reconcile } from "./redraw.ts";
import { SocketRows } from "./socket_rows.ts";

/** What of the editor's state a drawing shows besides the graph. */
export interface DrawnState {
  readonly selection: readonly string[];
  readonly issues: readonly Issue[];
  readonly states: ReadonlyMap<string, NodeState>;
  /** True when the graph changed since the run the badges come from. */
  readonly stale: boolean;
}

/** A graph drawn as SVG, as its last redraw left it. */
export class GraphDrawing {
  /** The group the graph is drawn in (the wires' group first, then the nodes). */
  readonly layer: SVGGElement = document.createElementNS(SVG, "g");
  /** The group the wires are drawn in, under the nodes. */
  private readonly wireLayer: SVGGElement = document.createElementNS(SVG, "g");
  /** Each node's drawing, by id, as the last redraw left them (with what it was drawn from). */
  private readonly drawn = new Map<string, Drawn>();
  /** Each wire's drawing, by what it was drawn from, as the last redraw left them. */
  private readonly wiresDrawn = new Map<string, Drawn>();
  /** True when the last redraw left out nodes outside the view (a large graph): a pan redraws. */
  culled = false;
  /** The canvas box the last redraw drew nodes in (undefined: all of them). */
  area?: Bounds;
  /** True when the last redraw drew nodes as boxes (`cull.ts`'s `drawnFar`): zoomed far out. */
  far = false;

  /** Node `id`'s drawing, if the last redraw drew it. */
  node(id: string): Element | undefined {
    return this.drawn.get(id)?.element;
  }

  /**
   * Redraws `model` (none: nothing) seen through `view` in an editor of `size()` pixels (asked only
   * when there is a graph to draw); see `NodeEditor.render`.
   */
  draw(
    model: GraphModel | undefined,
    view: View,
    size: () => { width: number; height: number },
    state: DrawnState,
  ): void {
    if (!model) {
      this.layer.replaceChildren();
      this.drawn.clear();
      this.wiresDrawn.clear();
      return;
    }
    const transform = `scale(${view.scale}) translate(${-view.x} ${-view.y})`;
    if (this.layer.getAttribute("transform") !== transform) this.layer.setAttribute("transform", transform);
    // One set, not a list per wire: a generated graph of thousands of nodes redraws in time.
    const ids = model.ids();
    // Shapes only of what is drawn; what is in view is found from socket rows by kind of node.
    const rows = new SocketRows(model);
    const shapes = new Map<string, Shape>();
    const shapeOf = (id: string) => shapes.get(id) ?? shapes.set(id, model.shape(id)).get(id)!;
    const socketAt = (id: string, socket: string, side: "in" | "out"): [number, number] => {
      const i = rows.row(id, socket, side);
      const [x, y] = model.position(id);
      return [x + (side === "in" ? 0 : WIDTH), y + (i < 0 ? HEADER / 2 : HEADER + 14 + i * ROW)];
    };
    const issuePaths = new Set(state.issues.map((i) => i.path));
    const { width, height } = size();
    const box = drawnBox(view, width, height, ids.length);
    this.culled = box !== undefined;
    this.area = box;
    const far = this.far = drawnFar(view.scale, ids.length);
    const wires: Drawn[] = [];
    const drawnNow = new Set<string>();
    const known = new Set(ids);
    for (const wire of model.wires()) {
      if (!known.has(wire.from)) continue;
      const start = socketAt(wire.from, wire.fromSocket, "out");
      const end = socketAt(wire.to, wire.toSocket, "in");
      if (box && !overlaps(box, start, end)) continue;
      const from = shapeOf(wire.from);
      const type = from.outputs.find((s) => s.name === wire.fromSocket)?.type ?? "any";
      const d = wirePath(start, end, box);
      if (!d) continue; // a long wire that only passes by the drawn box
      const attrs = {
        class: `wire${wireIsWrong(wire, shapeOf, issuePaths) ? " bad" : ""}`,
        d,
        stroke: SOCKET_COLOURS[type] ?? "#888",
        "data-wire": `${wire.from}.${wire.fromSocket}->${wire.to}.${wire.toSocket}`,
      };
      const key = `${attrs["data-wire"]}\n${attrs.d}\n${attrs.class}\n${attrs.stroke}`;
      // The same wire twice (a hand-written file's duplicate) is drawn once: the drawing is the same.
      if (drawnNow.has(key)) continue;
      drawnNow.add(key);
      wires.push(kept(this.wiresDrawn, key, key, () => el("path", attrs)));
    }
    this.wiresDrawn.clear();
    for (const wire of wires) this.wiresDrawn.set(wire.key, wire);
    reconcile(this.wireLayer, wires.map((w) => w.element));
    const selected = new Set(state.selection);
    const issues = issuesByNode(state.issues);
    const nodes: Drawn[] = [];
    const before = new Map([...this.drawn].map(([id, element]) => [id, element]));
    this.drawn.clear();
    for (const id of ids) {
      const at = model.position(id);
      if (box && !overlaps(box, at, [at[0] + WIDTH, at[1] + rows.height(id)])) continue;
      const look = {
        at,
        selected: selected.has(id),
        issues: issues.get(id) ?? [],
        state: state.states.get(id),
        stale: state.stale,
      };
      // Selection is a class the editor toggles in place (`reselect`): it is not part of the key.
      // Zoomed far out, a node is its box, keyed by what the box shows (not by its shape's JSON).
      const node = far
        ? kept(
          before,
          id,
          `far ${at} ${rows.height(id)} ${rows.category(id)} ${look.issues.length > 0} ${look.state?.state}`,
          () => drawFarNode(id, rows.height(id), rows.category(id), look),
        )
        : kept(
          before,
          id,
          JSON.stringify([shapeOf(id), at, look.issues, look.state, look.state && state.stale]),
          () => drawNode(id, shapeOf(id), look),
        );
      node.element.classList.toggle("selected", look.selected);
      this.drawn.set(id, node);
      nodes.push(node);
    }
    reconcile(this.layer, [this.wireLayer, ...nodes.map((n) => n.element)]);
  }
}
