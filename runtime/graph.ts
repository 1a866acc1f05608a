/**
 * Graph file format v1: the types, and reading a graph file from disk.
 *
 * A graph is a JSON object:
 * ```json
 * {
 *   "version": 1,
 *   "inputs": { "model": { "type": "string", "description": "Model to read." } },
 *   "nodes": {
 *     "read": { "type": "io.read", "params": { "path": { "$input": "model" } } },
 *     "decode": { "type": "decode.auto", "inputs": { "bytes": "read.bytes" } }
 *   },
 *   "outputs": { "scene": "decode.scene" }
 * }
 * ```
 * Links are `"<node>.<socket>"`; `{"$input": "name"}` refers to a graph input wherever a value or a
 * link may stand, and can never be mistaken for a real value (`{"$literal": …}` escapes a JSON
 * parameter that really is such an object). A node of type `graph` runs another graph file (`graph`
 * field, relative to this file) as one node; `modules` lists local modules of custom nodes.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { JsonValue, SocketType } from "./node.ts";
import type { GraphIssue } from "./errors.ts";
import { maxJsonDepth } from "./depth.ts";

/** The graph format version this runtime reads. */
export const GRAPH_VERSION = 1;

/** The node type that runs another graph file as one node (a node group). */
export const GROUP_NODE_TYPE = "graph";

/** A reference to a graph input. */
export interface InputRef {
  /** Name of a key in the graph's `inputs`. */
  readonly $input: string;
}

/** A declared graph input (a parameter of the whole graph, or a socket of a node group). */
export interface GraphInputDecl {
  /** Value type; everything the input feeds must accept this type. */
  readonly type: SocketType;
  /** Value used when the caller gives none (`null` for bytes and scene: absent); without it, required. */
  readonly default?: JsonValue;
  /** What the input is for, shown in error messages and generated docs. */
  readonly description?: string;
}

/** One node of a graph file. */
export interface GraphNodeDecl {
  /** Registered node type id (e.g. `io.read`), or `"graph"` for a node group. */
  readonly type: string;
  /** For `type: "graph"`: the graph file to run, relative to this graph file. */
  readonly graph?: string;
  /** Parameter values by name: literals, `{"$input": name}`, or `{"$literal": …}` for look-alike JSON. */
  readonly params?: Readonly<Record<string, JsonValue>>;
  /** Input sockets by name: a link `"<node>.<socket>"` or a graph input reference. */
  readonly inputs?: Readonly<Record<string, string | InputRef>>;
  /** Free-form note for people; ignored by the runtime. */
  readonly comment?: string;
}

/** A graph file (format v1). */
export interface GraphFile {
  /** Path or URL of the graph JSON Schema, for editors; ignored by the runtime. */
  readonly $schema?: string;
  /** Graph format version; only 1 exists. */
  readonly version: 1;
  /** Short name, used in reports and generated docs. */
  readonly name?: string;
  /** One line on what the graph does. */
  readonly description?: string;
  /** Parameters of the whole graph by name (the sockets, when the graph is used as a node group). */
  readonly inputs?: Readonly<Record<string, GraphInputDecl>>;
  /** Custom node modules, relative to this file; each default-exports a `Plugin`. */
  readonly modules?: readonly string[];
  /** Nodes by id (letters, digits, `_` and `-`, starting with a letter or `_`); links name them by id. */
  readonly nodes: Readonly<Record<string, GraphNodeDecl>>;
  /** Named results: links `"<node>.<socket>"` whose values the run returns. */
  readonly outputs?: Readonly<Record<string, string>>;
  /** Editor layout (the studio's node positions); ignored by the runtime, never part of a cache key. */
  readonly ui?: Readonly<Record<string, JsonValue>>;
}

/** A graph plus where it came from (for relative paths and error messages). */
export interface GraphSource {
  /** The parsed JSON (not yet validated). */
  readonly json: unknown;
  /** The file it was read from, or a label such as `<memory>`. */
  readonly file: string;
  /** Directory that relative `graph` and `modules` paths resolve against. */
  readonly dir: string;
  /** The file's exact text, when read from disk (its digest identifies the graph). */
  readonly text?: string;
  /**
   * Texts that stand in for graph files, by absolute path: a node group whose file is here is read
   * from its text instead of the disk (an editor's unsaved edits of an open group, which a check or
   * run must see without writing them). Parsed and validated as a file would be; the groups it
   * includes inherit it.
   */
  readonly overrides?: ReadonlyMap<string, string>;
}

/**
 * The fields of a graph file, a node and a graph input, with their meaning. Validation rejects
 * other fields and the JSON Schema documents these: one source of truth for both.
 */
export const GRAPH_FIELDS = {
  $schema: "JSON Schema of this file, for editors (e.g. ../schema/graph.schema.json).",
  version: "Graph format version; must be 1.",
  name: "Short name of the graph.",
  description: "What the graph does.",
  inputs: "Graph inputs by name: parameters of the whole graph (sockets when used as a node group).",
  modules: "Local modules of custom nodes, relative to this file; each default-exports a plug-in.",
  nodes: "Nodes by id.",
  outputs: 'Named results: links "node.socket".',
  ui:
    "Editor layout written by `partgraph studio` (node positions); ignored by the runtime, never in a cache key.",
} as const;

/** Fields of one node; see {@link GRAPH_FIELDS}. */
export const NODE_FIELDS = {
  type: 'Node type id (see `partgraph nodes`), or "graph" for a node group.',
  graph: 'For type "graph": the graph file to run as this node, relative to this file.',
  params: 'Parameter values (literals, or {"$input": name}).',
  inputs: 'Input sockets: links "node.socket", or {"$input": name}.',
  comment: "A note for people; ignored.",
} as const;

/** Fields of one graph input; see {@link GRAPH_FIELDS}. */
export const INPUT_FIELDS = {
  type: "Value type: bytes, scene, json, string, number or boolean.",
  default: "Value used when none is given (literal types only).",
  description: "What the input is for (shown in errors and docs).",
} as const;

/** A link split into node id and socket name. */
export interface Link {
  readonly node: string;
  readonly socket: string;
}

/** Node ids: letters, digits, `_` and `-`, starting with a letter or `_` (dots separate sockets). */
export const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Splits `"node.socket"`; undefined when the text is not a link. */
export function parseLink(text: string): Link | undefined {
  const dot = text.indexOf(".");
  if (dot <= 0 || dot === text.length - 1) return undefined;
  const node = text.slice(0, dot);
  const socket = text.slice(dot + 1);
  return NODE_ID.test(node) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(socket) ? { node, socket } : undefined;
}

/** True for `{"$input": "name"}`. */
export function isInputRef(value: unknown): value is InputRef {
  return !!value && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length === 1 && typeof (value as InputRef).$input === "string";
}

/** True for `{"$literal": value}`, the escape for JSON parameters that look like references. */
export function isLiteral(value: unknown): value is { $literal: JsonValue } {
  return !!value && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length === 1 && "$literal" in value;
}

/** Deepest nesting a graph file may have (parameter values included); real graphs use under 10. */
export const MAX_GRAPH_DEPTH = 64;

/**
 * Reads and parses a graph file, or its stand-in text from `overrides` (see
 * {@link GraphSource.overrides}). Problems come back as issues (never thrown), so a node group's
 * unreadable file is reported with everything else.
 */
export async function readGraphFile(
  path: string,
  overrides?: ReadonlyMap<string, string>,
): Promise<{ source?: GraphSource; issue?: GraphIssue }> {
  const file = resolve(path);
  let text: string;
  try {
    text = (overrides?.size ? await overriddenText(file, overrides) : undefined) ??
      await Deno.readTextFile(file);
  } catch (error) {
    return {
      issue: {
        kind: "unreadable_subgraph",
        path: "",
        file,
        message: `cannot read graph file: ${error instanceof Error ? error.message : error}`,
      },
    };
  }
  text = text.replace(/^\uFEFF/, ""); // editors on Windows save a byte-order mark
  const depth = maxJsonDepth(text, MAX_GRAPH_DEPTH);
  if (depth.exceeded) {
    return {
      issue: {
        kind: "invalid_graph",
        path: "",
        file,
        message: `nested deeper than ${MAX_GRAPH_DEPTH} levels (at character ${depth.at})`,
      },
    };
  }
  try {
    const json = JSON.parse(text);
    return { source: { json, file, dir: dirname(file), text, ...(overrides?.size ? { overrides } : {}) } };
  } catch (error) {
    return {
      issue: {
        kind: "invalid_graph",
        path: "",
        file,
        message: `not valid JSON: ${error instanceof Error ? error.message : error}`,
      },
    };
  }
}

/** The stand-in text for `file`, keyed by its path or (through a symlink) its real path. */
async function overriddenText(file: string, overrides: ReadonlyMap<string, string>) {
  return overrides.get(file) ?? overrides.get(await Deno.realPath(file).catch(() => file));
}

/** Wraps an in-memory graph (built in code) as a source; relative paths resolve against `dir`. */
export function graphFromObject(graph: GraphFile, dir = Deno.cwd(), label = "<memory>"): GraphSource {
  return { json: graph, file: label, dir: resolve(dir) };
}
