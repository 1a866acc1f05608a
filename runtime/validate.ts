/**
 * Validation of graph files before anything runs. Every problem is reported at once, each with the
 * JSON path it concerns and a machine-readable kind; problems that only follow from another (links
 * into a node of unknown type, sockets of an unreadable subgraph, node types of a module that failed
 * to load) are not repeated.
 *
 * Validation works one graph file (scope) at a time; node groups are validated recursively and
 * contribute their signature (inputs and outputs) to the scope that uses them. The checks live in
 * `validate/`: graph inputs and the values given for them (`inputs.ts`), references — links and
 * `$input` — (`refs.ts`), parameters (`params.ts`), cycles (`cycles.ts`) and suggestions
 * (`suggest.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import type { GraphIssue, GraphIssueKind } from "./errors.ts";
import {
  GRAPH_FIELDS,
  GRAPH_VERSION,
  type GraphFile,
  type GraphInputDecl,
  type GraphNodeDecl,
  type GraphSource,
  GROUP_NODE_TYPE,
  isInputRef,
  isLiteral,
  NODE_FIELDS,
  NODE_ID,
  parseLink,
  readGraphFile,
} from "./graph.ts";
import type { AnyNodeDef, JsonValue, SocketType } from "./node.ts";
import { checkSocketLiteral } from "./params.ts";
import type { Registry } from "./registry.ts";
import { loadModules } from "./validate/modules.ts";
import { checkGivenValues, validateInputDecls } from "./validate/inputs.ts";
import { checkReference } from "./validate/refs.ts";
import { checkGroupParams, checkNodeParams } from "./validate/params.ts";
import { findCycles } from "./validate/cycles.ts";
import { suggestName } from "./validate/suggest.ts";
import { esc, isObject, type NodeShape, type Report, type ScopeFacts } from "./validate/report.ts";

/** What a validated graph file offers to whoever uses it as a node group. */
export interface Signature {
  /** The file's declared inputs: the group node's input sockets and parameters. */
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  /** The file's outputs and their socket types: the group node's output sockets. */
  readonly outputs: Readonly<Record<string, SocketType>>;
  /** Inputs that feed a parameter somewhere inside (they must be given as literals). */
  readonly paramInputs: ReadonlySet<string>;
}

/** A validated graph file with its node groups, ready to be flattened into a plan. */
export interface Scope {
  /** The graph file. */
  readonly source: GraphSource;
  /** Its parsed content, known to be valid. */
  readonly graph: GraphFile;
  /** The registry its nodes resolve in (a child registry when it names `modules`). */
  readonly registry: Registry;
  /** What it offers as a node group. */
  readonly signature: Signature;
  /** Node groups by node id. */
  readonly groups: ReadonlyMap<string, Scope>;
  /** Every graph file involved (this one and nested groups), for digests and manifests. */
  readonly files: readonly GraphSource[];
}

const TOP_KEYS = new Set(Object.keys(GRAPH_FIELDS));
const NODE_KEYS = new Set(Object.keys(NODE_FIELDS));

/**
 * Validates a graph source, its node groups and — when `values` are given (as for a run) — the
 * values for its inputs, which must then cover every input without a default. Returns every issue
 * found, and the scope when there were none.
 *
 * @example
 * ```ts
 * import { createRegistry, loadGraph, validateScope } from "./mod.ts";
 *
 * const source = await loadGraph({ version: 1, nodes: { a: { type: "no.such" } } });
 * const { issues } = await validateScope(source, createRegistry());
 * console.log(issues[0].kind); // "unknown_node_type"
 * ```
 */
export async function validateScope(
  source: GraphSource,
  registry: Registry,
  values?: Readonly<Record<string, unknown>>,
): Promise<{ issues: GraphIssue[]; scope?: Scope }> {
  return await validateFile(source, registry, values ? { given: values } : { known: {} }, []);
}

/** Values for a scope's inputs: given from outside (top level) or known from the using group. */
type Values = { given: Readonly<Record<string, unknown>> } | { known: Readonly<Record<string, JsonValue>> };

async function validateFile(
  source: GraphSource,
  registry: Registry,
  values: Values,
  stack: readonly string[],
): Promise<{ issues: GraphIssue[]; scope?: Scope }> {
  const issues: GraphIssue[] = [];
  const issue: Report = (kind: GraphIssueKind, path: string, message: string) =>
    void issues.push({ kind, path, message, file: source.file });

  const json = source.json;
  if (!isObject(json)) {
    issue("invalid_graph", "", "a graph must be a JSON object");
    return { issues };
  }
  for (const key of Object.keys(json)) {
    if (!TOP_KEYS.has(key)) issue("invalid_graph", `/${esc(key)}`, `unknown field '${key}'`);
  }
  if (json.version !== GRAPH_VERSION) {
    issue(
      "invalid_graph",
      "/version",
      `expected version ${GRAPH_VERSION}, found ${JSON.stringify(json.version)}`,
    );
  }
  if (json.ui !== undefined && !isObject(json.ui)) issue("invalid_graph", "/ui", "expected an object");
  for (const key of ["name", "description"]) {
    if (json[key] !== undefined && typeof json[key] !== "string") {
      issue("invalid_graph", `/${key}`, "expected a string");
    }
  }

  const inputs = validateInputDecls(json.inputs, issue);
  const known = "given" in values ? checkGivenValues(inputs, values.given, issue) : values.known;
  const modules = await loadModules(json.modules, source, registry, issue);
  const scopeRegistry = modules.registry;

  if (!isObject(json.nodes)) {
    issue("invalid_graph", "/nodes", "expected an object of nodes by id");
    return { issues };
  }
  const decls = json.nodes as Record<string, unknown>;
  const shapes = new Map<string, NodeShape>();
  const groups = new Map<string, Scope>();
  const files: GraphSource[] = [source];
  const paramInputs = new Set<string>();
  const facts: ScopeFacts = { inputs, known, decls, shapes, plugins: scopeRegistry, issue };

  // Pass 1: what each node is (its sockets), so pass 2 can check links in any order.
  for (const [id, raw] of Object.entries(decls)) {
    const at = `/nodes/${esc(id)}`;
    if (!NODE_ID.test(id)) issue("invalid_graph", at, `node id '${id}' may use letters, digits, _ and -`);
    if (!isObject(raw)) {
      issue("invalid_graph", at, "expected a node object");
      continue;
    }
    for (const key of Object.keys(raw)) {
      if (!NODE_KEYS.has(key)) issue("invalid_graph", `${at}/${esc(key)}`, `unknown field '${key}'`);
    }
    if (typeof raw.type !== "string") {
      issue("invalid_graph", `${at}/type`, "expected a node type");
      continue;
    }
    if (raw.type === GROUP_NODE_TYPE) {
      const decl = raw as unknown as GraphNodeDecl;
      const group = await validateGroup(
        decl,
        at,
        source,
        scopeRegistry,
        groupValues(decl, known),
        stack,
        issues,
      );
      if (group) {
        groups.set(id, group);
        files.push(...group.files);
        shapes.set(id, groupShape(group.signature));
      }
      continue;
    }
    const def = scopeRegistry.get(raw.type);
    if (!def) {
      // A type of a module that failed to load is that module's one problem, not one per node.
      if (!modules.failed) {
        issue(
          "unknown_node_type",
          `${at}/type`,
          `unknown node type '${raw.type}'${suggestName(raw.type, scopeRegistry.list().map((d) => d.type))}`,
        );
      }
      continue;
    }
    shapes.set(id, shapeOf(def));
  }

  // Pass 2: parameters, inputs and links of every node whose shape is known.
  for (const [id, shape] of shapes) {
    const at = `/nodes/${esc(id)}`;
    const decl = decls[id] as Record<string, unknown>;
    const group = groups.get(id);
    if (group) checkGroupParams(decl.params, group.signature, at, facts);
    else checkNodeParams(scopeRegistry.get(decl.type as string)!, decl.params, at, facts, paramInputs);
    const given = checkInputs(decl.inputs, shape, at, facts, group?.signature);
    for (const [name, socket] of Object.entries(shape.inputs)) {
      const suppliedByParam = group && isObject(decl.params) && name in decl.params;
      if (!socket.optional && !given.has(name) && !suppliedByParam) {
        issue(
          group ? "missing_graph_input" : "missing_socket",
          `${at}/inputs`,
          group
            ? `the group's input '${name}' (${socket.type}) has no default and is not given`
            : `required input '${name}' (${socket.type}) is not connected`,
        );
      }
    }
  }

  // Graph outputs.
  const outputs: Record<string, SocketType> = {};
  if (json.outputs !== undefined && !isObject(json.outputs)) {
    issue("invalid_graph", "/outputs", "expected an object of links by output name");
  } else {
    for (const [name, value] of Object.entries(json.outputs ?? {})) {
      const type = checkReference(value, `/outputs/${esc(name)}`, facts);
      if (type) outputs[name] = type;
    }
  }

  for (const cycle of findCycles(upstreamEdges(decls, shapes))) {
    issue("cycle", `/nodes/${esc(cycle[0])}`, `cycle: ${[...cycle, cycle[0]].join(" → ")}`);
  }

  if (issues.length) return { issues };
  return {
    issues,
    scope: {
      source,
      graph: json as unknown as GraphFile,
      registry: scopeRegistry,
      signature: { inputs, outputs, paramInputs },
      groups,
      files,
    },
  };
}

/** The literal values a group node gives its file's inputs: its params, or the values they reference. */
function groupValues(
  decl: GraphNodeDecl,
  known: Readonly<Record<string, JsonValue>>,
): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  if (!isObject(decl.params)) return values;
  for (const [name, value] of Object.entries(decl.params)) {
    if (isInputRef(value)) {
      if (value.$input in known) values[name] = known[value.$input];
    } else values[name] = isLiteral(value) ? value.$literal : value;
  }
  return values;
}

async function validateGroup(
  decl: GraphNodeDecl,
  at: string,
  source: GraphSource,
  registry: Registry,
  known: Record<string, JsonValue>,
  stack: readonly string[],
  issues: GraphIssue[],
): Promise<Scope | undefined> {
  const fail = (kind: GraphIssueKind, message: string) =>
    void issues.push({ kind, path: `${at}/graph`, file: source.file, message });
  if (typeof decl.graph !== "string") {
    fail("invalid_graph", "expected a graph file path");
    return undefined;
  }
  const file = resolve(source.dir, decl.graph);
  if (file === source.file || stack.includes(file)) {
    fail("invalid_subgraph", `graph '${decl.graph}' includes itself`);
    return undefined;
  }
  const read = await readGraphFile(file, source.overrides);
  if (!read.source) {
    const unreadable = read.issue!.kind === "unreadable_subgraph";
    fail(
      unreadable ? "unreadable_subgraph" : "invalid_subgraph",
      `cannot use '${decl.graph}': ${read.issue!.message}`,
    );
    if (!unreadable) issues.push(read.issue!);
    return undefined;
  }
  // Only values that pass the group's own input types are passed in; wrong ones are reported here.
  const inner = await validateFile(read.source, registry, { known: typedValues(read.source.json, known) }, [
    ...stack,
    source.file,
  ]);
  if (!inner.scope) {
    fail(
      "invalid_subgraph",
      `'${decl.graph}' has ${inner.issues.length} problem(s), listed with its file name`,
    );
    issues.push(...inner.issues);
  }
  return inner.scope;
}

/** The values whose type matches the input they are for in the graph file's declarations. */
function typedValues(json: unknown, values: Record<string, JsonValue>): Record<string, JsonValue> {
  const declared = isObject(json) && isObject(json.inputs) ? json.inputs : {};
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const decl = declared[name];
    if (
      isObject(decl) && typeof decl.type === "string" && !checkSocketLiteral(decl.type as SocketType, value)
    ) {
      out[name] = value;
    }
  }
  return out;
}

function shapeOf(def: AnyNodeDef): NodeShape {
  const inputs: Record<string, { type: SocketType; optional: boolean }> = {};
  for (const [name, spec] of Object.entries(def.inputs)) {
    inputs[name] = { type: spec.type, optional: !!spec.optional };
  }
  const outputs: Record<string, SocketType> = {};
  for (const [name, spec] of Object.entries(def.outputs)) outputs[name] = spec.type;
  return { inputs, outputs };
}

function groupShape(signature: Signature): NodeShape {
  const inputs: Record<string, { type: SocketType; optional: boolean }> = {};
  for (const [name, decl] of Object.entries(signature.inputs)) {
    inputs[name] = { type: decl.type, optional: decl.default !== undefined };
  }
  return { inputs, outputs: { ...signature.outputs } };
}

/** Checks a node's `inputs`; returns the names it connects. */
function checkInputs(
  raw: unknown,
  shape: NodeShape,
  at: string,
  facts: ScopeFacts,
  group?: Signature,
): Set<string> {
  const given = new Set<string>();
  if (raw === undefined) return given;
  if (!isObject(raw)) {
    facts.issue("invalid_graph", `${at}/inputs`, "expected an object of links by socket name");
    return given;
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `${at}/inputs/${esc(name)}`;
    const socket = shape.inputs[name];
    if (!socket) {
      facts.issue(
        "unknown_socket",
        path,
        `no input socket '${name}'${suggestName(name, Object.keys(shape.inputs))}`,
      );
      continue;
    }
    given.add(name);
    if (group?.paramInputs.has(name) && !isInputRef(value)) {
      facts.issue("type_mismatch", path, `the group's input '${name}' feeds a parameter: give it in params`);
      continue;
    }
    checkReference(value, path, facts, {
      type: socket.type,
      what: `socket '${name}'`,
      optional: socket.optional,
    });
  }
  return given;
}

/** Each node's upstream node ids (links to nodes of known shape), for the cycle search. */
function upstreamEdges(decls: Record<string, unknown>, shapes: ReadonlyMap<string, NodeShape>) {
  const edges = new Map<string, string[]>();
  for (const id of shapes.keys()) {
    const raw = (decls[id] as Record<string, unknown>).inputs;
    const ups: string[] = [];
    if (isObject(raw)) {
      for (const value of Object.values(raw)) {
        const link = typeof value === "string" ? parseLink(value) : undefined;
        if (link && shapes.has(link.node)) ups.push(link.node);
      }
    }
    edges.set(id, ups);
  }
  return edges;
}
