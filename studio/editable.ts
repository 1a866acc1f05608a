/**
 * Whether the node editor can draw a graph file: the shape it reads (an object of nodes, each an
 * object with a type; parameters and links as objects; outputs as "node.socket" links; positions as
 * `[x, y]`). Anything else in a file — an unknown node type, a missing group file, a bad parameter
 * value, an unknown field — opens, and the live check marks it; a file of another shape cannot be
 * drawn, so the studio refuses it with these issues (the runtime's wording, each with its JSON path)
 * rather than open it half drawn.
 *
 * @module
 */
import type { GraphIssue } from "../runtime/mod.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isPoint = (value: unknown) =>
  Array.isArray(value) && value.length === 2 &&
  value.every((v) => typeof v === "number" && Number.isFinite(v));

/** A JSON pointer segment (RFC 6901). */
const esc = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * The problems that keep the editor from drawing `graph` (empty when it can), as `invalid_graph`
 * issues with the JSON path of each.
 *
 * @example
 * ```ts
 * uneditable({ version: 1, nodes: { a: "demo.fighter" } });
 * // [{ kind: "invalid_graph", path: "/nodes/a", message: "expected a node object" }]
 * ```
 */
export function uneditable(graph: unknown): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ kind: "invalid_graph", path, message });
  if (!isObject(graph)) {
    issue("", "a graph must be a JSON object");
    return issues;
  }
  if (!isObject(graph.nodes)) issue("/nodes", "expected an object of nodes by id");
  for (const [id, node] of Object.entries(isObject(graph.nodes) ? graph.nodes : {})) {
    const at = `/nodes/${esc(id)}`;
    if (!isObject(node)) {
      issue(at, "expected a node object");
      continue;
    }
    if (typeof node.type !== "string") issue(`${at}/type`, "expected a node type");
    if (node.graph !== undefined && typeof node.graph !== "string") {
      issue(`${at}/graph`, "expected a graph file path");
    }
    if (node.params !== undefined && !isObject(node.params)) {
      issue(`${at}/params`, "expected an object of parameters");
    }
    if (node.inputs !== undefined && !isObject(node.inputs)) {
      issue(`${at}/inputs`, "expected an object of links by socket name");
    }
    for (const [socket, link] of Object.entries(isObject(node.inputs) ? node.inputs : {})) {
      if (typeof link !== "string" && !(isObject(link) && typeof link.$input === "string")) {
        issue(`${at}/inputs/${esc(socket)}`, `expected a link "node.socket" or {"$input": name}`);
      }
    }
  }
  if (graph.inputs !== undefined && !isObject(graph.inputs)) {
    issue("/inputs", "expected an object of input declarations");
  }
  for (const [name, decl] of Object.entries(isObject(graph.inputs) ? graph.inputs : {})) {
    if (!isObject(decl) || typeof decl.type !== "string") {
      issue(`/inputs/${esc(name)}/type`, "expected a type");
    }
  }
  if (graph.outputs !== undefined && !isObject(graph.outputs)) {
    issue("/outputs", "expected an object of links by output name");
  }
  for (const [name, link] of Object.entries(isObject(graph.outputs) ? graph.outputs : {})) {
    if (typeof link !== "string") {
      issue(`/outputs/${esc(name)}`, `expected a link "node.socket", found ${JSON.stringify(link)}`);
    }
  }
  const ui = graph.ui;
  if (ui !== undefined && !isObject(ui)) issue("/ui", "expected an object");
  if (isObject(ui)) {
    if (ui.nodes !== undefined && !isObject(ui.nodes)) issue("/ui/nodes", "expected an object");
    for (const [id, at] of Object.entries(isObject(ui.nodes) ? ui.nodes : {})) {
      if (!isPoint(at)) issue(`/ui/nodes/${esc(id)}`, "expected a position [x, y]");
    }
    for (const key of ["inputs", "outputs"]) {
      if (ui[key] !== undefined && !isPoint(ui[key])) issue(`/ui/${key}`, "expected a position [x, y]");
    }
  }
  return issues;
}
