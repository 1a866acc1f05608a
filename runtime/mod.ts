/**
 * partgraph's core: graph format, validation, planning, execution, cache, events, the value types
 * (including `scene`) and the node and plug-in contracts. It knows no node of its own — a registry
 * is made from plug-ins — so it loads without any decoder. Most scripts want the public module
 * (`mod.ts` at the repository root), which adds the built-in nodes.
 *
 * @example
 * ```ts
 * import { createRegistry, defineNode, runGraph } from "./mod.ts";
 *
 * const answer = defineNode({
 *   type: "math.answer",
 *   version: 1,
 *   doc: "Gives 42.",
 *   inputs: {},
 *   outputs: { value: { type: "number", doc: "The answer." } },
 *   params: {},
 *   run: () => ({ value: 42 }),
 * });
 * const registry = createRegistry([{ nodes: [answer] }]);
 * const run = await runGraph(
 *   { version: 1, nodes: { a: { type: "math.answer" } }, outputs: { value: "a.value" } },
 *   { registry, cacheDir: false },
 * );
 * console.log(run.outputs.value); // 42
 * ```
 *
 * @module
 */
export { defineNode, SOCKET_TYPES } from "./node.ts";
export { importOnUse, lazyRun } from "./lazy_run.ts";
export type { NodeRun } from "./lazy_run.ts";
export type {
  AnyNodeDef,
  BooleanParam,
  BytesValue,
  CodecIO,
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
  PluginParams,
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
  WarningSink,
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
export { type DerivedStore, recallDerived, rememberDerived } from "./derived.ts";
export type { ActionRecord, CacheStats, FileDigest, StoredOutput } from "./cache/disk.ts";
export type { PruneResult } from "./cache/prune.ts";
export type { FileStat } from "./cache/file_digests.ts";
export type { EncodedOutput, PackedAction } from "./cache/record.ts";
export type { RecordExpectation } from "./cache/record_schema.ts";
export { RemoteCache } from "./cache/remote.ts";
export type { RemoteCacheOptions } from "./cache/remote.ts";
export { buildManifest, compareManifests, manifestProblem } from "./manifest.ts";
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
export { copyScene, sceneToChange } from "./scene/copy.ts";
export type { CopyOptions } from "./scene/copy.ts";
export { getSourceInfo, setSourceInfo } from "./scene/source.ts";
export type { Axis, SourceInfo } from "./scene/source.ts";
export { pickDecoder } from "./decoders.ts";
