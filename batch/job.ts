/**
 * One job of a batch: the graph run for one input, as a pool member executes it. Jobs, results and
 * messages cross a worker boundary (structured clone) or a process boundary (one JSON line each,
 * {@link toLine}).
 *
 * @module
 */
import { basename, resolve } from "node:path";
import { Buffer } from "node:buffer";
import { createRegistry, runGraph } from "../mod.ts";
import { loadGraph, prepareGraph } from "../runtime/api.ts";
import type { GraphSource } from "../runtime/graph.ts";
import type { Registry } from "../runtime/registry.ts";
import { PartgraphError } from "../runtime/errors.ts";
import { sha256Hex } from "../runtime/canonical.ts";
import { readWholeFile } from "../runtime/fs.ts";
import type { RunEvent } from "../runtime/events.ts";
import type { FileDigest } from "../runtime/cache/disk.ts";
import { RemoteCache, type RemoteCacheOptions } from "../runtime/cache/remote.ts";
import type { JsonValue } from "../runtime/node.ts";
import { RunningBoard } from "./running_board.ts";

/** What a worker needs to run one input. */
export interface JobSpec {
  /** Absolute path of the graph file. */
  readonly graph: string;
  /** Graph inputs from `--set`, already parsed. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The batch input: the graph input's name and type, and the file's path (see `relativeToWorkingFolder`). */
  readonly each: { readonly name: string; readonly type: "string" | "bytes"; readonly path: string };
  /** This input's output folder. */
  readonly outDir: string;
  /** Disk cache folder, or false for none. */
  readonly cacheDir: string | false;
  /** Bypass every cache tier. */
  readonly noCache: boolean;
  /** Read no cache tier, but store the results. */
  readonly refresh: boolean;
  /** The shared remote cache, if any (without its warning callback, which cannot cross workers). */
  readonly remote?: Omit<RemoteCacheOptions, "onWarning">;
  /** Forward every event (for `--json`); without it only node states, for naming where a job stuck. */
  readonly events: boolean;
}

/** What one job gave. */
export interface JobResult {
  readonly ok: boolean;
  /** SHA-256 of the input file, or null when it could not be read. */
  readonly digest: string | null;
  /** Files written, relative to the job's output folder. */
  readonly writes: readonly FileDigest[];
  /** Warnings as `node id: message`. */
  readonly warnings: readonly string[];
  /** The failure, when not ok. */
  readonly error?: JsonValue;
  /** Nodes that ran or were served from a cache, how many were cached, and of those how many remote. */
  readonly nodes: number;
  readonly cached: number;
  readonly remote: number;
  /** The own work of the nodes that ran, in ms. */
  readonly computeMs: number;
  readonly ms: number;
}

/** A message from the pool to one of its members. */
export interface JobMessage {
  readonly id: number;
  readonly spec: JobSpec;
  /**
   * A Deno worker's {@link RunningBoard}: where it keeps the job's running nodes for the pool to read,
   * instead of posting node events, unless the spec asks for every event. A process gets none.
   */
  readonly board?: SharedArrayBuffer;
}

/**
 * What else the pool sends a Deno worker: a ping, answered with a pong by a worker whose JavaScript
 * yields, before the pool stops it mid-job (one that cannot answer runs on after `terminate()`).
 */
export interface PoolMessage {
  readonly ping: true;
}

/** A message from a pool member to the pool. */
export type WorkerMessage =
  /**
   * A fresh member is up (Deno's worker or process and partgraph's runtime loaded) and has its first
   * job: it loads the graph's code next. The pool's limit on that load runs from here, not from the
   * spawn, whose time a loaded machine stretches to seconds. A member that has loaded it says only
   * "started": the two came together, a message more for the batch's main thread to wake for.
   */
  | { readonly kind: "loading"; readonly id: number }
  /**
   * A fresh worker process's graph node starts (`loaded` false) or ends loading its implementation
   * module: what the pool names should the process not start its job in time (a Deno worker keeps
   * this on its {@link RunningBoard} instead).
   */
  | {
    readonly kind: "module";
    readonly id: number;
    readonly node: string;
    readonly type: string;
    readonly loaded: boolean;
  }
  /** The member has the job and starts it: its time limit runs from here, not from its own start-up. */
  | { readonly kind: "started"; readonly id: number }
  | { readonly kind: "event"; readonly id: number; readonly event: unknown }
  | { readonly kind: "warning"; readonly message: string; readonly warning: string }
  | { readonly kind: "output"; readonly stream: "stdout" | "stderr"; readonly text: string }
  | { readonly kind: "done"; readonly id: number; readonly result: unknown }
  /** A Deno worker ending of an error nothing caught (a worker process's end is seen by its exit). */
  | { readonly kind: "died"; readonly message: string }
  /** A Deno worker's answer to a {@link PoolMessage} ping. */
  | { readonly kind: "pong" };

/** Told how far a pool member has come with a job before running it: "loading", then "started". */
export type OnStart = (phase: "loading" | "started") => void;

/** Starts each message line a worker process writes, so a node's own output cannot be taken for one. */
export const MESSAGE_PREFIX = "\x1epartgraph:";

/** How bytes (a `--set` value of a bytes input) travel in a JSON line. */
const BYTES_KEY = "$partgraph.base64";

/** A message as one line of JSON, bytes in base64 (the inverse of {@link fromLine}). */
export function toLine(message: JobMessage | WorkerMessage): string {
  return JSON.stringify(
    message,
    (_, value) =>
      value instanceof Uint8Array ? { [BYTES_KEY]: Buffer.from(value).toString("base64") } : value,
  );
}

/** A message read from a line of {@link toLine}. */
export function fromLine<T extends JobMessage | WorkerMessage>(line: string): T {
  // A reviver is called for every value: most lines (node events, results) hold no bytes to revive.
  if (!line.includes(BYTES_KEY)) return JSON.parse(line);
  return JSON.parse(line, (_, value) => {
    const base64 = value?.[BYTES_KEY];
    return typeof base64 === "string" ? new Uint8Array(Buffer.from(base64, "base64")) : value;
  });
}

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
    const result = await runJob(
      spec,
      shared ? (event) => shared.note(event) : (event) => post({ kind: "event", id, event }),
      remote,
      { graph: graph?.source, registry },
    );
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
