/// <reference lib="dom" />
/**
 * The editor's model: one graph file being edited, the shapes of its nodes (from the catalogue and
 * group signatures: `shapes.ts`), their positions (`layout.ts`), and the edits the editor makes, each
 * an undo step (`history.ts`) of what it does to the graph JSON (`graph_edits.ts`, `rename.ts`).
 *
 * @module
 */
import { HEADER, ROW } from "./svg.ts";
import { type Catalogue, type Graph, type GroupSockets, joinPath, type Json, type NodeDef } from "./types.ts";
import {
  renameGraphInput,
  renameGraphOutput,
  renameGroupSocket,
  type RenameKind,
  renameNode,
  renameProblem,
  SOCKET_NAME,
} from "./rename.ts";
import {
  bindToNewInput,
  deleteNodes,
  freeInputName,
  freeNodeId,
  relinkCopies,
  removeGraphInput,
  renamedSockets,
  setGraphInputDefault,
  setGraphInputDescription,
  setParam,
  unwire,
  wire,
} from "./graph_edits.ts";
import { History, type Step } from "./history.ts";
import { clearSpot, layoutMissing, positionOf } from "./layout.ts";
import { INPUTS_ID, label, OUTPUTS_ID, type Shape, shapeOf, type Wire, wiresOf } from "./shapes.ts";

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
  /**
   * The digest of the file as last opened, reverted to or saved (the server's): Save sends it, and the
   * server refuses to write over a file that has changed since (another tab, an editor, git).
   */
  fileDigest?: string;

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
    // The page asks after every edit, for the title, each file tab and the run badges: sorting every
    // key of a 5,000-node graph each time was most of an undo's 0.2 s. Plain JSON is 10× cheaper, and
    // the same JSON is the same canonical text.
    const json = JSON.stringify(this.graph);
    if (this.dirtyFor?.json !== json || this.dirtyFor.saved !== this.saved) {
      this.dirtyFor = { json, saved: this.saved, dirty: canonical(this.graph) !== this.saved };
    }
    return this.dirtyFor.dirty;
  }

  /** The last {@link dirty} answer, and the graph's JSON and saved text it was for. */
  private dirtyFor?: { json: string; saved: string; dirty: boolean };

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

  /**
   * Undoes the last edit (or redoes the last undone one); returns what it was, or undefined when there
   * is none. A step that renamed a node tells the page the node's id now ({@link nodeRenamed}).
   */
  step(direction: "undo" | "redo"): string | undefined {
    const taken = this.history.take(direction, JSON.stringify(this.graph));
    if (taken === undefined) return undefined;
    this.graph = JSON.parse(taken.graph);
    if (taken.renamed) {
      const { from, to } = taken.renamed;
      if (direction === "undo") this.nodeRenamed?.(to, from);
      else this.nodeRenamed?.(from, to);
    }
    return taken.label;
  }

  /** Moves nodes (one undo step). */
  move(ids: string[], dx: number, dy: number): void {
    this.edit(() => {
      for (const id of ids) {
        this.setPosition(id, [Math.round(this.position(id)[0] + dx), Math.round(this.position(id)[1] + dy)]);
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
   * there (`clearSpot`); returns its id.
   */
  addNode(type: string, at: [number, number]): string {
    const id = freeNodeId(this.graph, type.split(".").pop()!.replace(/[^A-Za-z0-9_-]/g, "_"));
    this.edit((graph) => {
      graph.nodes[id] = { type };
      const others = this.ids().filter((other) => other !== id)
        .map((other) => ({ at: this.position(other), height: this.height(other) }));
      this.setPosition(id, clearSpot(at, this.height(id), others));
    }, `add ${id}`);
    return id;
  }

  /** Deletes nodes and every wire and output that names them. */
  deleteNodes(ids: string[]): void {
    const gone = new Set(ids.filter((id) => id in this.graph.nodes));
    if (!gone.size) return;
    this.edit((graph) => deleteNodes(graph, gone), `delete ${names([...gone])}`);
  }

  /** Copies nodes (with their parameters and the wires between them); returns the new ids. */
  duplicate(ids: string[]): string[] {
    const sources = ids.filter((id) => id in this.graph.nodes);
    if (!sources.length) return [];
    const copies = new Map<string, string>();
    // The copies go just below the originals, laid out as they are: on top of them they would hide
    // the originals' sockets.
    const top = Math.min(...sources.map((id) => this.position(id)[1]));
    const bottom = Math.max(...sources.map((id) => this.position(id)[1] + this.height(id)));
    this.edit((graph) => {
      for (const id of sources) {
        const copy = freeNodeId(graph, id);
        copies.set(id, copy);
        graph.nodes[copy] = structuredClone(graph.nodes[id]);
        const [x, y] = this.position(id);
        this.setPosition(copy, [x + 20, Math.round(y + bottom - top + 30)]);
      }
      relinkCopies(graph, copies);
    }, `duplicate ${names(sources)}`);
    return [...copies.values()];
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
    this.edit(
      (graph) => wire(graph, from, fromSocket, to, toSocket),
      `connect ${label(from)}.${fromSocket} → ${label(to)}.${toSocket}`,
    );
    return undefined;
  }

  /** Removes the wire into an input socket (or a graph output). */
  disconnect(to: string, toSocket: string): void {
    this.edit((graph) => unwire(graph, to, toSocket), `disconnect ${label(to)}.${toSocket}`);
  }

  /** Sets a parameter; `undefined` removes it (the default applies). */
  setParam(id: string, name: string, value: Json | undefined): void {
    this.edit((graph) => setParam(graph, id, name, value), `set ${id}.${name}`);
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
      if (sockets) this.groups.set(rel, renamedSockets(sockets, kind, from, to));
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
    this.edit((graph) => removeGraphInput(graph, name), `remove graph input ${name}`);
  }

  /** Sets a graph input's default (`undefined`: required). */
  setGraphInputDefault(name: string, value: Json | undefined): void {
    this.edit((graph) => setGraphInputDefault(graph, name, value), `set the default of ${name}`);
  }

  /**
   * Sets a graph input's description (`undefined` or blank: none), what errors and generated docs
   * show for it; a new one goes after its type and default, as hand-written graphs order them.
   */
  setGraphInputDescription(name: string, text: string | undefined): void {
    const description = text?.trim() || undefined;
    if (this.graph.inputs?.[name]?.description === description) return;
    this.edit(
      (graph) => setGraphInputDescription(graph, name, description),
      `describe graph input ${name}`,
    );
  }

  /**
   * Binds a parameter to a new graph input (one undo step): named after the parameter (made unique),
   * of `type`, its default the value the parameter had (`undefined`: required). Returns the name.
   */
  bindToNewInput(id: string, param: string, type: string, value: Json | undefined): string {
    const name = freeInputName(this.graph, param);
    this.edit(
      (graph) => bindToNewInput(graph, id, param, name, type, value),
      `bind ${id}.${param} to a new graph input ${name}`,
    );
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
