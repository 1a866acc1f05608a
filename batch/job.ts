/**
 * One job of a batch: the graph run for one input, as a pool member executes it. What crosses to and
 * from the pool is in `messages.ts` (re-exported here).
 *
 * @module
 */
import { basename, resolve } from "node:path";
import { createRegistry, runGraph } from "../mod.ts";
import { loadGraph, prepareGraph } from "../runtime/api.ts";
import type { GraphSource } from "../runtime/graph.ts";
import type { Registry } from "../runtime/registry.ts";
import { PartgraphError } from "../runtime/errors.ts";
import { sha256Hex } from "../runtime/canonical.ts";
import { readWholeFile } from "../runtime/fs.ts";
import type { RunEvent } from "../runtime/events.ts";
import type { JsonValue } from "../runtime/node.ts";
import { RemoteCache } from "../runtime/cache/remote.ts";
import { RunningBoard } from "./running_board.ts";
import { RunningPosts } from "./running_posts.ts";
import type { JobMessage, JobResult, JobSpec, WorkerMessage } from "./messages.ts";

export {
  fromLine,
  type JobMessage,
  type JobResult,
  type JobSpec,
  MESSAGE_PREFIX,
  type OnStart,
  type PoolMessage,
  toLine,
  type WorkerMessage,
} from "./messages.ts";

/**
 * The loop of a pool member, a Deno worker or a worker process: runs each job it is given and
 * posts the job's node events, remote cache warnings and result. One remote cache client serves
 * every job, so a remote that went down is not retried per input. The graph file is read once and the
 * registry made once, for every job: the batch validated the graph once and records its files' digests
 * once, and reading, parsing and checking the file again was about 1 ms of each input.
 *
 * @example
 * ```ts
 * const serve = jobServer((message) => self.postMessage(message));
 * self.onmessage = ({ data }) => serve(data);
 * ```
 */
export function jobServer(post: (message: WorkerMessage) => void): (message: JobMessage) => Promise<void> {
  let remote: RemoteCache | undefined;
  let prepared = false;
  // Custom modules a graph names go into a child registry per run: the base is never changed.
  const registry = createRegistry();
  let graph: { readonly path: string; readonly source: GraphSource } | undefined;
  return async ({ id, spec, board }) => {
    const onBoard = board ? new RunningBoard(board) : undefined;
    const shared = spec.events ? undefined : onBoard;
    onBoard?.clear(); // before the pool hears of the job, so it never reads the last job's nodes
    if (!prepared) {
      post({ kind: "loading", id });
      // A fresh member loads the graph's code (executor, cache, every node's module) before it says it
      // started: the first input's time limit is for the input, not for start-up, which a loaded
      // machine can stretch to seconds (the pool limits the start on its own).
      prepared = true;
      const value = spec.each.type === "bytes" ? { bytes: new Uint8Array(), name: "" } : spec.each.path;
      // The board (a process: its pipe) names the nodes whose modules are loading: a worker stuck there
      // is named by them.
      await prepareGraph(
        spec.graph,
        {
          registry,
          inputs: { ...spec.inputs, [spec.each.name]: value },
        },
        (node, type, loaded) =>
          onBoard ? onBoard.loading(node, type, loaded) : post({ kind: "module", id, node, type, loaded }),
      );
      // The hashing every run does first (a file's digest, each node's key) loads node:crypto on its
      // first call: 15 ms idle, over a second at load 30, which the first input paid inside its limit.
      sha256Hex(new Uint8Array());
    }
    post({ kind: "started", id });
    if (spec.remote && !remote) {
      remote = new RemoteCache({
        ...spec.remote,
        onWarning: (message, warning) => post({ kind: "warning", message, warning }),
      });
    }
    if (graph?.path !== spec.graph) {
      // One that cannot be read is left to each run, which fails its input saying why.
      const source = await loadGraph(spec.graph).catch(() => undefined);
      graph = source && { path: spec.graph, source };
    }
    // A worker process (no board) posts the running nodes once per start, not each node event.
    const posts = spec.events || onBoard ? undefined : new RunningPosts(id, post);
    const result = await runJob(
      spec,
      shared
        ? (event) => shared.note(event)
        : posts
        ? (event) => posts.note(event)
        : (event) => post({ kind: "event", id, event }),
      remote,
      { graph: graph?.source, registry },
    );
    posts?.end();
    post({ kind: "done", id, result });
  };
}

/**
 * Runs one job; never throws (a failure is a result), so one bad input cannot stop a batch. `using`:
 * the graph already read from `spec.graph`, and the registry, to run with (default: read it, and the
 * built-in registry).
 *
 * @example
 * ```ts
 * const result = await runJob(spec, () => {}, undefined);
 * ```
 */
export async function runJob(
  spec: JobSpec,
  onEvent: (event: RunEvent) => void,
  remote: RemoteCache | undefined,
  using: { readonly graph?: GraphSource; readonly registry?: Registry } = {},
): Promise<JobResult> {
  const started = performance.now();
  const path = resolve(spec.each.path);
  // A bytes input is read here; a path is read by the graph, whose record of the read gives its digest
  // (from the cache's memo on a warm run, without reading the file at all).
  const bytes = spec.each.type === "bytes" ? await readWholeFile(path).catch(() => undefined) : undefined;
  const value = spec.each.type === "bytes"
    ? (bytes ? { bytes, name: basename(spec.each.path) } : undefined)
    : spec.each.path;
  const digest = bytes ? sha256Hex(bytes) : null;
  const base = { digest, writes: [], warnings: [], nodes: 0, cached: 0, remote: 0, computeMs: 0 };
  if (value === undefined) {
    return {
      ...base,
      ok: false,
      error: { message: `cannot read '${spec.each.path}'` },
      ms: elapsed(started),
    };
  }
  try {
    const run = await runGraph(using.graph ?? spec.graph, {
      registry: using.registry,
      inputs: { ...spec.inputs, [spec.each.name]: value },
      outDir: spec.outDir,
      cacheDir: spec.cacheDir,
      noCache: spec.noCache,
      refresh: spec.refresh,
      remoteCache: remote,
      // Node states always cross (a few per node): the batch names the node an overrun input was
      // in. Warnings and the rest only when asked for.
      onEvent: spec.events ? onEvent : (event) => event.event === "node" && onEvent(event),
      outputs: [], // a batch keeps files, not values
    });
    const states = Object.values(run.nodes);
    return {
      ok: true,
      digest: digest ?? run.reads.find((read) => read.path === path)?.sha256 ?? await fileDigest(path),
      writes: run.writes,
      warnings: run.warnings.map((w) => `${w.id}: ${w.message}`),
      nodes: states.length,
      cached: states.filter((n) => n.state === "cached").length,
      remote: states.filter((n) => n.state === "cached" && n.tier === "remote").length,
      computeMs: Math.round(states.reduce((sum, n) => sum + (n.state === "done" ? n.ms : 0), 0)),
      ms: elapsed(started),
    };
  } catch (error) {
    const failed = { ...base, digest: digest ?? await fileDigest(path) };
    return { ...failed, ok: false, error: describeError(error), ms: elapsed(started) };
  }
}

/** A file's SHA-256, or null when it cannot be read (the graph's own read reports why). */
async function fileDigest(path: string): Promise<string | null> {
  const bytes = await readWholeFile(path).catch(() => undefined);
  return bytes ? sha256Hex(bytes) : null;
}

/** The error as plain JSON (it crosses the worker boundary and goes into the manifest). */
function describeError(error: unknown): JsonValue {
  if (error instanceof PartgraphError) return JSON.parse(JSON.stringify(error.toJSON()));
  return { message: error instanceof Error ? error.message : String(error) };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
