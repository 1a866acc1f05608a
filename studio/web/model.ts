/// <reference lib="dom" />
/**
 * The editor's model: one graph file being edited, the shapes of its nodes (from the catalogue and
 * group signatures: `shapes.ts`), their positions (`layout.ts`), and the edits the editor makes, each
 * an undo step (`undoable.ts`) of what it does to the graph JSON (`graph_edits.ts`, `rename.ts`).
 *
 * @module
 */
import { HEADER, ROW, WIDTH } from "./svg.ts";
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
import { UndoableGraph } from "./undoable.ts";
import { clearSpot, positionOf } from "./layout.ts";
import { arrange } from "./arrange.ts";
import { type Box, clearOffset } from "./clear_spot.ts";
import { hiddenNodes, layOutBelow } from "./stacks.ts";
import { INPUTS_ID, label, OUTPUTS_ID, type Shape, shapeOf, type Wire, wiresOf } from "./shapes.ts";

// The undo history and unsaved state are undoable.ts's; those who compare graphs import canonical here.
export { canonical } from "./undoable.ts";
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
export class GraphModel extends UndoableGraph {
  constructor(
    path: string,
    graph: Graph,
    /** The node types this graph can use: the registry's, and its own modules' (ungroup adds a group's). */
    public catalogue: Catalogue,
    readonly groups: Map<string, GroupSockets | undefined>,
  ) {
    super(path, graph);
    this.unstack();
  }

  /**
   * The nodes the file put wholly under others (every node at `[0, 0]`, a pasted `ui` block, a grid
   * snap), laid out below the rest when it was opened or reverted to (`stacks.ts`): the mouse could
   * not reach them. Empty when none were.
   */
  unstacked: string[] = [];

  /**
   * Lays out the nodes wholly under others below the rest (see {@link unstacked}). Like the layout of
   * nodes without positions, it is part of the graph as opened, not an unsaved edit: Save writes the
   * new places with the user's next change, and a file only looked at stays as it is.
   */
  private unstack(): void {
    const drawn = this.ids().map((id) => ({ id, at: this.position(id), height: this.height(id) }));
    this.unstacked = hiddenNodes(drawn);
    if (!this.unstacked.length) return;
    const moved = new Set(this.unstacked);
    layOutBelow(this.graph, this.unstacked, drawn.filter((n) => !moved.has(n.id)));
    this.markSaved();
  }

  /** Replaces the graph by its file's, re-read (see {@link UndoableGraph.revertTo}); unstacks it. */
  override revertTo(graph: Graph): void {
    super.revertTo(graph);
    this.unstack();
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

  /**
   * Arrange (`arrange.ts`): lays nodes `ids` (every node when empty) out in columns along their wires,
   * as one undo step that changes positions only. Returns how many nodes moved (none: no step).
   */
  arrange(ids: readonly string[]): number {
    const wanted = new Set(ids);
    const chosen = this.ids().filter((id) => !wanted.size || wanted.has(id));
    const shapes = new Map(chosen.map((id) => [id, this.shape(id)]));
    const placed = arrange({
      ids: chosen,
      wires: this.wires(),
      at: (id) => this.position(id),
      height: (id) => this.height(id),
      socket: (id, name, side) =>
        shapes.get(id)![side === "in" ? "inputs" : "outputs"].findIndex((s) => s.name === name),
    });
    if (wanted.size) this.clearOfOthers(placed);
    const moved = chosen.filter((id) => placed.get(id)!.some((v, i) => v !== this.position(id)[i]));
    if (!moved.length) return 0;
    this.edit(() => moved.forEach((id) => this.setPosition(id, placed.get(id)!)), `arrange ${names(chosen)}`);
    return moved.length;
  }

  /** Shifts arranged positions (of a selection, in place) off the nodes not arranged (`clear_spot.ts`). */
  private clearOfOthers(placed: Map<string, [number, number]>): void {
    const box = (
      id: string,
      [x, y]: readonly [number, number],
    ): Box => [x, y, x + WIDTH, y + this.height(id)];
    const boxes = [...placed].map(([id, at]) => box(id, at));
    if (!boxes.length) return;
    const block: Box = [
      Math.min(...boxes.map((b) => b[0])),
      Math.min(...boxes.map((b) => b[1])),
      Math.max(...boxes.map((b) => b[2])),
      Math.max(...boxes.map((b) => b[3])),
    ];
    const others = this.ids().filter((id) => !placed.has(id)).map((id) => box(id, this.position(id)));
    const [dx, dy] = clearOffset(block, others);
    for (const at of placed.values()) [at[0], at[1]] = [at[0] + dx, at[1] + dy];
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

/** Node ids for a label: the first three, then how many more. */
function names(ids: string[]): string {
  return ids.length > 3 ? `${ids.slice(0, 3).join(", ")} and ${ids.length - 3} more` : ids.join(", ");
}
