/// <reference lib="dom" />
/**
 * The node editor's view: draws a {@link GraphModel} as SVG (nodes with typed, coloured sockets and
 * wires; a large graph only around the view), frames it (`framing.ts`), keeps the selection and
 * takes undo and redo. Pointer gestures (move, connect, box-select, pan, zoom) are in
 * `editor_pointer.ts`, keys (delete, duplicate, rename, frame, undo, Tab, group, ungroup) in
 * `editor_keys.ts`, Blender style.
 *
 * @module
 */
import { type Bounds, FRAME_MARGIN, frameView, union, type View } from "./framing.ts";
import { type GraphModel, INPUTS_ID, OUTPUTS_ID } from "./model.ts";
import { drawFarNode, drawNode, type NodeState } from "./node_svg.ts";
import { el, HEADER, ROW, SOCKET_COLOURS, SVG, WIDTH } from "./svg.ts";
import type { Issue } from "./types.ts";
import type { Shape } from "./shapes.ts";
import { CULL_FROM, drawnBox, drawnFar, FAR_BELOW } from "./cull.ts";
import { issuesByNode, wireIsWrong } from "./node_issues.ts";
import { editorKey } from "./editor_keys.ts";
import { pointerDown, wheel } from "./editor_pointer.ts";
import { wirePath } from "./wire_clip.ts";
import { type Drawn, kept, overlaps, reconcile } from "./redraw.ts";
import { SocketRows } from "./socket_rows.ts";

// The node states and the stale badge's tooltip are drawn in node_svg.ts; the page knows them from here.
export { type NodeState, STALE_BADGE } from "./node_svg.ts";
// Tests size their large graphs by it.
export { CULL_FROM };

/** What the editor tells the page. */
export interface EditorEvents {
  /** The graph changed (re-check, mark unsaved). */
  changed(): void;
  /** The selection changed. */
  selected(ids: string[]): void;
  /** A message for the status bar; `refused` for a refused action. */
  status(message: string, refused?: boolean): void;
  /** Tab on a group node: open its graph. Tab on nothing: go back to the parent graph. */
  tab(groupId?: string): void;
  /**
   * What to say when the graph shown has nothing to undo (redo): undefined for the plain "Nothing
   * to undo", else a message naming the open files that have (each file has its own history).
   */
  nothingTo?(direction: "undo" | "redo"): string | undefined;
  /** True when the graph shown was entered from another with Tab (Tab goes back); else Tab moves the focus. */
  canLeave?(): boolean;
  /** Ctrl+G: group the selected nodes into a new graph file. */
  group(ids: string[]): void;
  /** Alt+G / Ctrl+Alt+G: replace a selected group node by its nodes. */
  ungroup(ids: string[]): void;
  /** Enter on a selected node: go to its parameters (the keyboard's way to open it). */
  open?(id: string): void;
  /** F2, or a double-click on a node: rename it (Group Input / Output: their sockets). */
  rename(id: string): void;
  /**
   * Undo (Redo) took a step that is part of a change across files: take it in the others too; returns
   * what to add to the status bar (which files followed).
   */
  together(direction: "undo" | "redo", together: string): string;
}

/** The SVG node editor. */
export class NodeEditor {
  model?: GraphModel;
  selection: string[] = [];
  issues: Issue[] = [];
  states = new Map<string, NodeState>();
  /** True when the graph (or a group it uses) changed since the run the badges come from. */
  stale = false;
  view: View = { x: -40, y: -60, scale: 1 };
  readonly layer: SVGGElement;
  /** Each node's drawing, by id, as the last redraw left them (with what it was drawn from). */
  private readonly drawn = new Map<string, Drawn>();
  /** Each wire's drawing, by what it was drawn from, as the last redraw left them. */
  private readonly wiresDrawn = new Map<string, Drawn>();
  /** The group the wires are drawn in, under the nodes. */
  private readonly wireLayer: SVGGElement;
  /** Nodes to frame once the editor has a size (a graph shown while the 3D preview hides it). */
  private framePending?: string[];
  /** The editor's size in pixels, as last observed (0 × 0: hidden, or not laid out yet). */
  private size = { width: 0, height: 0 };
  /** True when the last redraw left out nodes outside the view (a large graph): a pan redraws. */
  culled = false;
  /** The canvas box the last redraw drew nodes in (undefined: all of them). */
  private drawnArea?: Bounds;
  /** True when the last redraw drew nodes as boxes (`cull.ts`'s `drawnFar`): zoomed far out. */
  private far = false;

  constructor(private readonly svg: SVGSVGElement, readonly events: EditorEvents) {
    this.layer = document.createElementNS(SVG, "g");
    this.wireLayer = document.createElementNS(SVG, "g");
    svg.append(this.layer);
    svg.addEventListener("pointerdown", (e) => pointerDown(this, svg, e));
    svg.addEventListener("wheel", (e) => wheel(this, e), { passive: false });
    svg.tabIndex = 0;
    svg.addEventListener("keydown", (e) => editorKey(this, this.events, e));
    svg.addEventListener("dblclick", (e) => {
      const node = (e.target as Element).closest("g.node")?.getAttribute("data-node");
      if (node) this.events.rename(node);
    });
    // Framing needs the editor's size: a graph shown while it had none is framed when it gets one.
    new ResizeObserver(() => {
      const pending = this.framePending;
      const { width, height } = this.measure();
      if (pending && width && height) this.frame(pending);
      else if (this.culled) this.render(); // more (or less) of the canvas is in view now
    }).observe(svg);
  }

  /** Shows a graph, with the run states it has (the page keeps them per graph, so they survive Tab). */
  show(model: GraphModel, states = new Map<string, NodeState>()): void {
    this.model = model;
    this.selection = [];
    this.states = states;
    // Framing redraws; an editor with no size yet (hidden) draws now and frames once it has one.
    this.frameAll();
    if (this.framePending) this.render();
  }

  /** The editor's size in pixels, measured now (a layout, when the page changed since). */
  private measure(): { width: number; height: number } {
    const { width, height } = this.svg.getBoundingClientRect();
    this.size = { width, height };
    return this.size;
  }

  /**
   * Redraws the graph: the view stays a pure function of the model, but a node or wire drawn as it
   * would be drawn now is kept, not made again. Undo on a 750-node graph took 1.9 s when every redraw
   * replaced all of them: the browser styled and laid out ~20,000 new elements (the JS took 0.1 s).
   * Each node's shape, issues and selection are looked up once per redraw, not once per wire or per
   * selected node: selecting all of a 5,000-node graph took 0.7 s when each node searched the
   * selection list. A graph of more than {@link CULL_FROM} nodes draws only the nodes in and around
   * the view, and the wires that pass through it: a 10,000-node graph took 20 s to open when the
   * browser laid out all of them.
   */
  render(): void {
    const model = this.model;
    if (!model) {
      this.layer.replaceChildren();
      this.drawn.clear();
      this.wiresDrawn.clear();
      return;
    }
    const transform = `scale(${this.view.scale}) translate(${-this.view.x} ${-this.view.y})`;
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
    const issuePaths = new Set(this.issues.map((i) => i.path));
    const { width, height } = this.size.width ? this.size : this.measure();
    const box = drawnBox(this.view, width, height, ids.length);
    this.culled = box !== undefined;
    this.drawnArea = box;
    const far = this.far = drawnFar(this.view.scale, ids.length);
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
    const selected = new Set(this.selection);
    const issues = issuesByNode(this.issues);
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
        state: this.states.get(id),
        stale: this.stale,
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
          JSON.stringify([shapeOf(id), at, look.issues, look.state, look.state && this.stale]),
          () => drawNode(id, shapeOf(id), look),
        );
      node.element.classList.toggle("selected", look.selected);
      this.drawn.set(id, node);
      nodes.push(node);
    }
    reconcile(this.layer, [this.wireLayer, ...nodes.map((n) => n.element)]);
  }

  /**
   * After a pan or a zoom: the view moves, and a large graph is redrawn only once the view leaves the
   * box the last redraw drew (the view and half a view around it). A wheel step or a pan redrew
   * 20,000 nodes' worth of culling each time, though everything in view was drawn already.
   */
  viewMoved(): void {
    const area = this.drawnArea;
    const { width, height } = this.size;
    const { x, y, scale } = this.view;
    // A zoom past FAR_BELOW redraws: the nodes change detail.
    if (
      this.culled && area && width && height && area.left <= x && area.top <= y &&
      x + width / scale <= area.right && y + height / scale <= area.bottom &&
      (scale < FAR_BELOW) === this.far
    ) {
      this.layer.setAttribute("transform", `scale(${scale}) translate(${-x} ${-y})`);
      return;
    }
    this.render();
  }

  /** Issues that concern a node (by JSON path in this graph file). */
  issuesOf(id: string): Issue[] {
    return issuesByNode(this.issues).get(id) ?? [];
  }

  /** Canvas position of a socket; one the node does not draw (any more) is on its header's edge. */
  socketAt(
    id: string,
    socket: string,
    side: "in" | "out",
    shapes?: ReadonlyMap<string, Shape>,
  ): [number, number] {
    const shape = shapes?.get(id) ?? this.model!.shape(id);
    const list = side === "in" ? shape.inputs : shape.outputs;
    const i = list.findIndex((s) => s.name === socket);
    const [x, y] = this.model!.position(id);
    return [x + (side === "in" ? 0 : WIDTH), y + (i < 0 ? HEADER / 2 : HEADER + 14 + i * ROW)];
  }

  /** Home: fits every node in view (centred, never zoomed in past 1:1). */
  frameAll(): void {
    if (this.model) this.frame(this.model.ids());
  }

  /** Numpad .: fits the selected nodes in view; says so when nothing is selected. */
  frameSelected(): void {
    if (!this.selection.length) {
      return this.events.status("Frame selected: select nodes first (Home frames all)");
    }
    this.frame(this.selection);
  }

  /** Fits nodes `ids` in view (`framing.ts`), or once the editor has a size if it has none now. */
  private frame(ids: readonly string[]): void {
    const model = this.model;
    if (!model) return;
    const { width, height } = this.measure();
    if (!width || !height) {
      this.framePending = [...ids];
      return;
    }
    this.framePending = undefined;
    const known = new Set(model.ids());
    const boxes = ids.filter((id) => known.has(id)).map((id): Bounds => {
      const [x, y] = model.position(id);
      return { left: x, top: y, right: x + WIDTH, bottom: y + model.height(id) };
    });
    const bounds = union(boxes);
    if (!bounds) return;
    this.view = frameView(bounds, width, height);
    // A graph with no nodes yet shows Group Input and Output along the top: the middle of the view,
    // where the search box adds nodes, stays clear of their row, so a chain added there is not pushed
    // past Group Output and out of view.
    if (!Object.keys(model.graph.nodes).length) this.view.y = bounds.top - FRAME_MARGIN / this.view.scale;
    this.render();
  }

  /**
   * Pans the view (at its zoom) just enough that node `id` is in it whole, when it is not: a node
   * added beside others (right of them) may land past the view's edge.
   */
  showNode(id: string): void {
    const model = this.model;
    if (!model) return;
    const box = this.svg.getBoundingClientRect();
    const [left, top] = this.toCanvas(box.left, box.top);
    const [right, bottom] = this.toCanvas(box.right, box.bottom);
    const [x, y] = model.position(id);
    const margin = 20 / this.view.scale;
    const shift = (start: number, end: number, from: number, to: number) =>
      end + margin > to
        ? Math.min(end + margin - to, start - margin - from)
        : Math.min(0, start - margin - from);
    const dx = shift(x, x + WIDTH, left, right);
    const dy = shift(y, y + model.height(id), top, bottom);
    if (!dx && !dy) return;
    this.view.x += dx;
    this.view.y += dy;
    this.render();
  }

  /** Page coordinates to canvas coordinates. */
  toCanvas(clientX: number, clientY: number): [number, number] {
    const box = this.svg.getBoundingClientRect();
    return [
      (clientX - box.left) / this.view.scale + this.view.x,
      (clientY - box.top) / this.view.scale + this.view.y,
    ];
  }

  /** The canvas point at the middle of the view (where new nodes go). */
  centre(): [number, number] {
    const box = this.svg.getBoundingClientRect();
    const [x, y] = this.toCanvas(box.left + box.width / 2, box.top + box.height / 2);
    return [Math.round(x - WIDTH / 2), Math.round(y - 40)];
  }

  /** Selects nodes (and redraws: callers may have changed the graph). */
  select(ids: string[]): void {
    this.selection = ids;
    this.render();
    this.events.selected(ids);
  }

  /**
   * Selects nodes of the graph as drawn (a box or a click, no edit since the last redraw): only the
   * nodes whose selection changed are restyled, not the whole graph redrawn.
   */
  reselect(ids: string[]): void {
    const before = new Set(this.selection), after = new Set(ids);
    for (const id of new Set([...before, ...after])) {
      if (before.has(id) !== after.has(id)) {
        this.drawn.get(id)?.element.classList.toggle("selected", after.has(id));
      }
    }
    this.selection = ids;
    this.events.selected(ids);
  }

  /** Undoes or redoes one step, saying in the status bar which (or that there was none). */
  history(direction: "undo" | "redo"): void {
    const model = this.model;
    if (!model) return;
    const together = model.nextTogether(direction);
    const step = model.step(direction);
    if (step === undefined) {
      return this.events.status(this.events.nothingTo?.(direction) ?? `Nothing to ${direction}`);
    }
    const also = together === undefined ? "" : this.events.together(direction, together);
    this.events.status(`${direction === "undo" ? "Undone" : "Redone"}: ${step}${also}`);
    this.afterHistory();
  }

  /**
   * After undo/redo: drop selections of nodes that are gone (Group Input and Output never are: an undo
   * of an edit in their panel keeps the panel), redraw, re-check.
   */
  afterHistory(): void {
    const graph = this.model!.graph;
    this.selection = this.selection.filter((id) =>
      id === INPUTS_ID || id === OUTPUTS_ID || id in graph.nodes
    );
    this.render();
    this.events.selected(this.selection);
    this.events.changed();
  }
}
