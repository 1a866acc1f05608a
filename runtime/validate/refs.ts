/**
 * The one reference checker: a node input, a group input, a parameter or a graph output names
 * either an upstream node's output socket (`"node.socket"`) or a graph input (`{"$input": name}`).
 * Both kinds are checked here, for existence and type.
 *
 * @module
 */
import { type GraphInputDecl, isInputRef, parseLink } from "../graph.ts";
import type { SocketType } from "../node.ts";
import type { ScopeFacts } from "./report.ts";
import { suggestName } from "./suggest.ts";

/** What a reference must give, for the checks and their messages. */
export interface Wanted {
  /** The socket type it must have. */
  readonly type: SocketType;
  /** What takes it, for messages: `"socket 'scene'"`, `"the parameter"`, `"the group's 'v'"`. */
  readonly what: string;
  /** An optional socket accepts a graph input that may be absent (default null). */
  readonly optional?: boolean;
}

/**
 * Checks a graph-input reference; returns its declaration when it exists and has the wanted type.
 */
export function checkInputRef(
  name: string,
  path: string,
  wanted: Wanted,
  facts: ScopeFacts,
): GraphInputDecl | undefined {
  const decl = facts.inputs[name];
  if (!decl) {
    facts.issue(
      "unknown_graph_input",
      `${path}/$input`,
      `no graph input named '${name}'${suggestName(name, Object.keys(facts.inputs))}`,
    );
    return undefined;
  }
  if (decl.type !== wanted.type) {
    facts.issue(
      "type_mismatch",
      path,
      `graph input '${name}' is ${decl.type}, ${wanted.what} takes ${wanted.type}`,
    );
    return undefined;
  }
  if (
    decl.default === null && wanted.optional === false && (decl.type === "bytes" || decl.type === "scene")
  ) {
    facts.issue(
      "type_mismatch",
      path,
      `graph input '${name}' may be absent (default null); ${wanted.what} needs a value`,
    );
    return undefined;
  }
  return decl;
}

/**
 * Checks a reference to a node output or a graph input; returns the type it gives when that can
 * be known (a reference into a node whose own problem is already reported gives undefined).
 */
export function checkReference(
  value: unknown,
  path: string,
  facts: ScopeFacts,
  wanted?: Wanted,
): SocketType | undefined {
  if (isInputRef(value) && wanted) return checkInputRef(value.$input, path, wanted, facts)?.type;
  const link = typeof value === "string" ? parseLink(value) : undefined;
  if (!link) {
    const forms = wanted ? `a link "node.socket" or {"$input": name}` : `a link "node.socket"`;
    facts.issue("invalid_graph", path, `expected ${forms}, found ${JSON.stringify(value)}`);
    return undefined;
  }
  if (!(link.node in facts.decls)) {
    facts.issue(
      "unknown_node",
      path,
      `no node '${link.node}'${suggestName(link.node, Object.keys(facts.decls))}`,
    );
    return undefined;
  }
  const upstream = facts.shapes.get(link.node);
  if (!upstream) return undefined; // its own problem is already reported
  const type = upstream.outputs[link.socket];
  if (!type) {
    facts.issue(
      "unknown_socket",
      path,
      `node '${link.node}' has no output '${link.socket}'${
        suggestName(link.socket, Object.keys(upstream.outputs))
      }`,
    );
    return undefined;
  }
  if (wanted && type !== wanted.type) {
    facts.issue("type_mismatch", path, `'${value}' gives ${type}, ${wanted.what} takes ${wanted.type}`);
  }
  return type;
}
