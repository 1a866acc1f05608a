/**
 * What each editor edit does to the graph JSON, as plain functions: `GraphModel` (model.ts) runs each
 * one as an undo step. Wires, parameters, deleted and copied nodes, graph inputs, and a node group's
 * sockets after one of them was renamed.
 *
 * @example
 * ```ts
 * import { setParam } from "./graph_edits.ts";
 *
 * const graph = { version: 1 as const, nodes: { a: { type: "demo.fighter" } } };
 * setParam(graph, "a", "detail", 3); // graph.nodes.a.params = { detail: 3 }
 * ```
 *
 * @module
 */
import { INPUTS_ID, NEW_OUTPUT, OUTPUTS_ID, splitLink } from "./shapes.ts";
import type { Graph, GroupSockets, Json } from "./types.ts";

/** Removes nodes and every wire and graph output that names them. */
export function deleteNodes(graph: Graph, gone: ReadonlySet<string>): void {
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
}

/**
 * Rewires copied nodes among themselves: `copies` maps each original's id to its copy's; a copy's
 * wire from another copied original now comes from that original's copy.
 */
export function relinkCopies(graph: Graph, copies: ReadonlyMap<string, string>): void {
  for (const copy of copies.values()) {
    const node = graph.nodes[copy];
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value !== "string") continue;
      const [from, fromSocket] = splitLink(value);
      if (copies.has(from)) node.inputs![socket] = `${copies.get(from)}.${fromSocket}`;
    }
  }
}

/**
 * Wires output `from.fromSocket` into input `to.toSocket` (Group Output: a graph output, a new one
 * named after the socket when dropped on `+`; from Group Input: a graph input reference).
 */
export function wire(graph: Graph, from: string, fromSocket: string, to: string, toSocket: string): void {
  if (to === OUTPUTS_ID) {
    const outputs = graph.outputs ??= {};
    let name = toSocket === NEW_OUTPUT ? fromSocket : toSocket;
    if (toSocket === NEW_OUTPUT) { for (let i = 2; name in outputs; i++) name = `${fromSocket}_${i}`; }
    outputs[name] = `${from}.${fromSocket}`;
    return;
  }
  const node = graph.nodes[to];
  (node.inputs ??= {})[toSocket] = from === INPUTS_ID ? { $input: fromSocket } : `${from}.${fromSocket}`;
}

/** Removes the wire into an input socket (or a graph output). */
export function unwire(graph: Graph, to: string, toSocket: string): void {
  if (to === OUTPUTS_ID) delete graph.outputs?.[toSocket];
  else delete graph.nodes[to]?.inputs?.[toSocket];
}

/** Sets a parameter; `undefined` removes it (the default applies). */
export function setParam(graph: Graph, id: string, name: string, value: Json | undefined): void {
  const node = graph.nodes[id];
  if (value === undefined) {
    delete node.params?.[name];
    if (node.params && !Object.keys(node.params).length) delete node.params;
  } else (node.params ??= {})[name] = value;
}

/** Removes a graph input and every socket or parameter bound to it. */
export function removeGraphInput(graph: Graph, name: string): void {
  const bound = (v: unknown) => !!v && typeof v === "object" && (v as { $input?: string }).$input === name;
  delete graph.inputs?.[name];
  for (const node of Object.values(graph.nodes)) {
    for (const [k, v] of Object.entries(node.inputs ?? {})) if (bound(v)) delete node.inputs![k];
    for (const [k, v] of Object.entries(node.params ?? {})) if (bound(v)) delete node.params![k];
  }
}

/** Sets a graph input's default (`undefined`: required). */
export function setGraphInputDefault(graph: Graph, name: string, value: Json | undefined): void {
  const decl = graph.inputs![name];
  if (value === undefined) delete decl.default;
  else decl.default = value;
}

/** Sets a graph input's description (`undefined`: none); a new one goes last, after type and default. */
export function setGraphInputDescription(graph: Graph, name: string, description: string | undefined): void {
  const decl = graph.inputs![name];
  if (description === undefined) delete decl.description;
  else decl.description = description;
}

/** A graph input name not yet used, from a parameter's name (made a valid socket name first). */
export function freeInputName(graph: Graph, param: string): string {
  const base = /^[A-Za-z_][A-Za-z0-9_]*$/.test(param) ? param : `p_${param.replace(/[^A-Za-z0-9_]/g, "_")}`;
  let name = base;
  for (let i = 2; name in (graph.inputs ?? {}); i++) name = `${base}_${i}`;
  return name;
}

/**
 * Declares graph input `name` of `type` (its default `value`; `undefined`: required) and binds
 * parameter `param` of node `id` to it.
 */
export function bindToNewInput(
  graph: Graph,
  id: string,
  param: string,
  name: string,
  type: string,
  value: Json | undefined,
): void {
  (graph.inputs ??= {})[name] = value === undefined ? { type } : { type, default: value };
  (graph.nodes[id].params ??= {})[param] = { $input: name };
}

/** A node group's sockets after its input or output `from` was renamed `to` (keys keep their place). */
export function renamedSockets(
  sockets: GroupSockets,
  kind: "input" | "output",
  from: string,
  to: string,
): GroupSockets {
  const rekey = <T>(r: Record<string, T>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k === from ? to : k, v]));
  return kind === "input"
    ? {
      ...sockets,
      inputs: rekey(sockets.inputs),
      paramInputs: sockets.paramInputs.map((n) => n === from ? to : n),
    }
    : { ...sockets, outputs: rekey(sockets.outputs) };
}

/** A node id not yet used in `graph`, from a base name (made to start as a node id must). */
export function freeNodeId(graph: Graph, base: string): string {
  const start = /^[A-Za-z_]/.test(base) ? base : `n_${base}`;
  let id = start;
  for (let i = 2; id in graph.nodes; i++) id = `${start}_${i}`;
  return id;
}
