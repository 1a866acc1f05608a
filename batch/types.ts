/**
 * The public shapes of a batch: its options, the events it emits, and its result and summary.
 *
 * @module
 */
import type { RemoteCacheOptions } from "../runtime/cache/remote.ts";
import type { RunEvent } from "../runtime/events.ts";
import type { BatchSelection } from "./inputs.ts";
import type { Shard } from "./shard.ts";
import type { BatchManifest } from "./manifest.ts";

/** Options of `runBatch` (`batch.ts`). */
export interface BatchOptions {
  /** The graph file. */
  readonly graph: string;
  /** The inputs (see `expandEach`). */
  readonly selection: BatchSelection;
  /** Other graph inputs, parsed, and the `--set` texts they came from (recorded in the manifest). */
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly sets?: readonly string[];
  /** Output folder; each input's outputs go to `<outDir>/<rel without extension>/`. */
  readonly outDir: string;
  /** Disk cache folder shared by every job, or false for none. */
  readonly cacheDir: string | false;
  readonly noCache?: boolean;
  /** Read no cache tier, but store what is computed (`verify` with a remote, which it seeds). */
  readonly refresh?: boolean;
  /**
   * Time limit of one input in milliseconds (default: none). An input still running then fails, and
   * its worker is stopped and replaced: a graph that hangs on one file cannot stall the batch.
   */
  readonly inputTimeoutMs?: number;
  /**
   * How long a fresh worker, once up, may take to load the graph's code and start its input, in
   * milliseconds (default 60 s, or `inputTimeoutMs` when longer). Coming up (Deno's worker or process
   * starting, partgraph's runtime loading) is limited apart, to 60 s or this, whichever is longer. A
   * worker that has not started by then is stuck (a node module that never ends loading; Deno has had
   * workers that never start: denoland/deno#32034): it is stopped and the input runs once more on a
   * fresh one.
   */
  readonly startLimitMs?: number;
  /**
   * Workers. Default: the number of cores, and with a `remote`, more (up to four per core, eight beyond
   * one per core; see `pool_size.ts`) while the remote serves most of the recent inputs' nodes (they wait
   * on the network, not on a core); the extra ones retire when it serves less.
   */
  readonly jobs?: number;
  /**
   * Make each worker a Deno process of its own (this process needs `--allow-run` for Deno): an input
   * that exhausts its heap or crashes Deno then fails alone, where in a Deno worker it ends the batch.
   * Each process gets this process's unlimited permissions, and of the limited ones what the batch
   * needs (its files, outputs, cache and remote). Imports resolve with partgraph's `deno.json`.
   */
  readonly processes?: boolean;
  /** Heap limit of each worker process in MB (`processes` only; default: V8's). */
  readonly heapMb?: number;
  /** Run only this shard's inputs. */
  readonly shard?: Shard;
  /** Stop starting new inputs after the first failure. */
  readonly failFast?: boolean;
  /**
   * An input whose run warned (a repair, an unsure hinge fit) counts as failed, its outputs still
   * written: for builds whose inputs must be clean.
   */
  readonly failOnWarning?: boolean;
  /**
   * Interrupts the batch (Ctrl-C, a CI job cancelled): no input starts after it, and the inputs
   * running are given up, their workers stopped at once (worker processes killed, never left behind).
   * The result counts them as not run and says it was interrupted. Outputs are written atomically, so
   * none is left half-written, and a re-run takes what finished from the cache.
   */
  readonly signal?: AbortSignal;
  /** A shared remote cache. */
  readonly remote?: Omit<RemoteCacheOptions, "onWarning">;
  /** Receives progress: input state changes, and node events when `nodeEvents` is set. */
  readonly onEvent?: (event: BatchEvent) => void;
  /**
   * Receives what nodes print (their console output, passed on by the workers), by stream. Default:
   * this process's `console.log` and `console.error`.
   */
  readonly onOutput?: (stream: "stdout" | "stderr", text: string) => void;
  readonly nodeEvents?: boolean;
}

/** A batch progress event. */
export type BatchEvent =
  /** Before the first input starts: how many inputs this run takes (after sharding), and their bytes. */
  | { readonly event: "batch"; readonly inputs: number; readonly bytes: number }
  | {
    readonly event: "input";
    readonly input: string;
    readonly state: "running" | "done" | "failed";
    /** The input file's size (0 when it cannot be read). */
    readonly bytes: number;
    readonly ms?: number;
    readonly cached?: boolean;
    readonly error?: unknown;
  }
  | (RunEvent & { readonly input: string })
  | { readonly event: "remote-warning"; readonly message: string }
  /**
   * The worker running `input` died (`message`) and the input runs again on a fresh one: what an
   * earlier input's nodes left running on that worker (`after`, null when none) may be the cause.
   */
  | {
    readonly event: "worker-died";
    readonly input: string;
    readonly message: string;
    readonly after: string | null;
  }
  /**
   * The fresh worker given `input` did not start it within `seconds` (see `startLimitMs`): it was
   * stopped, and the input runs again on another. `in`: whose modules it was loading (a Deno worker's
   * board, or what a worker process told over its pipe).
   */
  | {
    readonly event: "worker-stuck";
    readonly input: string;
    readonly seconds: number;
    readonly in: readonly string[];
  }
  /**
   * The Deno worker given `input`, stopped when it overran a limit after `seconds` (`starting`: its
   * start, loading the graph's code; else the time limit per input), did not answer: it is in
   * JavaScript that never yields, which Deno cannot stop (denoland/deno#35657), and runs on until the
   * batch's process ends. `in`: the nodes it was in, or whose modules it was loading.
   */
  | {
    readonly event: "worker-left-running";
    readonly input: string;
    readonly in: readonly string[];
    readonly starting: boolean;
    readonly seconds: number;
  }
  /**
   * The pool grew by a worker or one retired (without `--jobs`, while a remote cache serves the
   * work: see `PoolSize`); `workers` is how many run now.
   */
  | { readonly event: "workers"; readonly change: "grew" | "retired"; readonly workers: number };

/** Figures of a finished batch. */
export interface BatchSummary {
  /** Inputs of this run (after sharding), and how they ended. */
  readonly inputs: number;
  readonly ok: number;
  readonly failed: number;
  /** Inputs whose every node came from a cache. */
  readonly cached: number;
  /**
   * The nodes of the inputs that ended: run or served, served from a cache, and of those from the remote.
   * On a machine whose outputs are new, a build that the remote serves writes its files itself, so no
   * input counts as cached: these say how much of it came from the caches.
   */
  readonly nodes: { readonly total: number; readonly cached: number; readonly remote: number };
  /** Inputs not run to their end, because of `failFast` or an interruption. */
  readonly notRun: number;
  /** Whether `signal` interrupted the batch before every input ran. */
  readonly interrupted: boolean;
  readonly ms: number;
  /** The five slowest inputs. */
  readonly slowest: readonly { readonly input: string; readonly ms: number }[];
  /** One entry per worker of the pool (see {@link WorkerFigures}). */
  readonly workers: readonly WorkerFigures[];
  /** What the workers were: Deno workers of this process, or processes of their own. */
  readonly pool: "workers" | "processes";
}

/**
 * What one worker of the pool did: with `busyMs` close to `ms`, the worker was never left waiting
 * for the pool (the rest is its start-up and the hand-over between inputs).
 */
export interface WorkerFigures {
  /** Inputs it ran. */
  readonly inputs: number;
  /** Time spent running them, as measured inside the worker. */
  readonly busyMs: number;
  /** Its lifetime in the batch, from spawning it to its last input's result. */
  readonly ms: number;
}

/** A finished batch. */
export interface BatchResult {
  readonly manifest: BatchManifest;
  readonly summary: BatchSummary;
  /** Remote cache warnings (each once). */
  readonly warnings: readonly string[];
}
