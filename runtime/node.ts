/**
 * The node definition API: a node is declared once — type id, version, doc, sockets, parameters and
 * a pure run function — and registered. Built-in nodes and users' custom modules use the same API.
 *
 * @example
 * ```ts
 * import { defineNode } from "./node.ts";
 * export const double = defineNode({
 *   type: "math.double",
 *   version: 1,
 *   doc: "Doubles a number.",
 *   inputs: { value: { type: "number", doc: "The number to double." } },
 *   outputs: { value: { type: "number", doc: "Twice the input." } },
 *   params: {},
 *   run: ({ inputs }) => ({ value: inputs.value * 2 }),
 * });
 * ```
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { ResolverPlugin } from "./resolver_plugin.ts";

export { defineResolver, type ResolveArgs, type ResolverPlugin } from "./resolver_plugin.ts";

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The kinds of value that flow between nodes. */
export type SocketType = "bytes" | "scene" | "json" | "string" | "number" | "boolean";

/** The socket types, in a stable order (for schemas and docs). */
export const SOCKET_TYPES: readonly SocketType[] = ["bytes", "scene", "json", "string", "number", "boolean"];

/** A `bytes` value: file contents plus the file name they came from (used for format sniffing). */
export interface BytesValue {
  /** The contents. Never mutate: values are shared between nodes and the cache. */
  readonly bytes: Uint8Array;
  /** File name hint (base name with extension), e.g. `"ship.cmp"`. */
  readonly name: string;
}

/** Maps a socket type to the TypeScript type of its values. */
export interface SocketValueMap {
  /** File contents with their name. */
  bytes: BytesValue;
  /** A glTF scene held as a gltf-transform `Document`; copy it before changing it. */
  scene: Document;
  /** Any JSON value (reports, layouts, constraint tables). */
  json: JsonValue;
  /** A plain string (paths, names). */
  string: string;
  /** A number; the socket's `doc` gives its unit. */
  number: number;
  /** A boolean flag. */
  boolean: boolean;
}

/** Declares one input or output socket. */
export interface SocketSpec {
  /** Value type; links are only valid between sockets of the same type. */
  readonly type: SocketType;
  /** One line on what flows through the socket. */
  readonly doc: string;
  /** An input that may be left unconnected (its value is then `undefined`). Inputs only. */
  readonly optional?: boolean;
}

/** Fields every parameter declaration has. */
export interface ParamBase {
  /** One line on what the parameter does; shown by `partgraph nodes` and in the graph JSON Schema. */
  readonly doc: string;
}
/** A number parameter with optional range. */
export interface NumberParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "number";
  /** Value used when the graph omits the parameter; without it the parameter is required. */
  readonly default?: number;
  /** Smallest valid value, inclusive; unbounded below when undefined. */
  readonly min?: number;
  /** Largest valid value, inclusive; unbounded above when undefined. */
  readonly max?: number;
  /** Only whole numbers are valid. */
  readonly integer?: boolean;
}
/** A free string parameter. */
export interface StringParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "string";
  /** Value used when the graph omits the parameter; without it the parameter is required. */
  readonly default?: string;
}
/** A boolean parameter. */
export interface BooleanParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "boolean";
  /** Value used when the graph omits the parameter; without it the parameter is required. */
  readonly default?: boolean;
}
/** One of a fixed set of strings. */
export interface EnumParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "enum";
  /** The accepted strings, in the order editors offer them. */
  readonly values: readonly string[];
  /** Value (one of `values`) used when the graph omits the parameter; without it, it is required. */
  readonly default?: string;
}
/**
 * A file path. Read paths resolve against the working directory (and reach nodes and keys relative
 * to it: `relativeToWorkingFolder`); write paths resolve inside the output directory and stay there.
 */
export interface PathParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "path";
  /** `read`: resolved against the working directory; `write`: must stay inside the output directory. */
  readonly access: "read" | "write";
  /** Path used when the graph omits the parameter (`""`: optional, none); without it, required. */
  readonly default?: string;
}
/** Structured JSON. `schema` is published in the graph JSON Schema; `check` validates. */
export interface JsonParam extends ParamBase {
  /** Discriminates the parameter kind. */
  readonly type: "json";
  /** Value used when the graph omits the parameter; without it the parameter is required. */
  readonly default?: JsonValue;
  /** JSON Schema fragment describing the value, for editors. */
  readonly schema?: Record<string, JsonValue>;
  /** Returns a problem description, or undefined when the value is acceptable. */
  readonly check?: (value: JsonValue) => string | undefined;
  /**
   * For an object of parameters meant for plug-ins (e.g. `decode.auto`'s `options`, passed to the
   * chosen decoder): the parameter specs of each plug-in that may receive it. Validation checks
   * every member a plug-in declares against that plug-in's spec, by the same code as node
   * parameters, and reports a bad one at its own JSON path.
   */
  readonly members?: (plugins: PluginTables) => readonly PluginParams[];
}

/** The parameters one plug-in declares, for {@link JsonParam.members} and `NodeDef.pluginParams`. */
export interface PluginParams {
  /** Who declares them, for messages (e.g. a decoder's node type). */
  readonly owner: string;
  /** Their specs by name. */
  readonly params: ParamSpecs;
}
/** Declares one parameter. A parameter without `default` is required. */
export type ParamSpec = NumberParam | StringParam | BooleanParam | EnumParam | PathParam | JsonParam;

/** The TypeScript type of a parameter's value. */
export type ParamValue<P extends ParamSpec> = P extends NumberParam ? number
  : P extends BooleanParam ? boolean
  : P extends JsonParam ? JsonValue
  : P extends EnumParam ? P["values"][number]
  : string;

/** The TypeScript type of one input's value: `undefined` is possible only for optional inputs. */
export type InputValue<S extends SocketSpec> = S extends { optional: true }
  ? SocketValueMap[S["type"]] | undefined
  : SocketValueMap[S["type"]];

/** Socket declarations by name. */
export type SocketSpecs = Readonly<Record<string, SocketSpec>>;
/** Parameter declarations by name. */
export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

/** Input values a run function receives. */
export type InputValues<I extends SocketSpecs> = { [K in keyof I]: InputValue<I[K]> };
/** Output values a run function returns. */
export type OutputValues<O extends SocketSpecs> = { [K in keyof O]: SocketValueMap[O[K]["type"]] };
/** Parameter values (defaults applied) a run function receives. */
export type ParamValues<P extends ParamSpecs> = { [K in keyof P]: ParamValue<P[K]> };

/** What a run function may use besides its inputs. Reading files goes through here so caching sees it. */
export interface RunContext {
  /** The node's id in the (flattened) graph, e.g. `rig/fit`. */
  readonly nodeId: string;
  /** Reports a non-fatal problem; warnings are shown, kept in the cache and in run results. */
  warn(message: string, detail?: Record<string, JsonValue>): void;
  /**
   * Reads a file and records its digest as a dependency of this node's result: a cached result is
   * only reused while every file it read is unchanged. Reads are shared within one run.
   */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * The SHA-256 (hex) of a file's contents, recorded as {@link readFile} records it. With a disk
   * cache it may come from the cache's memo of file digests, without reading the file: for a
   * source's `fingerprint`, which needs the digest and not the bytes.
   */
  fileDigest(path: string): Promise<string>;
  /**
   * Lists a directory's entry names (sorted; empty when it does not exist) and records the listing
   * as a dependency: a cached result that looked for files is re-run when one appears or goes.
   */
  listDir(path: string): Promise<string[]>;
  /**
   * Writes a file atomically (temp file + rename) and records its digest: a cached result is only
   * reused while the file still holds those bytes. Pass a value's bytes, never a buffer changed
   * afterwards: each array is hashed once per process.
   */
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Says this run's values cost less to compute again than to load: the disk and remote tiers keep
   * its record (what depends on it stays cached) but not the values, which a run that needs them
   * computes again. A node it invokes may say it for it.
   */
  cheapToRecompute(): void;
  /**
   * Runs another registered node's function directly (used by `decode.auto`), with its parameters
   * checked and defaults applied as for a graph node. Only node types the caller lists in
   * {@link NodeDef.invokes} may be invoked, so their versions are part of the caller's cache key.
   */
  invoke(
    type: string,
    inputs: Record<string, unknown>,
    params?: Record<string, JsonValue>,
  ): Promise<Record<string, unknown>>;
  /** Plug-in tables of the registry in use (decoders, resolvers). */
  readonly plugins: PluginTables;
  /**
   * True when this run holds the only reference to the scene on input `input`: no other node, graph
   * output, caller or cache tier sees that value again, so the node may change its properties and
   * hierarchy in place instead of working on a copy (`sceneToChange` in `runtime/scene/copy.ts`).
   * It must still never write into the scene's typed arrays (accessor arrays, images): they may be
   * shared with other values through copies made with `shareData`. False for inputs of other types,
   * for a node run through {@link RunContext.invoke}, and whenever the run cannot prove it (two
   * consumers, a graph output, a memory tier the caller keeps, a value the memory tier served).
   * Ask only when about to change the scene: a true answer readies it for that (and forgets the GLB
   * the writer may remember of it), so a node that only reads it should not ask.
   */
  owns(input: string): boolean;
}

/** Where a codec reports a non-fatal problem: the shape of {@link RunContext.warn}. */
export type WarningSink = (message: string, detail?: Record<string, JsonValue>) => void;

/**
 * The narrow slice of a run context a codec that follows references needs (DSON's content roots):
 * tracked file reads and directory listings, and warnings — not the rest of the run.
 */
export interface CodecIO {
  /** Reads a file, recorded as a dependency of the node's result. */
  readFile(path: string): Promise<Uint8Array>;
  /** Lists a directory (sorted names; empty when absent), recorded as a dependency. */
  listDir(path: string): Promise<string[]>;
  /** Reports a non-fatal problem. */
  warn: WarningSink;
}

/** What a run function receives. */
export interface RunArgs<I extends SocketSpecs, P extends ParamSpecs> {
  /**
   * Values arriving on the input sockets; shared with other nodes and the cache, so never mutate
   * them, unless {@link RunContext.owns} says the node holds the only reference to one.
   */
  readonly inputs: InputValues<I>;
  /** Parameter values, already validated against their specs and with defaults applied. */
  readonly params: ParamValues<P>;
  /** File access, warnings and plug-in tables for this node's run. */
  readonly ctx: RunContext;
}

/** A node declaration; see {@link defineNode}. */
export interface NodeDef<
  I extends SocketSpecs = SocketSpecs,
  O extends SocketSpecs = SocketSpecs,
  P extends ParamSpecs = ParamSpecs,
> {
  /** Type id, `category.name` (e.g. `rig.fit_hinge`). */
  readonly type: string;
  /** Implementation version; bump it whenever output bytes may change, so caches miss. */
  readonly version: number;
  /** One-paragraph description shown by `partgraph nodes`. */
  readonly doc: string;
  /** Input sockets by name; graphs link them as `"<node>.<socket>"`. */
  readonly inputs: I;
  /** Output sockets by name; `run` must return a value for every one. */
  readonly outputs: O;
  /** Parameters by name, set in the graph file's `params` (or from graph inputs). */
  readonly params: P;
  /**
   * The node's work. Must not modify its inputs (values are immutable by contract: copy a scene
   * before changing it, unless {@link RunContext.owns} says the node holds the only reference to
   * it) and must read files only through `ctx`. A returned value belongs to the run: do not keep it
   * to return again later (a module-level memo), since its consumer may come to own it.
   */
  run(args: RunArgs<I, P>): OutputValues<O> | Promise<OutputValues<O>>;
  /**
   * Key material that replaces the parameters in the cache key, computed before the cache lookup.
   * Sources use it to be keyed by the content they read rather than by its path.
   */
  fingerprint?(params: ParamValues<P>, ctx: RunContext): Promise<JsonValue>;
  /**
   * The node types `run` may call through `ctx.invoke` (e.g. `decode.auto`: every decoder's node).
   * Their versions, and those of what they invoke in turn, are part of this node's cache key.
   */
  invokes?(plugins: PluginTables): readonly string[];
  /**
   * The plug-ins `run` dispatches to (`constraints.resolve`: every resolver). Their versions, and a
   * custom module's source digest, are part of this node's cache key.
   */
  uses?(plugins: PluginTables): readonly ResolverPlugin[];
  /**
   * Parameters the node takes at top level on behalf of its plug-ins (`constraints.resolve`: each
   * resolver's). The registry adds them to `params`, so graphs, checks, defaults, keys and the
   * catalogue treat them as the node's own.
   */
  pluginParams?(plugins: PluginTables): readonly PluginParams[];
  /** `false` for nodes that are not a pure function of their inputs: never cached. Default true. */
  readonly cache?: boolean;
  /** A sink runs whenever it is in the graph, even if nothing consumes its outputs (e.g. `io.write`). */
  readonly sink?: boolean;
}

/** Any node definition, erased for storage in a registry. */
export type AnyNodeDef =
  // deno-lint-ignore no-explicit-any
  & Omit<NodeDef<any, any, any>, "inputs" | "outputs" | "params">
  & { readonly inputs: SocketSpecs; readonly outputs: SocketSpecs; readonly params: ParamSpecs };

/**
 * Declares a node, inferring the run function's argument types from the socket and parameter specs.
 *
 * @example
 * ```ts
 * const upper = defineNode({
 *   type: "text.upper", version: 1, doc: "Upper-cases a string.",
 *   inputs: { text: { type: "string", doc: "Input." } },
 *   outputs: { text: { type: "string", doc: "Upper-cased." } },
 *   params: {},
 *   run: ({ inputs }) => ({ text: inputs.text.toUpperCase() }),
 * });
 * ```
 */
export function defineNode<
  const I extends SocketSpecs,
  const O extends SocketSpecs,
  const P extends ParamSpecs,
>(def: NodeDef<I, O, P>): NodeDef<I, O, P> {
  return def;
}

/**
 * A format decoder plug-in for `decode.auto`, like a three.js loader plug-in: it names the node that
 * decodes the format and how to recognise the bytes.
 */
export interface DecoderPlugin {
  /** Format name, e.g. `"cmp"`. */
  readonly format: string;
  /** Node type that decodes it; it must take a `bytes` input and give a `scene` output. */
  readonly node: string;
  /** Lower-case file extensions without dot, used when no magic bytes decide. */
  readonly extensions: readonly string[];
  /** True when the bytes are certainly this format (magic numbers). Checked before extensions. */
  sniff?(bytes: Uint8Array): boolean;
  /**
   * A format-specific summary of a decoded (and resolved) scene for `partgraph inspect`, e.g. a
   * compound's parts, joints and hardpoints.
   */
  describe?(scene: Document): JsonValue;
}

/** Read-only view of the registry: plug-in tables and node declarations. */
export interface PluginTables {
  /** Every registered decoder, in registration order (`decode.auto` tries them in this order). */
  readonly decoders: readonly DecoderPlugin[];
  /** Every registered resolver, in registration order (the first whose `formats` match wins). */
  readonly resolvers: readonly ResolverPlugin[];
  /** The declaration of a node type, or undefined. */
  get(type: string): AnyNodeDef | undefined;
}

/**
 * What a module of nodes exports (as its default export for custom modules): nodes and plug-ins.
 *
 * @example
 * ```ts
 * import { defineNode, type Plugin } from "./node.ts";
 *
 * const double = defineNode({
 *   type: "math.double", version: 1, doc: "Doubles a number.", params: {},
 *   inputs: { value: { type: "number", doc: "In." } },
 *   outputs: { value: { type: "number", doc: "Twice the input." } },
 *   run: ({ inputs }) => ({ value: inputs.value * 2 }),
 * });
 * const plugin = { nodes: [double] } satisfies Plugin; // a module ends with: export default plugin;
 * console.log(plugin.nodes.length); // 1
 * ```
 */
export interface Plugin {
  /** Node types to register; a type id cannot be claimed by two different declarations. */
  readonly nodes?: readonly AnyNodeDef[];
  /** Formats `decode.auto` can recognise, each naming the node that decodes it. */
  readonly decoders?: readonly DecoderPlugin[];
  /** Constraint resolvers `constraints.resolve` dispatches to by source format. */
  readonly resolvers?: readonly ResolverPlugin[];
}
