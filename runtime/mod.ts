/**
 * partgraph's library API, for `deno run` scripts: load, validate and run graphs (from files or
 * built in code), define and register custom nodes, and read results in memory.
 *
 * @example
 * ```ts
 * import { defineNode, createRegistry, runGraph } from "./runtime/mod.ts";
 *
 * const registry = createRegistry().register({ nodes: [myNode] });
 * const run = await runGraph("graphs/aircraft.json", { registry, outDir: "out" });
 * console.log(run.outputs.report);
 * ```
 *
 * @module
 */
export { defineNode, SOCKET_TYPES } from "./node.ts";
export type {
  AnyNodeDef,
  BooleanParam,
  BytesValue,
  DecoderPlugin,
  EnumParam,
  InputValue,
  InputValues,
  JsonParam,
  JsonValue,
  NodeDef,
  NumberParam,
  OutputValues,
  ParamBase,
  ParamSpec,
  ParamSpecs,
  ParamValue,
  ParamValues,
  PathParam,
  Plugin,
  PluginTables,
  ResolveArgs,
  ResolverPlugin,
  RunArgs,
  RunContext,
  SocketSpec,
  SocketSpecs,
  SocketType,
  SocketValueMap,
  StringParam,
} from "./node.ts";
export { createRegistry, Registry } from "./registry.ts";
export { checkGraph, DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, loadGraph, runGraph } from "./api.ts";
export type { GraphOptions, GraphRun, RunGraphOptions } from "./api.ts";
export type { GraphFile, GraphInputDecl, GraphNodeDecl, GraphSource, InputRef } from "./graph.ts";
export { compileGraph } from "./plan.ts";
export type { Plan, PlanNode, PlanSource } from "./plan.ts";
export { executePlan } from "./executor.ts";
export type { ExecuteOptions, MemoryEntry, NodeReport, RunResult } from "./executor.ts";
export type { EventSink, NodeEvent, RunEvent, WarningEvent } from "./events.ts";
export { DiskCache } from "./cache/disk.ts";
export type { ActionRecord, CacheStats, FileDigest, StoredOutput } from "./cache/disk.ts";
export { RemoteCache } from "./cache/remote.ts";
export type { RemoteCacheOptions } from "./cache/remote.ts";
export { buildManifest, compareManifests } from "./manifest.ts";
export type { Manifest, ManifestDifference } from "./manifest.ts";
export { graphSchema } from "./schema.ts";
export { watchGraph } from "./watch.ts";
export type { WatchOptions, WatchRound } from "./watch.ts";
export { graphToDot } from "./dot.ts";
export { validateScope } from "./validate.ts";
export type { Scope, Signature } from "./validate.ts";
export type { JsonSchema } from "./schema.ts";
export { DecodeError, GraphError, NodeFailure, PartgraphError, RunError } from "./errors.ts";
export type { DecodeErrorInit, DecodeLocation, GraphIssue, GraphIssueKind } from "./errors.ts";
export { GENERATOR, TOOL_VERSIONS, VERSION } from "./version.ts";
export { copyScene } from "../nodes/scene/copy.ts";
export { getSourceInfo, setSourceInfo } from "../nodes/scene/source.ts";
export type { Axis, SourceInfo } from "../nodes/scene/source.ts";
