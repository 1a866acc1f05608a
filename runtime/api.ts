/**
 * The high-level library API: load, check and run graphs from `deno run` scripts.
 *
 * @module
 */
import { importOnUse, preloadRun } from "./lazy_run.ts";
import { resolve } from "node:path";
import { GraphError, type GraphIssue } from "./errors.ts";
import { type GraphFile, graphFromObject, type GraphSource, readGraphFile } from "./graph.ts";
import { compileGraph, type Plan } from "./plan.ts";
import type { Registry } from "./registry.ts";
import type { AnyNodeDef } from "./node.ts";
import type { MemoryEntry, RunResult } from "./executor.ts";
import type { RemoteCache } from "./cache/remote.ts";
import type { EventSink } from "./events.ts";

/** Default disk cache folder, relative to the working directory. */
export const DEFAULT_CACHE_DIR = ".partgraph-cache";

/** Default output folder, relative to the working directory. */
export const DEFAULT_OUT_DIR = "out";

/**
 * Reads a graph file (or wraps a graph object built in code). Throws a {@link GraphError} when the
 * file cannot be read or parsed.
 *
 * @example
 * ```ts
 * const source = await loadGraph("graphs/aircraft.json");
 * ```
 */
export async function loadGraph(graph: string | GraphFile | GraphSource, dir?: string): Promise<GraphSource> {
  if (typeof graph === "string") {
    const { source, issue } = await readGraphFile(graph);
    if (!source) {
      throw new GraphError([{
        ...issue!,
        kind: issue!.kind === "unreadable_subgraph" ? "invalid_graph" : issue!.kind,
      }]);
    }
    return source;
  }
  if ("json" in graph && "file" in graph) return graph as GraphSource;
  return graphFromObject(graph as GraphFile, dir);
}

/** Options shared by {@link checkGraph} and {@link runGraph}. */
export interface GraphOptions {
  /** Values of graph inputs: literals, or `bytes`/`scene` values for inputs of those types. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /**
   * The node types and plug-ins the graph may use. The public module (`mod.ts`) fills in the
   * built-ins when it is left out; the core itself knows no node.
   */
  readonly registry: Registry;
}

/**
 * Validates a graph with the given inputs; returns every problem (empty when it would run).
 *
 * @example
 * ```ts
 * import { checkGraph, createRegistry } from "./mod.ts";
 *
 * const issues = await checkGraph("graphs/freelancer.json", { registry: createRegistry() });
 * // With no node registered, every node type is unknown:
 * for (const issue of issues) console.log(issue.path, issue.kind, issue.message);
 * ```
 */
export async function checkGraph(
  graph: string | GraphFile | GraphSource,
  options: GraphOptions,
): Promise<GraphIssue[]> {
  try {
    await compileGraph(await loadGraph(graph), options.registry, options.inputs);
    return [];
  } catch (error) {
    if (error instanceof GraphError) return error.issues;
    throw error;
  }
}

/**
 * Loads, ahead of a run, the code a graph's run would load on its way: the executor and the disk
 * cache, and every node's implementation module (with those of the nodes it invokes and the resolvers
 * it dispatches to, {@link preloadRun}). A batch worker does it before its first input's time
 * limit starts, since a fresh worker otherwise loads all of it inside that input (2.5 s on a loaded
 * machine). Never throws: an invalid graph or a module that fails to load is the run's to report.
 * `onModule` is told as each of the graph's own nodes starts and ends loading its module.
 *
 * @example
 * ```ts
 * import { createRegistry } from "./registry.ts";
 *
 * await prepareGraph("graphs/gltf.json", { registry: createRegistry(), inputs: { model: "plane.glb" } });
 * ```
 */
export async function prepareGraph(
  graph: string | GraphFile | GraphSource,
  options: GraphOptions,
  onModule?: ModuleLoading,
): Promise<void> {
  const loading = Promise.allSettled(runModules());
  try {
    const plan = await compileGraph(await loadGraph(graph), options.registry, options.inputs);
    // The graph's own nodes first, then what they may call. That order is not what keeps a worker stuck
    // in a module's loading (the start limit's case) from hanging the workers after it; nothing here
    // can: Deno 2.9's terminate() does not end JavaScript that never yields (denoland/deno#35657), and
    // with `"nodeModulesDir": "auto"` Deno holds node_modules' lock (node_modules/.deno/.deno.lock, kept
    // fresh by a thread) from a dynamic import's loading through its module's evaluation, so a module
    // whose top level never ends keeps it, and every later module load waits for it — in the workers
    // of this process and in any Deno process on that node_modules. Whether the stuck module's own
    // import still holds it when it runs is timing (probe: 4 of 4 runs hung, 0 of 4 with
    // --node-modules-dir=manual; this order 0 of 12, everything at once 2 of 6, one at a time 2 of 8).
    const own: unknown[] = [...plan.nodes.values()].map((node) => node.def.run);
    await Promise.all([...plan.nodes].map(async ([id, { def }]) => {
      onModule?.(id, def.type, false);
      await preloadRun(def.run);
      onModule?.(id, def.type, true);
    }));
    await Promise.all([...runsOf(plan)].filter((run) => !own.includes(run)).map((run) => preloadRun(run)));
  } catch {
    // The run reports what is wrong with the graph.
  }
  await loading;
}

/**
 * Told as each of a graph's nodes starts (`loaded` false) and ends loading its implementation module:
 * a batch names the node whose module never ends loading.
 */
export type ModuleLoading = (id: string, type: string, loaded: boolean) => void;

/**
 * Every run a plan's nodes may call: each node's own, those of the node types it invokes (`decode.auto`:
 * every decoder, whichever a file turns out to need; in turn what they invoke) and the resolvers it
 * dispatches to (`constraints.resolve`), each once.
 */
function runsOf(plan: Plan): Set<unknown> {
  const runs = new Set<unknown>();
  const seen = new Set<AnyNodeDef>();
  const pending = [...plan.nodes.values()].map((node) => node.def);
  for (let def = pending.pop(); def; def = pending.pop()) {
    if (seen.has(def)) continue;
    seen.add(def);
    runs.add(def.run);
    for (const resolver of def.uses?.(plan.registry) ?? []) runs.add(resolver.resolve);
    for (const type of def.invokes?.(plan.registry) ?? []) {
      const invoked = plan.registry.get(type);
      if (invoked) pending.push(invoked);
    }
  }
  return runs;
}

/**
 * Starts loading the modules a run needs beyond compiling (the executor and the disk cache): loaded
 * on use, not at the top, so checking a graph (`partgraph check`) loads neither.
 */
function runModules(): [Promise<typeof import("./executor.ts")>, Promise<typeof import("./cache/disk.ts")>] {
  return [
    importOnUse<typeof import("./executor.ts")>("./executor.ts", import.meta.url),
    importOnUse<typeof import("./cache/disk.ts")>("./cache/disk.ts", import.meta.url),
  ];
}

/** Options of {@link runGraph}. */
export interface RunGraphOptions extends GraphOptions {
  /** Where write paths go (default `out`). */
  readonly outDir?: string;
  /** Disk cache folder (default `.partgraph-cache`); `false` for memory only. */
  readonly cacheDir?: string | false;
  /** Disk cache size cap in bytes; exceeded caches are pruned after the run. */
  readonly cacheMaxBytes?: number;
  /** Bypass every cache tier. */
  readonly noCache?: boolean;
  /** With `noCache`, false hashes no file read or written; see `ExecuteOptions.fileDigests`. */
  readonly fileDigests?: boolean;
  /** Graph outputs whose values to return (default all); see `ExecuteOptions.outputs`. */
  readonly outputs?: readonly string[];
  /** Recompute every node without reading any cache tier, storing the fresh results. */
  readonly refresh?: boolean;
  /** A shared remote cache (Bazel HTTP cache protocol), looked up after the disk tier and written with it. */
  readonly remoteCache?: RemoteCache;
  /** In-memory tier shared across runs (e.g. a watch loop); results stay warm between calls. */
  readonly memory?: Map<string, MemoryEntry>;
  /** Called synchronously for every node state change and warning, in the order they happen. */
  readonly onEvent?: EventSink;
}

/** A run's result plus the compiled plan. */
export interface GraphRun extends RunResult {
  /** The compiled plan that ran (flattened nodes, graph files), e.g. for `buildManifest`. */
  readonly plan: Plan;
}

/**
 * Validates and runs a graph; resolves with its outputs in memory. Throws {@link GraphError} for an
 * invalid graph and `RunError` (every failed node) when nodes failed.
 *
 * @example
 * ```ts
 * import { createRegistry, defineNode, runGraph } from "./mod.ts";
 *
 * const hello = defineNode({
 *   type: "text.hello", version: 1, doc: "Greets.", inputs: {}, params: {},
 *   outputs: { text: { type: "string", doc: "A greeting." } },
 *   run: () => ({ text: "hello" }),
 * });
 * const registry = createRegistry([{ nodes: [hello] }]);
 * const run = await runGraph(
 *   { version: 1, nodes: { h: { type: "text.hello" } }, outputs: { text: "h.text" } },
 *   { registry, cacheDir: false },
 * );
 * console.log(run.outputs.text); // "hello"
 * ```
 */
export async function runGraph(
  graph: string | GraphFile | GraphSource,
  options: RunGraphOptions,
): Promise<GraphRun> {
  // Started before compiling, which it overlaps.
  const running = Promise.all(runModules());
  running.catch(() => {}); // an invalid graph's GraphError wins; a failed import is thrown below
  const plan = await compileGraph(
    await loadGraph(graph),
    options.registry,
    options.inputs,
  );
  const [{ executePlan }, { DiskCache }] = await running;
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const disk = cacheDir === false ? undefined : new DiskCache(resolve(cacheDir), options.cacheMaxBytes);
  const result = await executePlan(plan, {
    outDir: options.outDir ?? DEFAULT_OUT_DIR,
    memory: options.memory,
    disk,
    noCache: options.noCache,
    fileDigests: options.fileDigests,
    refresh: options.refresh,
    outputs: options.outputs,
    remote: options.remoteCache,
    onEvent: options.onEvent,
  });
  // Only a run that stored something can have pushed the cache over its cap.
  if (disk && !options.noCache) {
    const stored = disk.takeStoredBytes();
    if (stored > 0 && disk.noteStored(stored)) await disk.prune();
  }
  return { ...result, plan };
}
