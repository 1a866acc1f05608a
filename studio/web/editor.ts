/// <reference lib="dom" />
/**
 * The node editor's view: draws a {@link GraphModel} as SVG (`editor_render.ts`: nodes with typed,
 * coloured sockets and wires; a large graph only around the view), frames it (`framing.ts`), keeps the selection and
 * takes undo and redo. Pointer gestures (move, connect, box-select, pan, zoom) are in
 * `editor_pointer.ts`, keys (delete, duplicate, rename, frame, undo, Tab, group, ungroup) in
 * `editor_keys.ts`, Blender style.
 *
 * @module
 */
import { type Bounds, FRAME_MARGIN, frameView, union, type View } from "./framing.ts";
import { type GraphModel, INPUTS_ID, OUTPUTS_ID } from "./model.ts";
import type { NodeState } from "./node_svg.ts";
import { HEADER, ROW, WIDTH } from "./svg.ts";
import type { Issue } from "./types.ts";
import type { Shape } from "./shapes.ts";
import { CULL_FROM, FAR_BELOW } from "./cull.ts";
import { issuesByNode } from "./node_issues.ts";
import { editorKey } from "./editor_keys.ts";
import { pointerDown, wheel } from "./editor_pointer.ts";
import { GraphDrawing } from "./editor_render.ts";

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
  /** The graph as drawn (`editor_render.ts`). */
  private readonly drawing: GraphDrawing;
  /** Nodes to frame once the editor has a size (a graph shown while the 3D preview hides it). */
  private framePending?: string[];
  /** The editor's size in pixels, as last observed (0 × 0: hidden, or not laid out yet). */
  private size = { width: 0, height: 0 };

  constructor(private readonly svg: SVGSVGElement, readonly events: EditorEvents) {
    this.drawing = new GraphDrawing();
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

  /** The group the graph is drawn in (nodes, and the wires under them). */
  get layer(): SVGGElement {
    return this.drawing.layer;
  }

  /** True when the last redraw left out nodes outside the view (a large graph): a pan redraws. */
  get culled(): boolean {
    return this.drawing.culled;
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
    this.drawing.draw(this.model, this.view, () => this.size.width ? this.size : this.measure(), this);
  }

  /**
   * After a pan or a zoom: the view moves, and a large graph is redrawn only once the view leaves the
   * box the last redraw drew (the view and half a view around it). A wheel step or a pan redrew
   * 20,000 nodes' worth of culling each time, though everything in view was drawn already.
   */
  viewMoved(): void {
    const area = this.drawing.area;
    const { width, height } = this.size;
    const { x, y, scale } = this.view;
    // A zoom past FAR_BELOW redraws: the nodes change detail.
    if (
      this.culled && area && width && height && area.left <= x && area.top <= y &&
      x + width / scale <= area.right && y + height / scale <= area.bottom &&
      (scale < FAR_BELOW) === this.drawing.far
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
        this.drawing.node(id)?.classList.toggle("selected", after.has(id));
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
