/**
 * What the editor draws of a graph: the sockets of each node (from the catalogue, the group files'
 * sockets, and the graph's own inputs and outputs for Group Input and Group Output) and its wires.
 *
 * @module
 */
import type { Graph, GroupSockets, NodeDef } from "./types.ts";

/** Id of the graph-inputs node (graph inputs are its output sockets). */
export const INPUTS_ID = "@inputs";
/** Id of the graph-outputs node (graph outputs are its input sockets). */
export const OUTPUTS_ID = "@outputs";
/** Socket name of the graph-outputs node's empty slot: a wire dropped there adds an output. */
export const NEW_OUTPUT = "+";

/** A socket as drawn. */
export interface Socket {
  name: string;
  type: string;
  optional?: boolean;
}

/** What a node looks like: title, category, sockets. */
export interface Shape {
  title: string;
  category: string;
  inputs: Socket[];
  outputs: Socket[];
}

/** A wire from an output socket to an input socket. */
export interface Wire {
  from: string;
  fromSocket: string;
  to: string;
  toSocket: string;
}

/**
 * The sockets of node `id` of `graph` as drawn: Group Input's are the graph inputs, Group Output's the
 * graph outputs (and the `+` slot), a group node's its group's `sockets` by its `graph` field, any
 * other node's its type's `def`.
 */
export function shapeOf(
  graph: Graph,
  id: string,
  def: (type: string) => NodeDef | undefined,
  groups: ReadonlyMap<string, GroupSockets | undefined>,
): Shape {
  if (id === INPUTS_ID) {
    const outputs = Object.entries(graph.inputs ?? {}).map(([name, d]) => ({ name, type: d.type }));
    return { title: "Group Input", category: "graph", inputs: [], outputs };
  }
  if (id === OUTPUTS_ID) {
    const inputs = Object.keys(graph.outputs ?? {}).map((name) => ({
      name,
      type: outputType(graph, name, def, groups),
    }));
    return {
      title: "Group Output",
      category: "graph",
      inputs: [...inputs, { name: NEW_OUTPUT, type: "any" }],
      outputs: [],
    };
  }
  const node = graph.nodes[id];
  if (node.type === "graph") {
    const sockets = groups.get(node.graph ?? "");
    const inputs = Object.entries(sockets?.inputs ?? {}).filter(([n]) => !sockets?.paramInputs.includes(n));
    return {
      title: `${id} (${node.graph})`,
      category: "group",
      inputs: inputs.map(([name, d]) => ({ name, type: d.type, optional: d.default !== undefined })),
      outputs: Object.entries(sockets?.outputs ?? {}).map(([name, type]) => ({ name, type })),
    };
  }
  const spec = def(node.type);
  const list = (s: Record<string, { type: string; optional?: boolean }> = {}) =>
    Object.entries(s).map(([name, d]) => ({ name, type: d.type, optional: d.optional }));
  return {
    title: `${id}: ${node.type}`,
    category: node.type.split(".")[0],
    inputs: list(spec?.inputs),
    outputs: list(spec?.outputs),
  };
}

/** Type of a graph output: the type of the socket it links. */
function outputType(
  graph: Graph,
  name: string,
  def: (type: string) => NodeDef | undefined,
  groups: ReadonlyMap<string, GroupSockets | undefined>,
): string {
  const link = graph.outputs?.[name] ?? "";
  const [node, socket] = splitLink(link);
  return shapeOf(graph, node in graph.nodes ? node : INPUTS_ID, def, groups).outputs.find((s) =>
    s.name === socket
  )
    ?.type ??
    "any";
}

/** Every wire of `graph` as drawn (a graph input's from Group Input, a graph output's to Group Output). */
export function wiresOf(graph: Graph): Wire[] {
  const wires: Wire[] = [];
  const source = (value: string | { $input: string }) =>
    typeof value === "string" ? splitLink(value) : [INPUTS_ID, value.$input];
  for (const [id, node] of Object.entries(graph.nodes)) {
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      const [from, fromSocket] = source(value);
      wires.push({ from, fromSocket, to: id, toSocket: socket });
    }
  }
  for (const [name, link] of Object.entries(graph.outputs ?? {})) {
    const [from, fromSocket] = splitLink(link);
    wires.push({ from, fromSocket, to: OUTPUTS_ID, toSocket: name });
  }
  return wires;
}

/** Splits `"node.socket"`. */
export function splitLink(link: string): [string, string] {
  const dot = link.indexOf(".");
  return dot < 0 ? [link, ""] : [link.slice(0, dot), link.slice(dot + 1)];
}

/** A node id for the status bar: Group Input and Group Output by their titles. */
export function label(id: string): string {
  return id === INPUTS_ID ? "Group Input" : id === OUTPUTS_ID ? "Group Output" : id;
}
