/**
 * Renames on the graph JSON, every reference following: a node's id (its links in and out, its graph
 * outputs, its position), a graph input (every `{"$input": …}` that names it) and a graph output; and
 * the same renames seen from a graph that uses the file as a node group (its group nodes' `inputs` and
 * `params` keys, the links that read their outputs). Keys keep their place, so a saved file's diff is
 * the renamed lines only.
 *
 * @module
 */
import type { Graph, GraphNode } from "./types.ts";

/** Node ids as the runtime reads them (`runtime/graph.ts` NODE_ID): a dot would split a link. */
export const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Socket names (graph inputs and outputs are a group's sockets), as a link's socket part is read. */
export const SOCKET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Which name of a graph file is renamed: a node id, a graph input or a graph output. */
export type RenameKind = "node" | "input" | "output";

/**
 * Why `to` cannot be the new name (undefined when it can): not a name the graph format reads as one,
 * or one this graph already uses.
 *
 * @example
 * ```ts
 * renameProblem({ version: 1, nodes: { a: { type: "demo.fighter" } } }, "node", "b", "a");
 * // "a node 'a' exists: node ids must be unique"
 * ```
 */
export function renameProblem(graph: Graph, kind: RenameKind, from: string, to: string): string | undefined {
  if (to === "") return "a name cannot be empty";
  if (kind === "node") {
    if (!NODE_ID.test(to)) {
      return `'${to}' is not a node id: start with a letter or _, then letters, digits, _ or - ` +
        `(a dot would split the link 'node.socket')`;
    }
  } else if (!SOCKET_NAME.test(to)) {
    return `'${to}' is not a socket name: start with a letter or _, then letters, digits or _`;
  }
  if (to === from) return undefined;
  const taken = kind === "node" ? graph.nodes : kind === "input" ? graph.inputs : graph.outputs;
  if (taken && to in taken) {
    const what = kind === "node" ? "node" : `graph ${kind}`;
    return `a ${what} '${to}' exists: ${kind === "node" ? "node ids" : `graph ${kind} names`} must be unique`;
  }
  return undefined;
}

/** `record` with key `from` renamed `to`, in its place. */
function renameKey<T>(record: Record<string, T>, from: string, to: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k === from ? to : k, v]));
}

/** A link `node.socket` with its node or socket renamed. */
function relink(link: string, node: string, socket: string | undefined, to: string): string {
  const dot = link.indexOf(".");
  if (dot < 0 || link.slice(0, dot) !== node) return link;
  if (socket === undefined) return `${to}${link.slice(dot)}`;
  return link.slice(dot + 1) === socket ? `${node}.${to}` : link;
}

/** Rewrites every link of `graph` (node inputs, graph outputs) with `change`. */
function eachLink(graph: Graph, change: (link: string) => string): void {
  for (const node of Object.values(graph.nodes)) {
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value === "string") node.inputs![socket] = change(value);
    }
  }
  for (const [name, link] of Object.entries(graph.outputs ?? {})) graph.outputs![name] = change(link);
}

/** Renames node `from` to `to` in place: the node, every link to and from it, its position. */
export function renameNode(graph: Graph, from: string, to: string): void {
  graph.nodes = renameKey(graph.nodes, from, to);
  eachLink(graph, (link) => relink(link, from, undefined, to));
  if (graph.ui?.nodes && from in graph.ui.nodes) graph.ui.nodes = renameKey(graph.ui.nodes, from, to);
}

/** True for `{"$input": name}`. */
function refersTo(value: unknown, name: string): boolean {
  return !!value && typeof value === "object" && !Array.isArray(value) &&
    (value as { $input?: unknown }).$input === name && Object.keys(value).length === 1;
}

/** Renames graph input `from` to `to` in place: its declaration and every reference to it. */
export function renameGraphInput(graph: Graph, from: string, to: string): void {
  if (graph.inputs) graph.inputs = renameKey(graph.inputs, from, to);
  for (const node of Object.values(graph.nodes)) {
    for (const values of [node.inputs, node.params] as (Record<string, unknown> | undefined)[]) {
      for (const [key, value] of Object.entries(values ?? {})) {
        if (refersTo(value, from)) values![key] = { $input: to };
      }
    }
  }
}

/** Renames graph output `from` to `to` in place. */
export function renameGraphOutput(graph: Graph, from: string, to: string): void {
  if (graph.outputs) graph.outputs = renameKey(graph.outputs, from, to);
}

/**
 * In a graph that uses a node group, follows the rename of the group's input or output `from` to `to`:
 * each node in `groupNodes` gives the input by that name (`inputs`, or `params` for a parameter
 * input), and every link that reads the output names it. Returns true when anything changed.
 */
export function renameGroupSocket(
  graph: Graph,
  groupNodes: readonly string[],
  kind: "input" | "output",
  from: string,
  to: string,
): boolean {
  const before = JSON.stringify(graph);
  for (const id of groupNodes) {
    const node: GraphNode | undefined = graph.nodes[id];
    if (!node) continue;
    if (kind === "input") {
      if (node.inputs && from in node.inputs) node.inputs = renameKey(node.inputs, from, to);
      if (node.params && from in node.params) node.params = renameKey(node.params, from, to);
    } else eachLink(graph, (link) => relink(link, id, from, to));
  }
  return JSON.stringify(graph) !== before;
}
