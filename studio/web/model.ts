/// <reference lib="dom" />
/**
 * The editor's model: one graph file being edited, the shapes of its nodes (from the catalogue and
 * group signatures: `shapes.ts`), their positions (`layout.ts`), and the edits the editor makes, each
 * undoable (`history.ts`).
 *
 * @module
 */
import { HEADER, ROW, WIDTH } from "./svg.ts";
import {
  type Catalogue,
  type Graph,
  type GraphNode,
  type GroupSockets,
  joinPath,
  type Json,
  type NodeDef,
} from "./types.ts";
import {
  renameGraphInput,
  renameGraphOutput,
  renameGroupSocket,
  type RenameKind,
  renameNode,
  renameProblem,
  SOCKET_NAME,
} from "./rename.ts";
import { History, type Step } from "./history.ts";
import { layoutMissing, positionOf } from "./layout.ts";
import {
  INPUTS_ID,
  label,
  NEW_OUTPUT,
  OUTPUTS_ID,
  type Shape,
  shapeOf,
  splitLink,
  type Wire,
  wiresOf,
} from "./shapes.ts";

// What the editor draws is in shapes.ts and layout.ts; those who edit a graph import it from here.
export {
  INPUTS_ID,
  NEW_OUTPUT,
  OUTPUTS_ID,
  type Shape,
  type Socket,
  splitLink,
  type Wire,
} from "./shapes.ts";

/** Undoable edits of one graph file, with the node positions kept in its `ui` field. */
export class GraphModel {
  graph: Graph;
  /** Each undo (redo) step: the graph's JSON before (after) the edit, and what the edit was. */
  private readonly history = new History();
  /** The graph as last opened or saved, in {@link canonical} form: what "unsaved" is measured against. */
  private saved: string;
  /**
   * Called when a node's id changes: its rename, and the undo or redo of one (the page's run badges
   * and file tabs know nodes by id, and follow).
   */
  nodeRenamed?: (from: string, to: string) => void;

  constructor(
    readonly path: string,
    graph: Graph,
    /** The node types this graph can use: the registry's, and its own modules' (ungroup adds a group's). */
    public catalogue: Catalogue,
    readonly groups: Map<string, GroupSockets | undefined>,
  ) {
    this.graph = graph;
    layoutMissing(this.graph);
    // The layout of a graph without positions is part of the graph as opened, not an unsaved edit.
    this.saved = canonical(this.graph);
  }

  /**
   * True when the graph differs from the file as last opened or saved. Compared by content, not by
   * edit count, so undoing back to the saved graph (or moving a node back) clears it; key order is
   * ignored (removing and re-setting a parameter moves its key but changes nothing a run sees).
   */
  get dirty(): boolean {
    return canonical(this.graph) !== this.saved;
  }

  /** A graph whose file does not exist yet: unsaved (`*`, and Save writes it) until its first save. */
  markNew(): void {
    this.saved = "";
  }

  /** False for a new graph not saved yet ({@link markNew}): it has no file to re-read. */
  get hasFile(): boolean {
    return this.saved !== "";
  }

  /** Records that `graph` (this graph as it was posted, JSON) is now the file's content. */
  markSaved(graph: string = JSON.stringify(this.graph)): void {
    this.saved = canonical(JSON.parse(graph));
  }

  /** The catalogue entry for a node type. */
  def(type: string): NodeDef | undefined {
    return this.catalogue.nodes.find((n) => n.type === type);
  }

  /** Every node id drawn, graph-inputs and graph-outputs included. */
  ids(): string[] {
    return [INPUTS_ID, ...Object.keys(this.graph.nodes), OUTPUTS_ID];
  }

  /** The sockets of a node as drawn. */
  shape(id: string): Shape {
    return shapeOf(this.graph, id, (type) => this.def(type), this.groups);
  }

  /** Every wire drawn. */
  wires(): Wire[] {
    return wiresOf(this.graph);
  }

  /** A node's drawn height. */
  height(id: string): number {
    const shape = this.shape(id);
    return HEADER + Math.max(shape.inputs.length, shape.outputs.length) * ROW + 8;
  }

  /** A node's position. */
  position(id: string): [number, number] {
    return positionOf(this.graph, id);
  }

  /** Records the current graph for undo; call before every edit. */
  private checkpoint(label: string, together?: string, renamed?: Step["renamed"]): void {
    this.history.push({ graph: JSON.stringify(this.graph), label, together, renamed });
  }

  /**
   * Applies an edit as one undo step; `label` says what it was (the status bar names it on undo).
   * `together` marks a step that is part of one change across files (a group's socket renamed, and
   * its uses): undoing it in one file undoes the others' step with the same mark.
   */
  edit(change: (graph: Graph) => void, label = "edit", together?: string): void {
    this.checkpoint(label, together);
    change(this.graph);
  }

  /** True when a step of either history is marked `together`. */
  holds(together: string): boolean {
    return this.history.holds(together);
  }

  /** The `together` mark of the step Undo (or Redo) would take next, if it has one. */
  nextTogether(direction: "undo" | "redo"): string | undefined {
    return this.history.next(direction)?.together;
  }

  /** Replaces the whole graph as one undo step (a group or ungroup computed on a copy). */
  replace(graph: Graph, label: string): void {
    this.checkpoint(label);
    this.graph = graph;
  }

  /**
   * Replaces the graph by its file's, re-read (Revert), as one undo step: Undo brings the discarded
   * edits back, now as unsaved changes of the graph as reverted to. The file's graph is what
   * "unsaved" is measured against from now on (it may have changed on disk since it was opened).
   */
  revertTo(graph: Graph): void {
    this.checkpoint("revert to the file");
    this.graph = graph;
    layoutMissing(this.graph);
    this.saved = canonical(this.graph);
  }

  /** How many edits Undo (or Redo) can step through. */
  steps(direction: "undo" | "redo"): number {
    return this.history.steps(direction);
  }

  /** Undoes the last edit; returns what it was, or undefined when there is none. */
  undo(): string | undefined {
    const previous = this.history.take("undo", JSON.stringify(this.graph));
    if (previous === undefined) return undefined;
    this.graph = JSON.parse(previous.graph);
    if (previous.renamed) this.nodeRenamed?.(previous.renamed.to, previous.renamed.from);
    return previous.label;
  }

  /** Redoes the last undone edit; returns what it was, or undefined when there is none. */
  redo(): string | undefined {
    const next = this.history.take("redo", JSON.stringify(this.graph));
    if (next === undefined) return undefined;
    this.graph = JSON.parse(next.graph);
    if (next.renamed) this.nodeRenamed?.(next.renamed.from, next.renamed.to);
    return next.label;
  }

  /** Moves nodes (one undo step). */
  move(ids: string[], dx: number, dy: number): void {
    this.edit(() => {
      for (const id of ids) {
        this.setPosition(id, [round(this.position(id)[0] + dx), round(this.position(id)[1] + dy)]);
      }
    }, `move ${names(ids)}`);
  }

  private setPosition(id: string, at: [number, number]): void {
    const ui = this.graph.ui ??= {};
    if (id === INPUTS_ID) ui.inputs = at;
    else if (id === OUTPUTS_ID) ui.outputs = at;
    else (ui.nodes ??= {})[id] = at;
  }

  /**
   * Adds a node of a catalogue type at a position, or right of it past the nodes it would cover
   * there; returns its id.
   */
  addNode(type: string, at: [number, number]): string {
    const id = this.freeId(type.split(".").pop()!.replace(/[^A-Za-z0-9_-]/g, "_"));
    this.edit((graph) => {
      graph.nodes[id] = { type };
      this.setPosition(id, this.clearSpot(id, at));
    }, `add ${id}`);
    return id;
  }

  /**
   * `at`, moved right past every node that node `id` would cover there. The search box adds each
   * node at the view's centre: nodes added one after another would lie on top of each other, the
   * last hiding the others and their sockets. To the right, a chain added in order reads as it flows.
   */
  private clearSpot(id: string, at: [number, number]): [number, number] {
    const height = this.height(id);
    const y = at[1];
    let x = at[0];
    for (let moved = true; moved;) {
      moved = false;
      for (const other of this.ids()) {
        if (other === id) continue;
        const [ox, oy] = this.position(other);
        if (x < ox + WIDTH && ox < x + WIDTH && y < oy + this.height(other) && oy < y + height) {
          x = ox + WIDTH + 40;
          moved = true;
        }
      }
    }
    return [x, y];
  }

  /** A node id not yet used, from a base name. */
  private freeId(base: string): string {
    const start = /^[A-Za-z_]/.test(base) ? base : `n_${base}`;
    let id = start;
    for (let i = 2; id in this.graph.nodes; i++) id = `${start}_${i}`;
    return id;
  }

  /** Deletes nodes and every wire and output that names them. */
  deleteNodes(ids: string[]): void {
    const gone = new Set(ids.filter((id) => id in this.graph.nodes));
    if (!gone.size) return;
    this.edit((graph) => {
      for (const id of gone) {
        delete graph.nodes[id];
        delete graph.ui?.nodes?.[id];
      }
      for (const node of Object.values(graph.nodes)) {
        for (const [socket, value] of Object.entries(node.inputs ?? {})) {
          if (typeof value === "string" && gone.has(splitLink(value)[0])) delete node.inputs![socket];
        }
        if (node.inputs && !Object.keys(node.inputs).length) delete node.inputs;
      }
      for (const [name, link] of Object.entries(graph.outputs ?? {})) {
        if (gone.has(splitLink(link)[0])) delete graph.outputs![name];
      }
    }, `delete ${names([...gone])}`);
  }

  /** Copies nodes (with their parameters and the wires between them); returns the new ids. */
  duplicate(ids: string[]): string[] {
    const sources = ids.filter((id) => id in this.graph.nodes);
    if (!sources.length) return [];
    const renamed = new Map<string, string>();
    // The copies go just below the originals, laid out as they are: on top of them they would hide
    // the originals' sockets.
    const top = Math.min(...sources.map((id) => this.position(id)[1]));
    const bottom = Math.max(...sources.map((id) => this.position(id)[1] + this.height(id)));
    this.edit((graph) => {
      for (const id of sources) {
        const copy = this.freeId(id);
        renamed.set(id, copy);
        graph.nodes[copy] = structuredClone(graph.nodes[id]);
        const [x, y] = this.position(id);
        this.setPosition(copy, [x + 20, round(y + bottom - top + 30)]);
      }
      for (const copy of renamed.values()) {
        const node: GraphNode = graph.nodes[copy];
        for (const [socket, value] of Object.entries(node.inputs ?? {})) {
          if (typeof value !== "string") continue;
          const [from, fromSocket] = splitLink(value);
          if (renamed.has(from)) node.inputs![socket] = `${renamed.get(from)}.${fromSocket}`;
        }
      }
    }, `duplicate ${names(sources)}`);
    return [...renamed.values()];
  }

  /**
   * Connects an output socket to an input socket. Returns the reason when the wire is refused
   * (incompatible types, or a node wired to itself); the graph is then unchanged.
   */
  connect(from: string, fromSocket: string, to: string, toSocket: string): string | undefined {
    const out = this.shape(from).outputs.find((s) => s.name === fromSocket);
    const inp = this.shape(to).inputs.find((s) => s.name === toSocket);
    if (!out || !inp) return "drop the wire on an input socket";
    if (from === to) return `a node cannot feed itself (${from})`;
    if (inp.type !== "any" && inp.type !== out.type) {
      return `cannot connect ${label(from)}.${fromSocket} (${out.type}) to ${label(to)}.${toSocket}: ` +
        `it expects ${inp.type}`;
    }
    this.edit((graph) => {
      if (to === OUTPUTS_ID) {
        const outputs = graph.outputs ??= {};
        let name = toSocket === NEW_OUTPUT ? fromSocket : toSocket;
        if (toSocket === NEW_OUTPUT) { for (let i = 2; name in outputs; i++) name = `${fromSocket}_${i}`; }
        outputs[name] = `${from}.${fromSocket}`;
        return;
      }
      const node = graph.nodes[to];
      (node.inputs ??= {})[toSocket] = from === INPUTS_ID ? { $input: fromSocket } : `${from}.${fromSocket}`;
    }, `connect ${label(from)}.${fromSocket} → ${label(to)}.${toSocket}`);
    return undefined;
  }

  /** Removes the wire into an input socket (or a graph output). */
  disconnect(to: string, toSocket: string): void {
    this.edit((graph) => {
      if (to === OUTPUTS_ID) delete graph.outputs?.[toSocket];
      else delete graph.nodes[to]?.inputs?.[toSocket];
    }, `disconnect ${label(to)}.${toSocket}`);
  }

  /** Sets a parameter; `undefined` removes it (the default applies). */
  setParam(id: string, name: string, value: Json | undefined): void {
    this.edit((graph) => {
      const node = graph.nodes[id];
      if (value === undefined) {
        delete node.params?.[name];
        if (node.params && !Object.keys(node.params).length) delete node.params;
      } else (node.params ??= {})[name] = value;
    }, `set ${id}.${name}`);
  }

  /**
   * Renames a node id, a graph input or a graph output, every reference in this graph following (one
   * undo step, `together` as for {@link edit}). Returns the reason when the name is refused (not a
   * name the format reads, or taken); the graph is then unchanged. The same name is no edit.
   */
  rename(kind: RenameKind, from: string, to: string, together?: string): string | undefined {
    const problem = renameProblem(this.graph, kind, from, to);
    if (problem || from === to) return problem;
    const what = kind === "node" ? "" : `graph ${kind} `;
    this.checkpoint(`rename ${what}${from} to ${to}`, together, kind === "node" ? { from, to } : undefined);
    if (kind === "node") renameNode(this.graph, from, to);
    else if (kind === "input") renameGraphInput(this.graph, from, to);
    else renameGraphOutput(this.graph, from, to);
    if (kind === "node") this.nodeRenamed?.(from, to);
    return undefined;
  }

  /**
   * Follows the rename of input or output `from` of the node group file `groupPath` in this graph,
   * which uses it: its group nodes' sockets (as drawn, at once) and the values and links that name it,
   * as one undo step marked `together`. Returns the group nodes it changed (none: no step).
   */
  followGroupRename(
    groupPath: string,
    kind: "input" | "output",
    from: string,
    to: string,
    together: string,
  ): string[] {
    const users = Object.entries(this.graph.nodes)
      .filter(([, node]) => node.type === "graph" && joinPath(this.path, node.graph ?? "") === groupPath)
      .map(([id]) => id);
    for (const node of users) {
      const rel = this.graph.nodes[node].graph!;
      const sockets = this.groups.get(rel);
      if (!sockets) continue;
      const rekey = <T>(r: Record<string, T>) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k === from ? to : k, v]));
      this.groups.set(
        rel,
        kind === "input"
          ? {
            ...sockets,
            inputs: rekey(sockets.inputs),
            paramInputs: sockets.paramInputs.map((n) => n === from ? to : n),
          }
          : { ...sockets, outputs: rekey(sockets.outputs) },
      );
    }
    const copy: Graph = structuredClone(this.graph);
    if (!renameGroupSocket(copy, users, kind, from, to)) return [];
    this.edit(
      (graph) => void renameGroupSocket(graph, users, kind, from, to),
      `rename ${groupPath}'s ${kind} ${from} to ${to}`,
      together,
    );
    return users;
  }

  /** Adds a graph input (a socket of the Group Input node); returns the reason when refused. */
  addGraphInput(name: string, type: string): string | undefined {
    if (!SOCKET_NAME.test(name)) return `'${name}': use letters, digits and _`;
    if (name in (this.graph.inputs ?? {})) return `graph input '${name}' exists`;
    this.edit((graph) => void ((graph.inputs ??= {})[name] = { type }), `add graph input ${name}`);
    return undefined;
  }

  /** Removes a graph input and every socket or parameter bound to it. */
  removeGraphInput(name: string): void {
    const bound = (v: unknown) => !!v && typeof v === "object" && (v as { $input?: string }).$input === name;
    this.edit((graph) => {
      delete graph.inputs?.[name];
      for (const node of Object.values(graph.nodes)) {
        for (const [k, v] of Object.entries(node.inputs ?? {})) if (bound(v)) delete node.inputs![k];
        for (const [k, v] of Object.entries(node.params ?? {})) if (bound(v)) delete node.params![k];
      }
    }, `remove graph input ${name}`);
  }

  /** Sets a graph input's default (`undefined`: required). */
  setGraphInputDefault(name: string, value: Json | undefined): void {
    this.edit((graph) => {
      const decl = graph.inputs![name];
      if (value === undefined) delete decl.default;
      else decl.default = value;
    }, `set the default of ${name}`);
  }

  /**
   * Sets a graph input's description (`undefined` or blank: none), what errors and generated docs
   * show for it; a new one goes after its type and default, as hand-written graphs order them.
   */
  setGraphInputDescription(name: string, text: string | undefined): void {
    const description = text?.trim() || undefined;
    if (this.graph.inputs?.[name]?.description === description) return;
    this.edit((graph) => {
      const decl = graph.inputs![name];
      if (description === undefined) delete decl.description;
      else decl.description = description;
    }, `describe graph input ${name}`);
  }

  /**
   * Binds a parameter to a new graph input (one undo step): named after the parameter (made unique),
   * of `type`, its default the value the parameter had (`undefined`: required). Returns the name.
   */
  bindToNewInput(id: string, param: string, type: string, value: Json | undefined): string {
    let name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(param) ? param : `p_${param.replace(/[^A-Za-z0-9_]/g, "_")}`;
    const base = name;
    for (let i = 2; name in (this.graph.inputs ?? {}); i++) name = `${base}_${i}`;
    this.edit((graph) => {
      (graph.inputs ??= {})[name] = value === undefined ? { type } : { type, default: value };
      (graph.nodes[id].params ??= {})[param] = { $input: name };
    }, `bind ${id}.${param} to a new graph input ${name}`);
    return name;
  }
}

/** JSON text with every object's keys sorted: equal for graphs that differ only in key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}

/** Node ids for a label: the first three, then how many more. */
function names(ids: string[]): string {
  return ids.length > 3 ? `${ids.slice(0, 3).join(", ")} and ${ids.length - 3} more` : ids.join(", ");
}

function round(v: number): number {
  return Math.round(v);
}
