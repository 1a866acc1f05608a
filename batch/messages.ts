/**
 * What a batch's pool and its members say to each other: jobs, results and messages, which cross a
 * worker boundary (structured clone) or a process boundary (one JSON line each, {@link toLine}). Apart
 * from `job.ts`, which runs jobs, so that the batch's main thread does not load the graph runtime, the
 * node registry and glTF-Transform (over a hundred modules) only to talk to its workers.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { FileDigest } from "../runtime/cache/disk.ts";
import type { RemoteCacheOptions } from "../runtime/cache/remote.ts";
import type { JsonValue } from "../runtime/node.ts";

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
  /**
   * Forward every event (for `--json`); without it only the running nodes, for naming where a job
   * stuck: on a Deno worker's board, or as a process's `running` messages.
   */
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
  /**
   * A worker process's job started a node, or ended nodes and started none since: the nodes it is in
   * now, as [id, type] (see `running_posts.ts`; a Deno worker keeps them on its {@link RunningBoard}).
   */
  | { readonly kind: "running"; readonly id: number; readonly nodes: readonly [string, string][] }
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
