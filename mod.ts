/**
 * partgraph's public module, for `deno run` scripts: the core API (`runtime/mod.ts`) wired to the
 * built-in nodes. Load, validate and run graphs (from files or built in code), define and register
 * custom nodes, and read results in memory. Leave `registry` out and the built-ins are used.
 *
 * @example
 * ```ts
 * import { createRegistry, defineNode, runGraph } from "./mod.ts";
 *
 * const countMeshes = defineNode({
 *   type: "stats.mesh_count",
 *   version: 1,
 *   doc: "Counts the meshes of a scene.",
 *   inputs: { scene: { type: "scene", doc: "Any scene." } },
 *   outputs: { count: { type: "number", doc: "How many meshes it has." } },
 *   params: {},
 *   run: ({ inputs }) => ({ count: inputs.scene.getRoot().listMeshes().length }),
 * });
 * const registry = createRegistry().register({ nodes: [countMeshes] });
 * const run = await runGraph({
 *   version: 1,
 *   nodes: {
 *     fighter: { type: "demo.fighter" },
 *     count: { type: "stats.mesh_count", inputs: { scene: "fighter.scene" } },
 *   },
 *   outputs: { meshes: "count.count" },
 * }, { registry, cacheDir: false });
 * console.log(run.outputs.meshes);
 * ```
 *
 * @module
 */
import * as core from "./runtime/mod.ts";
import type {
  GraphFile,
  GraphIssue,
  GraphOptions,
  GraphRun,
  GraphSource,
  Plugin,
  RunGraphOptions,
} from "./runtime/mod.ts";
import { BUILTIN_PLUGINS } from "./nodes/mod.ts";

export * from "./runtime/mod.ts";
export { BUILTIN_PLUGINS };

/** Options of the core API with `registry` optional: left out, it is every built-in node. */
export type WithBuiltins<T extends { readonly registry: core.Registry }> =
  & Omit<T, "registry">
  & { readonly registry?: core.Registry };

/**
 * A registry holding the given plug-ins — by default every built-in node and plug-in. Add custom
 * nodes with `.register(plugin)`.
 *
 * @example
 * ```ts
 * import { createRegistry } from "./mod.ts";
 *
 * console.log(createRegistry().get("io.read")?.doc);
 * ```
 */
export function createRegistry(plugins: readonly Plugin[] = BUILTIN_PLUGINS): core.Registry {
  return core.createRegistry(plugins);
}

/**
 * Validates a graph with the given inputs; returns every problem (empty when it would run).
 *
 * @example
 * ```ts
 * import { checkGraph } from "./mod.ts";
 *
 * const issues = await checkGraph("graphs/freelancer.json", { inputs: { model: "ship.cmp" } });
 * for (const issue of issues) console.log(issue.path, issue.kind, issue.message);
 * ```
 */
export function checkGraph(
  graph: string | GraphFile | GraphSource,
  options: WithBuiltins<GraphOptions> = {},
): Promise<GraphIssue[]> {
  return core.checkGraph(graph, { ...options, registry: options.registry ?? createRegistry() });
}

/**
 * Validates and runs a graph; resolves with its outputs in memory. Throws `GraphError` for an
 * invalid graph and `RunError` (every failed node) when nodes failed.
 *
 * @example
 * ```ts
 * import { runGraph } from "./mod.ts";
 *
 * const run = await runGraph("graphs/aircraft.json", { cacheDir: false, outDir: "out" });
 * console.log(Object.keys(run.outputs));
 * ```
 */
export function runGraph(
  graph: string | GraphFile | GraphSource,
  options: WithBuiltins<RunGraphOptions> = {},
): Promise<GraphRun> {
  return core.runGraph(graph, { ...options, registry: options.registry ?? createRegistry() });
}

/**
 * Runs a graph file now and after every change to it or to a file it read, until `signal` aborts.
 *
 * @example
 * ```ts
 * import { watchGraph } from "./mod.ts";
 *
 * const stop = new AbortController();
 * await watchGraph("graphs/aircraft.json", {
 *   cacheDir: false,
 *   signal: stop.signal,
 *   onRound: () => stop.abort(),
 * });
 * ```
 */
export function watchGraph(graphPath: string, options: WithBuiltins<core.WatchOptions>): Promise<void> {
  return core.watchGraph(graphPath, { ...options, registry: options.registry ?? createRegistry() });
}
