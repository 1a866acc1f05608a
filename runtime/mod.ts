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
  BytesValue,
  DecoderPlugin,
  JsonValue,
  NodeDef,
  ParamSpec,
  Plugin,
  ResolveArgs,
  ResolverPlugin,
  RunContext,
  SocketSpec,
  SocketType,
} from "./node.ts";
export { createRegistry, Registry } from "./registry.ts";
export { checkGraph, DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, loadGraph, runGraph } from "./api.ts";
export type { GraphOptions, GraphRun, RunGraphOptions } from "./api.ts";
export type { GraphFile, GraphInputDecl, GraphNodeDecl, GraphSource } from "./graph.ts";
export { compileGraph } from "./plan.ts";
export type { Plan, PlanNode } from "./plan.ts";
export { executePlan } from "./executor.ts";
export type { MemoryEntry, NodeReport, RunResult } from "./executor.ts";
export type { RunEvent } from "./events.ts";
export { DiskCache } from "./cache/disk.ts";
export { buildManifest, compareManifests } from "./manifest.ts";
export type { Manifest } from "./manifest.ts";
export { graphSchema } from "./schema.ts";
export { DecodeError, GraphError, NodeFailure, PartgraphError, RunError } from "./errors.ts";
export type { GraphIssue, GraphIssueKind } from "./errors.ts";
export { GENERATOR, TOOL_VERSIONS, VERSION } from "./version.ts";
export { copyScene } from "../nodes/scene/copy.ts";
export { getSourceInfo, setSourceInfo } from "../nodes/scene/source.ts";
