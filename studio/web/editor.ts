/// <reference lib="dom" />
/**
 * The node editor's view: draws a {@link GraphModel} as SVG (nodes with typed, coloured sockets and
 * wires) and turns pointer and key input into model edits, Blender style: drag a header to move,
 * drag from an output to an input to connect, X/Delete deletes, Shift+D duplicates, F2 or a
 * double-click renames, Home frames all and Numpad . the selection (`framing.ts`),
 * Ctrl+Z / Ctrl+Shift+Z undo and redo, Tab opens a node group and Tab again goes back, Ctrl+G groups
 * the selection into a new node group and Alt+G (or Ctrl+Alt+G) ungroups a selected group node.
 *
 * @module
 */
import { type Bounds, FRAME_MARGIN, frameView, union, type View, ZOOM } from "./framing.ts";
import { type GraphModel, INPUTS_ID, OUTPUTS_ID, type Wire } from "./model.ts";
import { drawNode, type NodeState } from "./node_svg.ts";
import { curve, el, escapePointer, HEADER, ROW, SOCKET_COLOURS, SVG, WIDTH } from "./svg.ts";
import type { Issue } from "./types.ts";

// The node states and the stale badge's tooltip are drawn in node_svg.ts; the page knows them from here.
export { type NodeState, STALE_BADGE } from "./node_svg.ts";

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
  /** Ctrl+G: group the selected nodes into a new graph file. */
  group(ids: string[]): void;
  /** Alt+G / Ctrl+Alt+G: replace a selected group node by its nodes. */
  ungroup(ids: string[]): void;
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
  private view: View = { x: -40, y: -60, scale: 1 };
  private readonly layer: SVGGElement;
  /** Nodes to frame once the editor has a size (a graph shown while the 3D preview hides it). */
  private framePending?: string[];

  constructor(private readonly svg: SVGSVGElement, private readonly events: EditorEvents) {
    this.layer = document.createElementNS(SVG, "g");
    svg.append(this.layer);
    svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    svg.tabIndex = 0;
    svg.addEventListener("keydown", (e) => this.key(e));
    svg.addEventListener("dblclick", (e) => {
      const node = (e.target as Element).closest("g.node")?.getAttribute("data-node");
      if (node) this.events.rename(node);
    });
    // Framing needs the editor's size: a graph shown while it had none is framed when it gets one.
    new ResizeObserver(() => {
      const pending = this.framePending;
      const { width, height } = this.svg.getBoundingClientRect();
      if (pending && width && height) this.frame(pending);
    }).observe(svg);
  }

  /** Shows a graph, with the run states it has (the page keeps them per graph, so they survive Tab). */
  show(model: GraphModel, states = new Map<string, NodeState>()): void {
    this.model = model;
    this.selection = [];
    this.states = states;
    this.render();
    this.frameAll();
  }

  /** Redraws everything (graphs are small; a full redraw keeps the view a pure function of the model). */
  render(): void {
    const model = this.model;
    this.layer.replaceChildren();
    if (!model) return;
    this.layer.setAttribute(
      "transform",
      `scale(${this.view.scale}) translate(${-this.view.x} ${-this.view.y})`,
    );
    const wires = document.createElementNS(SVG, "g");
    this.layer.append(wires);
    // One set, not a list per wire: a generated graph of thousands of nodes redraws in time.
    const ids = model.ids();
    const known = new Set(ids);
    for (const wire of model.wires()) {
      if (!known.has(wire.from)) continue;
      const type = model.shape(wire.from).outputs.find((s) => s.name === wire.fromSocket)?.type ?? "any";
      const path = el("path", {
        class: `wire${this.wireIssue(wire) ? " bad" : ""}`,
        d: curve(
          this.socketAt(wire.from, wire.fromSocket, "out"),
          this.socketAt(wire.to, wire.toSocket, "in"),
        ),
        stroke: SOCKET_COLOURS[type] ?? "#888",
        "data-wire": `${wire.from}.${wire.fromSocket}->${wire.to}.${wire.toSocket}`,
      });
      wires.append(path);
    }
    for (const id of ids) {
      this.layer.append(drawNode(id, model.shape(id), {
        at: model.position(id),
        selected: this.selection.includes(id),
        issues: this.issuesOf(id),
        state: this.states.get(id),
        stale: this.stale,
      }));
    }
  }

  /** Issues that concern a node (by JSON path in this graph file). */
  issuesOf(id: string): Issue[] {
    const prefix = id === INPUTS_ID
      ? "/inputs"
      : id === OUTPUTS_ID
      ? "/outputs"
      : `/nodes/${escapePointer(id)}`;
    return this.issues.filter((i) => i.path === prefix || i.path.startsWith(prefix + "/"));
  }

  /**
   * True when a wire is wrong: the check reports the input it feeds (`/nodes/<to>/inputs/<socket>`,
   * `/outputs/<name>`: an output that is gone, a type that no longer matches), or a socket it joins
   * is not drawn (a group's socket removed in its open version, or a group with issues). It stays,
   * marked, until it is fixed or the socket is back.
   */
  private wireIssue(wire: Wire): boolean {
    const at = wire.to === OUTPUTS_ID
      ? `/outputs/${escapePointer(wire.toSocket)}`
      : `/nodes/${escapePointer(wire.to)}/inputs/${escapePointer(wire.toSocket)}`;
    const drawn = (id: string, socket: string, side: "inputs" | "outputs") =>
      this.model!.shape(id)[side].some((s) => s.name === socket);
    return this.issues.some((i) => i.path === at) || !drawn(wire.from, wire.fromSocket, "outputs") ||
      !drawn(wire.to, wire.toSocket, "inputs");
  }

  /** Canvas position of a socket; one the node does not draw (any more) is on its header's edge. */
  private socketAt(id: string, socket: string, side: "in" | "out"): [number, number] {
    const shape = this.model!.shape(id);
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
    const { width, height } = this.svg.getBoundingClientRect();
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

  /** Selects nodes. */
  select(ids: string[]): void {
    this.selection = ids;
    this.render();
    this.events.selected(ids);
  }

  private pointerDown(e: PointerEvent): void {
    this.svg.focus();
    const target = e.target as Element;
    const socket = target.closest("[data-socket]");
    const node = target.closest("g.node");
    if (socket) return this.dragWire(socket);
    if (node) return this.dragNode(e, node.getAttribute("data-node")!);
    e.preventDefault();
    if (e.button === 1 || e.altKey) return this.pan(e);
    this.boxSelect(e);
  }

  /** Left-drag on the background selects the nodes the box touches (Shift adds), as in Blender. */
  private boxSelect(e: PointerEvent): void {
    const [x0, y0] = this.toCanvas(e.clientX, e.clientY);
    const box = el("rect", { class: "box-select", x: x0, y: y0, width: 0, height: 0 });
    this.layer.append(box);
    let [x1, y1] = [x0, y0];
    this.track((ev) => {
      [x1, y1] = this.toCanvas(ev.clientX, ev.clientY);
      box.setAttribute("x", String(Math.min(x0, x1)));
      box.setAttribute("y", String(Math.min(y0, y1)));
      box.setAttribute("width", String(Math.abs(x1 - x0)));
      box.setAttribute("height", String(Math.abs(y1 - y0)));
    }, () => {
      box.remove();
      const [left, right, top, bottom] = [
        Math.min(x0, x1),
        Math.max(x0, x1),
        Math.min(y0, y1),
        Math.max(y0, y1),
      ];
      const hit = this.model!.ids().filter((id) => {
        const [x, y] = this.model!.position(id);
        return x < right && x + WIDTH > left && y < bottom && y + this.model!.height(id) > top;
      });
      const wide = right - left > 2 || bottom - top > 2;
      this.select(e.shiftKey ? [...new Set([...this.selection, ...hit])] : wide ? hit : []);
    });
  }

  private dragNode(e: PointerEvent, id: string): void {
    if (!this.selection.includes(id)) this.select(e.shiftKey ? [...this.selection, id] : [id]);
    const start = this.toCanvas(e.clientX, e.clientY);
    const moved = this.selection.slice();
    const nodes = moved.map((m) => this.layer.querySelector(`g.node[data-node="${CSS.escape(m)}"]`));
    const origin = moved.map((m) => this.model!.position(m));
    let dx = 0, dy = 0;
    this.track((ev) => {
      const at = this.toCanvas(ev.clientX, ev.clientY);
      [dx, dy] = [at[0] - start[0], at[1] - start[1]];
      nodes.forEach((n, i) =>
        n?.setAttribute("transform", `translate(${origin[i][0] + dx} ${origin[i][1] + dy})`)
      );
    }, () => {
      if (Math.abs(dx) + Math.abs(dy) < 1) return;
      this.model!.move(moved, dx, dy);
      this.render();
      this.events.changed();
    });
  }

  private dragWire(socket: Element): void {
    const model = this.model!;
    let id = socket.getAttribute("data-node")!;
    let name = socket.getAttribute("data-socket")!;
    if (socket.getAttribute("data-side") === "in") {
      // Dragging from a connected input picks its wire up (as in Blender); from a free one does nothing.
      const wire = model.wires().find((w) => w.to === id && w.toSocket === name);
      if (!wire) return;
      model.disconnect(id, name);
      [id, name] = [wire.from, wire.fromSocket];
      this.render();
      this.events.changed();
    }
    const from = this.socketAt(id, name, "out");
    const temp = el("path", { class: "wire dragging", d: curve(from, from) });
    this.layer.append(temp);
    this.track((ev) => temp.setAttribute("d", curve(from, this.toCanvas(ev.clientX, ev.clientY))), (ev) => {
      temp.remove();
      const drop = document.elementFromPoint(ev.clientX, ev.clientY)?.closest("[data-side='in']");
      if (!drop) return;
      const refused = model.connect(
        id,
        name,
        drop.getAttribute("data-node")!,
        drop.getAttribute("data-socket")!,
      );
      if (refused) return this.events.status(`Wire refused: ${refused}`, true);
      this.events.status(
        `Connected ${id}.${name} → ${drop.getAttribute("data-node")}.${drop.getAttribute("data-socket")}`,
      );
      this.render();
      this.events.changed();
    });
  }

  private pan(e: PointerEvent): void {
    const start = [e.clientX, e.clientY, this.view.x, this.view.y];
    this.track((ev) => {
      this.view.x = start[2] - (ev.clientX - start[0]) / this.view.scale;
      this.view.y = start[3] - (ev.clientY - start[1]) / this.view.scale;
      this.layer.setAttribute(
        "transform",
        `scale(${this.view.scale}) translate(${-this.view.x} ${-this.view.y})`,
      );
    }, () => {});
  }

  private track(move: (e: PointerEvent) => void, end: (e: PointerEvent) => void): void {
    const up = (ev: PointerEvent) => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", up);
      end(ev);
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const before = this.toCanvas(e.clientX, e.clientY);
    this.view.scale = Math.min(
      ZOOM.max,
      Math.max(ZOOM.min, this.view.scale * (e.deltaY < 0 ? 1.1 : 1 / 1.1)),
    );
    const after = this.toCanvas(e.clientX, e.clientY);
    this.view.x += before[0] - after[0];
    this.view.y += before[1] - after[1];
    this.render();
  }

  private key(e: KeyboardEvent): void {
    const model = this.model;
    if (!model) return;
    const mod = e.ctrlKey || e.metaKey;
    // e.code: with Alt held, some layouts (macOS) give e.key another character (Alt+G is "©").
    const g = e.code === "KeyG" || e.key.toLowerCase() === "g";
    // Numpad . is Blender's Frame Selected; with Num Lock off it reads Delete, so it goes first.
    if (e.code === "NumpadDecimal") {
      this.frameSelected();
    } else if (mod && e.key.toLowerCase() === "z") {
      this.history(e.shiftKey ? "redo" : "undo");
    } else if (mod && e.key.toLowerCase() === "y") {
      this.history("redo");
    } else if (g && e.altKey) {
      this.events.ungroup(this.selection.slice());
    } else if (g && mod) {
      this.events.group(this.selection.slice());
    } else if (e.key === "Delete" || e.key === "x" || e.key === "X") {
      const gone = this.selection.filter((id) => id in model.graph.nodes);
      if (!gone.length) {
        this.events.status("Nothing to delete: select nodes first (Group Input and Group Output stay)");
      } else {
        model.deleteNodes(gone);
        this.events.status(`Deleted ${gone.join(", ")}`);
      }
      this.select([]);
      this.events.changed();
    } else if (e.shiftKey && e.key.toLowerCase() === "d") {
      const copies = model.duplicate(this.selection);
      this.events.status(
        copies.length ? `Duplicated as ${copies.join(", ")}` : "Nothing to duplicate: select nodes first",
      );
      this.select(copies);
      this.events.changed();
    } else if (e.key === "Home") {
      this.frameAll();
    } else if (e.key === "F2") {
      if (this.selection.length === 1) this.events.rename(this.selection[0]);
      else this.events.status("F2 renames one node: select it first");
    } else if (e.key === "Tab") {
      const group = this.selection.find((id) => model.graph.nodes[id]?.type === "graph");
      this.events.tab(group);
    } else return;
    e.preventDefault();
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
