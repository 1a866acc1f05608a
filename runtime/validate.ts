/**
 * Validation of graph files before anything runs. Every problem is reported at once, each with the
 * JSON path it concerns and a machine-readable kind; problems that only follow from another (links
 * into a node of unknown type, sockets of an unreadable subgraph) are not repeated.
 *
 * Validation works one graph file (scope) at a time; node groups are validated recursively and
 * contribute their signature (inputs and outputs) to the scope that uses them.
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
  INPUT_FIELDS,
  isInputRef,
  isLiteral,
  type Link,
  NODE_FIELDS,
  NODE_ID,
  parseLink,
  readGraphFile,
} from "./graph.ts";
import { type AnyNodeDef, type JsonValue, SOCKET_TYPES, type SocketType } from "./node.ts";
import { checkParam, checkSocketLiteral, paramSocketType } from "./params.ts";
import type { Registry } from "./registry.ts";
import { loadModule } from "./modules.ts";

/** What a validated graph file offers to whoever uses it as a node group. */
export interface Signature {
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  readonly outputs: Readonly<Record<string, SocketType>>;
  /** Inputs that feed a parameter somewhere inside (they must be given as literals). */
  readonly paramInputs: ReadonlySet<string>;
}

/** A validated graph file with its node groups, ready to be flattened into a plan. */
export interface Scope {
  readonly source: GraphSource;
  readonly graph: GraphFile;
  readonly registry: Registry;
  readonly signature: Signature;
  /** Node groups by node id. */
  readonly groups: ReadonlyMap<string, Scope>;
  /** Every graph file involved (this one and nested groups), for digests and manifests. */
  readonly files: readonly GraphSource[];
}

const TOP_KEYS = new Set(Object.keys(GRAPH_FIELDS));
const NODE_KEYS = new Set(Object.keys(NODE_FIELDS));
const INPUT_KEYS = new Set(Object.keys(INPUT_FIELDS));
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Sockets of one node as validation sees them: its declaration or a group's signature. */
interface NodeShape {
  inputs: Record<string, { type: SocketType; optional: boolean }>;
  outputs: Record<string, SocketType>;
}

/**
 * Validates a graph source and its node groups. Returns every issue found, and the scope when there
 * were none.
 */
export async function validateScope(
  source: GraphSource,
  registry: Registry,
  stack: readonly string[] = [],
): Promise<{ issues: GraphIssue[]; scope?: Scope }> {
  const issues: GraphIssue[] = [];
  const issue = (kind: GraphIssueKind, path: string, message: string) =>
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
  const scopeRegistry = await loadModules(json.modules, source, registry, issue);

  if (!isObject(json.nodes)) {
    issue("invalid_graph", "/nodes", "expected an object of nodes by id");
    return { issues };
  }
  const decls = json.nodes as Record<string, unknown>;
  const shapes = new Map<string, NodeShape>();
  const groups = new Map<string, Scope>();
  const files: GraphSource[] = [source];
  const paramInputs = new Set<string>();

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
      const group = await validateGroup(
        raw as unknown as GraphNodeDecl,
        at,
        source,
        scopeRegistry,
        stack,
        issues,
      );
      if (group) {
        groups.set(id, group);
        files.push(...group.files);
        shapes.set(id, {
          inputs: Object.fromEntries(
            Object.entries(group.signature.inputs).map((
              [name, decl],
            ) => [name, { type: decl.type, optional: decl.default !== undefined }]),
          ),
          outputs: { ...group.signature.outputs },
        });
      }
      continue;
    }
    const def = scopeRegistry.get(raw.type);
    if (!def) {
      issue(
        "unknown_node_type",
        `${at}/type`,
        `unknown node type '${raw.type}'${suggest(raw.type, scopeRegistry)}`,
      );
      continue;
    }
    shapes.set(id, shapeOf(def));
  }

  // Pass 2: parameters, inputs and links of every node whose shape is known.
  for (const [id, shape] of shapes) {
    const at = `/nodes/${esc(id)}`;
    const decl = decls[id] as Record<string, unknown>;
    const group = groups.get(id);
    if (group) {
      checkGroupParams(decl.params, group.signature, inputs, at, issue);
    } else {
      const def = scopeRegistry.get(decl.type as string)!;
      checkNodeParams(def, decl.params, inputs, at, issue, paramInputs);
    }
    const given = checkInputs(decl.inputs, shape, inputs, shapes, decls, at, issue, group?.signature);
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
      const type = checkLink(value, `/outputs/${esc(name)}`, shapes, decls, issue);
      if (type) outputs[name] = type;
    }
  }

  for (const cycle of findCycles(decls, shapes)) {
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

type Report = (kind: GraphIssueKind, path: string, message: string) => void;

function validateInputDecls(raw: unknown, issue: Report): Record<string, GraphInputDecl> {
  const inputs: Record<string, GraphInputDecl> = {};
  if (raw === undefined) return inputs;
  if (!isObject(raw)) {
    issue("invalid_graph", "/inputs", "expected an object of input declarations");
    return inputs;
  }
  for (const [name, decl] of Object.entries(raw)) {
    const at = `/inputs/${esc(name)}`;
    if (!INPUT_NAME.test(name)) {
      issue("invalid_graph", at, `input name '${name}' may use letters, digits and _`);
    }
    if (!isObject(decl) || !SOCKET_TYPES.includes(decl.type as SocketType)) {
      issue("invalid_graph", `${at}/type`, `expected a type, one of ${SOCKET_TYPES.join(", ")}`);
      continue;
    }
    for (const key of Object.keys(decl)) {
      if (!INPUT_KEYS.has(key)) issue("invalid_graph", `${at}/${esc(key)}`, `unknown field '${key}'`);
    }
    if (decl.default !== undefined) {
      const problem = checkSocketLiteral(decl.type as SocketType, decl.default as JsonValue);
      if (problem) issue("bad_param", `${at}/default`, problem);
    }
    inputs[name] = decl as unknown as GraphInputDecl;
  }
  return inputs;
}

async function loadModules(
  raw: unknown,
  source: GraphSource,
  registry: Registry,
  issue: Report,
): Promise<Registry> {
  if (raw === undefined) return registry;
  if (!Array.isArray(raw)) {
    issue("invalid_graph", "/modules", "expected a list of module paths");
    return registry;
  }
  const child = registry.child();
  for (const [i, path] of raw.entries()) {
    if (typeof path !== "string") {
      issue("invalid_graph", `/modules/${i}`, "expected a module path");
      continue;
    }
    try {
      const loaded = await loadModule(source.dir, path);
      child.register(loaded.plugin, loaded.digest);
    } catch (error) {
      issue("unreadable_module", `/modules/${i}`, `cannot load '${path}': ${errorText(error)}`);
    }
  }
  return child;
}

async function validateGroup(
  decl: GraphNodeDecl,
  at: string,
  source: GraphSource,
  registry: Registry,
  stack: readonly string[],
  issues: GraphIssue[],
): Promise<Scope | undefined> {
  if (typeof decl.graph !== "string") {
    issues.push({
      kind: "invalid_graph",
      path: `${at}/graph`,
      file: source.file,
      message: "expected a graph file path",
    });
    return undefined;
  }
  const file = resolve(source.dir, decl.graph);
  if (file === source.file || stack.includes(file)) {
    issues.push({
      kind: "invalid_subgraph",
      path: `${at}/graph`,
      file: source.file,
      message: `graph '${decl.graph}' includes itself`,
    });
    return undefined;
  }
  const read = await readGraphFile(file);
  if (!read.source) {
    const unreadable = read.issue!.kind === "unreadable_subgraph";
    issues.push({
      kind: unreadable ? "unreadable_subgraph" : "invalid_subgraph",
      path: `${at}/graph`,
      file: source.file,
      message: `cannot use '${decl.graph}': ${read.issue!.message}`,
    });
    if (!unreadable) issues.push(read.issue!);
    return undefined;
  }
  const inner = await validateScope(read.source, registry, [...stack, source.file]);
  if (!inner.scope) {
    issues.push({
      kind: "invalid_subgraph",
      path: `${at}/graph`,
      file: source.file,
      message: `'${decl.graph}' has ${inner.issues.length} problem(s), listed with its file name`,
    });
    issues.push(...inner.issues);
  }
  return inner.scope;
}

function shapeOf(def: AnyNodeDef): NodeShape {
  const inputs: NodeShape["inputs"] = {};
  for (const [name, spec] of Object.entries(def.inputs)) {
    inputs[name] = { type: spec.type, optional: !!spec.optional };
  }
  const outputs: NodeShape["outputs"] = {};
  for (const [name, spec] of Object.entries(def.outputs)) outputs[name] = spec.type;
  return { inputs, outputs };
}

function checkNodeParams(
  def: AnyNodeDef,
  raw: unknown,
  inputs: Record<string, GraphInputDecl>,
  at: string,
  issue: Report,
  paramInputs: Set<string>,
): void {
  if (raw !== undefined && !isObject(raw)) {
    issue("invalid_graph", `${at}/params`, "expected an object of parameters");
    return;
  }
  const given = (raw ?? {}) as Record<string, JsonValue>;
  for (const [name, value] of Object.entries(given)) {
    const spec = def.params[name];
    const path = `${at}/params/${esc(name)}`;
    if (!spec) {
      issue(
        "unknown_param",
        path,
        `'${def.type}' has no parameter '${name}'${suggestName(name, Object.keys(def.params))}`,
      );
      continue;
    }
    if (isInputRef(value)) {
      const decl = inputs[value.$input];
      if (!decl) issue("unknown_graph_input", `${path}/$input`, `no graph input named '${value.$input}'`);
      else if (decl.type !== paramSocketType(spec)) {
        issue(
          "type_mismatch",
          path,
          `graph input '${value.$input}' is ${decl.type}, the parameter needs ${paramSocketType(spec)}`,
        );
      } else {
        paramInputs.add(value.$input);
        if (decl.default !== undefined) {
          const problem = checkParam(spec, decl.default);
          if (problem) issue("bad_param", `/inputs/${esc(value.$input)}/default`, `for ${path}: ${problem}`);
        }
      }
      continue;
    }
    const problem = checkParam(spec, isLiteral(value) ? value.$literal : value);
    if (problem) issue("bad_param", path, problem);
  }
  for (const [name, spec] of Object.entries(def.params)) {
    if (spec.default === undefined && !(name in given)) {
      issue("missing_param", `${at}/params`, `required parameter '${name}' (${spec.type}) is not set`);
    }
  }
}

function checkGroupParams(
  raw: unknown,
  signature: Signature,
  inputs: Record<string, GraphInputDecl>,
  at: string,
  issue: Report,
): void {
  if (raw === undefined) return;
  if (!isObject(raw)) {
    issue("invalid_graph", `${at}/params`, "expected an object of parameters");
    return;
  }
  for (const [name, value] of Object.entries(raw)) {
    const decl = signature.inputs[name];
    const path = `${at}/params/${esc(name)}`;
    if (!decl) {
      issue(
        "unknown_param",
        path,
        `the group has no input '${name}'${suggestName(name, Object.keys(signature.inputs))}`,
      );
      continue;
    }
    if (isInputRef(value)) {
      const outer = inputs[value.$input];
      if (!outer) issue("unknown_graph_input", `${path}/$input`, `no graph input named '${value.$input}'`);
      else if (outer.type !== decl.type) {
        issue(
          "type_mismatch",
          path,
          `graph input '${value.$input}' is ${outer.type}, the group's '${name}' takes ${decl.type}`,
        );
      }
      continue;
    }
    const problem = checkSocketLiteral(decl.type, value as JsonValue);
    if (problem) issue("bad_param", path, problem);
  }
}

/** Checks a node's `inputs`; returns the names it connects. */
function checkInputs(
  raw: unknown,
  shape: NodeShape,
  inputs: Record<string, GraphInputDecl>,
  shapes: Map<string, NodeShape>,
  decls: Record<string, unknown>,
  at: string,
  issue: Report,
  group?: Signature,
): Set<string> {
  const given = new Set<string>();
  if (raw === undefined) return given;
  if (!isObject(raw)) {
    issue("invalid_graph", `${at}/inputs`, "expected an object of links by socket name");
    return given;
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `${at}/inputs/${esc(name)}`;
    const socket = shape.inputs[name];
    if (!socket) {
      issue(
        "unknown_socket",
        path,
        `no input socket '${name}'${suggestName(name, Object.keys(shape.inputs))}`,
      );
      continue;
    }
    given.add(name);
    if (group?.paramInputs.has(name) && !isInputRef(value)) {
      issue("type_mismatch", path, `the group's input '${name}' feeds a parameter: give it in params`);
      continue;
    }
    if (isInputRef(value)) {
      const decl = inputs[value.$input];
      if (!decl) issue("unknown_graph_input", `${path}/$input`, `no graph input named '${value.$input}'`);
      else if (decl.type !== socket.type) {
        issue(
          "type_mismatch",
          path,
          `graph input '${value.$input}' is ${decl.type}, socket '${name}' takes ${socket.type}`,
        );
      } else if (
        decl.default === null && !socket.optional && (decl.type === "bytes" || decl.type === "scene")
      ) {
        issue(
          "type_mismatch",
          path,
          `graph input '${value.$input}' may be absent (default null); '${name}' needs a value`,
        );
      }
      continue;
    }
    const type = checkLink(value, path, shapes, decls, issue);
    if (type && type !== socket.type) {
      issue("type_mismatch", path, `'${value}' gives ${type}, socket '${name}' takes ${socket.type}`);
    }
  }
  return given;
}

/** Checks one link; returns the upstream socket type when it can be known. */
function checkLink(
  value: unknown,
  path: string,
  shapes: Map<string, NodeShape>,
  decls: Record<string, unknown>,
  issue: Report,
): SocketType | undefined {
  const link = typeof value === "string" ? parseLink(value) : undefined;
  if (!link) {
    issue(
      "invalid_graph",
      path,
      `expected a link "node.socket" or {"$input": name}, found ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  if (!(link.node in decls)) {
    issue("unknown_node", path, `no node '${link.node}'${suggestName(link.node, Object.keys(decls))}`);
    return undefined;
  }
  const upstream = shapes.get(link.node);
  if (!upstream) return undefined; // its own problem is already reported
  const type = upstream.outputs[link.socket];
  if (!type) {
    issue(
      "unknown_socket",
      path,
      `node '${link.node}' has no output '${link.socket}'${
        suggestName(link.socket, Object.keys(upstream.outputs))
      }`,
    );
  }
  return type;
}

/** Every elementary cycle found by depth-first search, each reported once. */
function findCycles(decls: Record<string, unknown>, shapes: Map<string, NodeShape>): string[][] {
  const edges = new Map<string, string[]>();
  for (const id of shapes.keys()) {
    const raw = (decls[id] as Record<string, unknown>).inputs;
    const ups: string[] = [];
    if (isObject(raw)) {
      for (const value of Object.values(raw)) {
        const link: Link | undefined = typeof value === "string" ? parseLink(value) : undefined;
        if (link && shapes.has(link.node)) ups.push(link.node);
      }
    }
    edges.set(id, ups);
  }
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    state.set(id, "open");
    path.push(id);
    for (const up of edges.get(id) ?? []) {
      if (state.get(up) === "open") {
        const cycle = path.slice(path.indexOf(up)).reverse();
        const key = [...cycle].sort().join("\0");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (!state.has(up)) visit(up);
    }
    path.pop();
    state.set(id, "done");
  };
  for (const id of edges.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

function suggest(type: string, registry: Registry): string {
  return suggestName(type, registry.list().map((d) => d.type));
}

/** " (did you mean 'x'?)" for a close name, else "". */
function suggestName(name: string, candidates: string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ? ` (did you mean '${best}'?)` : "";
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** Escapes a key for a JSON Pointer. */
function esc(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
