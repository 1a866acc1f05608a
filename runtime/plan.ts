/**
 * Compiling a graph into a flat plan: validation (of the graph and the values given for its inputs,
 * all problems in one `GraphError`), then node groups expanded inline (their nodes get ids
 * `group/inner`), graph inputs substituted, parameter defaults applied. The executor only ever sees
 * plans.
 *
 * @module
 */
import { GraphError } from "./errors.ts";
import { type GraphInputDecl, type GraphSource, isInputRef, isLiteral, parseLink } from "./graph.ts";
import type { AnyNodeDef, JsonValue, SocketType } from "./node.ts";
import { readPathsRelative, withDefaults } from "./params.ts";
import type { Registry } from "./registry.ts";
import { type Scope, validateScope } from "./validate.ts";

/** Where a node input's value comes from. */
export type PlanSource =
  | { readonly node: string; readonly socket: string }
  | { readonly literal: JsonValue }
  | { readonly graphInput: string };

/** One node of a plan. */
export interface PlanNode {
  /** Flattened id (`group/inner` inside node groups). */
  readonly id: string;
  /** The registered declaration of the node's type. */
  readonly def: AnyNodeDef;
  /** Parameters with graph inputs substituted and defaults applied. */
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Where each connected input socket's value comes from; unconnected optional inputs are absent. */
  readonly inputs: Readonly<Record<string, PlanSource>>;
  /** Digest of the custom module the node type came from, if any. */
  readonly implDigest?: string;
}

/** A compiled graph. */
export interface Plan {
  /** Every node after node groups are expanded, by flattened id, in graph file order. */
  readonly nodes: ReadonlyMap<string, PlanNode>;
  /** Graph outputs by name, each traced through node groups to the node that produces it. */
  readonly outputs: Readonly<Record<string, PlanSource>>;
  /** The socket type of each graph output. */
  readonly outputTypes: Readonly<Record<string, SocketType>>;
  /** The top-level graph's declared inputs. */
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  /** Values of top-level inputs of socket types given in memory (bytes, scenes). */
  readonly inputValues: Readonly<Record<string, unknown>>;
  /** Literal values of the top-level inputs after defaults (for manifests). */
  readonly inputLiterals: Readonly<Record<string, JsonValue>>;
  /** The registry the plan was compiled against (a child registry when the graph names `modules`). */
  readonly registry: Registry;
  /** Every graph file involved. */
  readonly files: readonly GraphSource[];
}

type Binding = { literal: JsonValue } | { source: PlanSource };

/**
 * Validates a graph and compiles it into a plan, or throws a {@link GraphError} listing every
 * problem. `values` are the top-level inputs (literals, or bytes/scene values given in memory).
 */
export async function compileGraph(
  source: GraphSource,
  registry: Registry,
  values: Readonly<Record<string, unknown>> = {},
): Promise<Plan> {
  const { issues, scope } = await validateScope(source, registry, values);
  if (issues.length || !scope) throw new GraphError(issues);
  return planOf(scope, values);
}

/**
 * The plan of a scope that {@link validateScope} found valid with these same `values`: what
 * {@link compileGraph} does after validating, for a caller (the studio's check) that also needs the
 * scope, so a big graph is validated once, not once per use.
 */
export function planOf(scope: Scope, values: Readonly<Record<string, unknown>> = {}): Plan {
  const declared = scope.signature.inputs;
  const bindings: Record<string, Binding> = {};
  const inputLiterals: Record<string, JsonValue> = {};
  const inputValues: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(declared)) {
    const value = (values[name] ?? decl.default) as JsonValue;
    if (decl.type === "bytes" || decl.type === "scene") {
      // null (the only literal these types have) means absent: optional sockets get undefined.
      bindings[name] = value === null ? { literal: null } : { source: { graphInput: name } };
      if (values[name] !== undefined) inputValues[name] = values[name];
    } else {
      bindings[name] = { literal: value };
      inputLiterals[name] = value;
    }
  }
  const nodes = new Map<string, PlanNode>();
  // One working folder for every read path: asking the OS for it per node was 5% of a 20,000-node check.
  flatten(scope, "", bindings, nodes, Deno.cwd());
  const outputs: Record<string, PlanSource> = {};
  for (const [name, link] of Object.entries(scope.graph.outputs ?? {})) {
    outputs[name] = resolveLink(scope, "", link);
  }
  return {
    nodes,
    outputs,
    outputTypes: scope.signature.outputs,
    inputs: declared,
    inputValues,
    inputLiterals,
    registry: scope.registry,
    files: scope.files,
  };
}

function flatten(
  scope: Scope,
  prefix: string,
  bindings: Record<string, Binding>,
  out: Map<string, PlanNode>,
  cwd: string,
): void {
  for (const [id, decl] of Object.entries(scope.graph.nodes)) {
    const fullId = prefix + id;
    const group = scope.groups.get(id);
    if (group) {
      const inner: Record<string, Binding> = {};
      for (const [name, inputDecl] of Object.entries(group.signature.inputs)) {
        const param = decl.params?.[name];
        const link = decl.inputs?.[name];
        if (param !== undefined) inner[name] = bind(param, bindings);
        else if (link !== undefined) inner[name] = bindLink(link, scope, prefix, bindings);
        else if (inputDecl.default !== undefined) inner[name] = { literal: inputDecl.default };
      }
      flatten(group, `${fullId}/`, inner, out, cwd);
      continue;
    }
    const def = scope.registry.get(decl.type)!;
    const given: Record<string, JsonValue> = {};
    for (const [name, value] of Object.entries(decl.params ?? {})) {
      const bound = bind(value, bindings);
      // Validation guarantees parameters only reference literal-typed inputs (and checked them).
      given[name] = "literal" in bound ? bound.literal : null;
    }
    const params = readPathsRelative(def.params, withDefaults(def.params, given), cwd);
    const inputs: Record<string, PlanSource> = {};
    for (const [name, link] of Object.entries(decl.inputs ?? {})) {
      const bound = bindLink(link, scope, prefix, bindings);
      inputs[name] = "source" in bound ? bound.source : { literal: bound.literal };
    }
    out.set(fullId, { id: fullId, def, params, inputs, implDigest: scope.registry.implDigest(def.type) });
  }
}

function bind(value: JsonValue, bindings: Record<string, Binding>): Binding {
  if (isInputRef(value)) return bindings[value.$input];
  return { literal: isLiteral(value) ? value.$literal : value };
}

function bindLink(
  value: string | { $input: string },
  scope: Scope,
  prefix: string,
  bindings: Record<string, Binding>,
): Binding {
  if (isInputRef(value)) return bindings[value.$input];
  return { source: resolveLink(scope, prefix, value) };
}

/** Follows a link through node groups to the plan node that produces the value. */
function resolveLink(scope: Scope, prefix: string, text: string): PlanSource {
  const link = parseLink(text)!;
  const group = scope.groups.get(link.node);
  if (!group) return { node: prefix + link.node, socket: link.socket };
  return resolveLink(group, `${prefix}${link.node}/`, group.graph.outputs![link.socket]);
}
