/**
 * Batch builds: one graph run per input file, in one process, on a pool of workers sharing the
 * cache. A failing input is recorded and the others go on; the result is a batch manifest plus a
 * summary. With a shard, only the inputs of that shard run, so several machines can split a batch.
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry } from "../runtime/registry.ts";
import { BUILTIN_PLUGINS } from "../nodes/mod.ts";
import { loadGraph } from "../runtime/api.ts";
import { compileGraph } from "../runtime/plan.ts";
import { GraphError } from "../runtime/errors.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { relativeToWorkingFolder } from "../runtime/params.ts";
import { TOOL_VERSIONS } from "../runtime/version.ts";
import type { RunEvent } from "../runtime/events.ts";
import { type BatchInput, outputFolder, refuseSharedFolders, SelectionError } from "./inputs.ts";
import { formatShard, inShard } from "./shard.ts";
import { PoolSize } from "./pool_size.ts";
import { failedJob, Interrupted, RunningNodes, settle, TimeLimit } from "./settle.ts";
import type { BatchInputRecord, BatchManifest } from "./manifest.ts";
import type { JobResult, JobSpec } from "./messages.ts";
import type { BatchOptions, BatchResult, BatchSummary, WorkerFigures } from "./types.ts";
import { MemberDied, type PoolMember, processSpawner, type SpawnMember, spawnWorker } from "./pool.ts";
import { type LeftRunning, WorkersWedged } from "./left_running.ts";

export type { BatchEvent, BatchOptions, BatchResult, BatchSummary, WorkerFigures } from "./types.ts";

/**
 * Runs a graph once per input. Throws a {@link GraphError} when the graph is invalid (checked once,
 * with the first input), a `SelectionError` when there are no inputs or two would share an output
 * folder, a {@link WorkersWedged} when Deno workers can no longer start (see `left_running.ts`);
 * input failures are results, not exceptions. `spawnMember` makes the pool's members (default: as
 * `options.processes` says; tests give a fake pool).
 *
 * @example
 * ```ts
 * const selection = await expandEach("model=ships/**\/*.cmp");
 * const { summary } = await runBatch({ graph: "graphs/freelancer.json", selection, outDir: "out", cacheDir: false });
 * ```
 */
export async function runBatch(options: BatchOptions, spawnMember?: SpawnMember): Promise<BatchResult> {
  const started = performance.now();
  const { selection } = options;
  if (!selection.inputs.length) throw new SelectionError(`--each ${selection.name}: no inputs`);
  refuseSharedFolders(selection); // before anything runs, on every shard alike
  const source = await loadGraph(options.graph);
  const graphInputs = (source.json as GraphFile).inputs ?? {};
  const declared = graphInputs[selection.name];
  if (!declared || (declared.type !== "string" && declared.type !== "bytes")) {
    throw new GraphError([{
      path: `/inputs/${selection.name}`,
      kind: declared ? "type_mismatch" : "unknown_graph_input",
      message: declared
        ? `--each ${selection.name}: the input is a ${declared.type}; a batch gives it file paths (string) or contents (bytes)`
        : `--each ${selection.name}: the graph has no input '${selection.name}' (inputs: ${
          Object.keys(graphInputs).join(", ") || "none"
        })`,
    }]);
  }
  const type = declared.type;
  spawnMember ??= memberSpawner(options);
  const mine = inShard(selection.inputs, options.shard);
  // Validate once, with the first input of the whole batch (the same answer on every shard).
  const firstPath = selection.inputs[0].path;
  const firstValue = type === "bytes" ? { bytes: new Uint8Array(), name: firstPath } : firstPath;
  const plan = await compileGraph(source, createRegistry(BUILTIN_PLUGINS), {
    ...options.inputs,
    [selection.name]: firstValue,
  });

  const records: Record<string, BatchInputRecord> = {};
  const results = new Map<string, JobResult>();
  const warnings: string[] = [];
  const warnedKinds = new Set<string>();
  const emit = options.onEvent ?? (() => {});
  const outDir = resolve(options.outDir);
  const size = new PoolSize(
    options.jobs,
    navigator.hardwareConcurrency,
    mine.length,
    options.remote !== undefined,
  );
  const queue = await largestFirst(mine);
  emit({ event: "batch", inputs: queue.length, bytes: queue.reduce((sum, { bytes }) => sum + bytes, 0) });
  const figures: WorkerFigures[] = [];
  let stop = false;
  // Deno workers that could not be stopped; once a fresh one cannot start after them, why the batch stops
  // (`halt` then gives up the inputs the other workers hold).
  const leftRunning: LeftRunning[] = [];
  let wedged: WorkersWedged | undefined;
  const halt = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, halt.signal]) : halt.signal;

  const worker = async (slot: number) => {
    const spawned = performance.now();
    let inputs = 0, busyMs = 0;
    let w: PoolMember | undefined; // started when an input needs it, so none is started for nothing
    let ranLast: string | undefined; // the input w ran before the one in hand
    let retired = false; // an extra worker the pool no longer needs
    while (!stop && !options.signal?.aborted && queue.length && !(retired = size.retire(slot))) {
      const { input, bytes } = queue.shift()!;
      const folder = outputFolder(input), path = relativeToWorkingFolder(input.path);
      const spec: JobSpec = {
        graph: resolve(options.graph),
        inputs: options.inputs ?? {},
        each: { name: selection.name, type, path },
        outDir: join(outDir, folder),
        cacheDir: options.cacheDir === false ? false : resolve(options.cacheDir),
        noCache: options.noCache ?? false,
        refresh: options.refresh ?? false,
        remote: options.remote,
        events: options.nodeEvents ?? false,
      };
      emit({ event: "input", input: input.rel, state: "running", bytes });
      const inputStarted = performance.now();
      if (w?.ended) { // it died after its last input ended: that input's result stands, this one is new
        await w.stop(true);
        w = undefined;
      }
      let result: JobResult | undefined;
      for (let attempt = 1; !result; attempt++) {
        const running = new RunningNodes();
        if (!w) [w, ranLast] = [spawn(), undefined];
        try {
          let begin!: () => void, up!: () => void;
          const begun = new Promise<void>((resolve) => begin = resolve);
          const loading = new Promise<void>((resolve) => up = resolve);
          result = await settle(
            w.run(spec, (event) => {
              running.note(event as RunEvent);
              if (options.nodeEvents) emit({ ...event as RunEvent, input: input.rel });
            }, (phase) => phase === "loading" ? up() : begin()),
            options.inputTimeoutMs,
            signal,
            begun,
            options.startLimitMs,
            loading,
          );
        } catch (error) {
          // Where it was, from its node events or (a Deno worker's) the board it shares, before it stops.
          const stuckIn = [...new Set([...running.ids(), ...w.running()])];
          // Whatever happened, a fresh worker takes over. One that overran a limit is asked to answer
          // first: a Deno worker that cannot runs on after it is stopped, and the batch says so.
          const overran = error instanceof TimeLimit ? error : undefined;
          const before = leftRunning.length;
          const runsOn = overran ? await w.stopOverrun() : (await w.stop(true), false);
          w = undefined;
          if (overran && runsOn) {
            const left = { input: input.rel, in: stuckIn, starting: overran.starting };
            leftRunning.push(left);
            emit({ event: "worker-left-running", ...left, seconds: overran.ms / 1000 });
          }
          if (error instanceof Interrupted) break; // given up: the input counts as not run
          // A fresh worker that cannot load the graph's code after one was left running most likely
          // waits on node_modules' lock, as every fresh one after it would: the batch stops.
          if (overran?.starting && before > 0) {
            wedged ??= new WorkersWedged(input.rel, overran.ms / 1000, leftRunning.slice(0, before));
            stop = true;
            halt.abort();
            break;
          }
          // A worker can die of what an earlier input's nodes left running (a timer that throws), so
          // an input whose worker died under it runs once more, on a fresh worker, before it fails.
          // Running out of memory would happen again, and the time limit has passed.
          if (attempt === 1 && error instanceof MemberDied && !error.outOfMemory) {
            emit({ event: "worker-died", input: input.rel, message: error.message, after: ranLast ?? null });
            continue;
          }
          // A worker stuck before it took the input says nothing of the input: it runs once more.
          if (attempt === 1 && error instanceof TimeLimit && error.starting) {
            emit({ event: "worker-stuck", input: input.rel, seconds: error.ms / 1000, in: stuckIn });
            continue;
          }
          result = failedJob(error, inputStarted, stuckIn, runsOn);
        }
      }
      if (!result) break;
      if (options.failOnWarning && result.ok && result.warnings.length) {
        const message =
          `${result.warnings.length} warning(s), and warnings fail this batch (--fail-on-warning)`;
        result = { ...result, ok: false, error: { message } };
      }
      ranLast = input.rel;
      results.set(input.rel, result);
      inputs++;
      busyMs += result.ms;
      records[input.rel] = {
        path,
        digest: result.digest,
        ok: result.ok,
        writes: Object.fromEntries(result.writes.map((f) => [`${folder}/${f.path}`, f.sha256])),
        warnings: result.warnings,
        ...(result.ok ? {} : { error: result.error }),
      };
      const cached = result.nodes > 0 && result.cached === result.nodes;
      emit({
        event: "input",
        input: input.rel,
        state: result.ok ? "done" : "failed",
        bytes,
        ms: result.ms,
        cached,
        ...(result.ok ? {} : { error: result.error }),
      });
      if (!result.ok && options.failFast) stop = true;
      size.finished(result);
      if (!stop && !options.signal?.aborted && size.grow(active, queue.length)) {
        start();
        emit({ event: "workers", change: "grew", workers: active });
      }
    }
    active--; // before its worker stops: it takes no more inputs, and the pool may grow meanwhile
    if (retired) emit({ event: "workers", change: "retired", workers: active });
    await w?.stop();
    figures[slot] = { inputs, busyMs, ms: Math.round(performance.now() - spawned) };
  };
  // Workers started so far (each a loop over the queue) and how many of them are running.
  const workers: Promise<void>[] = [];
  let active = 0;
  const start = () => {
    active++;
    workers.push(worker(workers.length));
  };

  const spawn = () =>
    // Each worker's client warns once per kind; the batch, once per kind for all of them.
    spawnMember({
      onWarning: (message, kind) => {
        if (!warnedKinds.has(kind)) {
          warnedKinds.add(kind);
          warnings.push(message);
          emit({ event: "remote-warning", message });
        }
      },
      onOutput: options.onOutput ??
        ((stream, text) => (stream === "stdout" ? console.log : console.error)(text)),
    });
  for (let i = 0; i < size.base; i++) start();
  // The graph's files' digests, for the manifest, once the workers are starting.
  const files: Record<string, string> = {};
  for (const file of plan.files) {
    if (file.text !== undefined) files[relative(Deno.cwd(), file.file)] = await textDigest(file.text);
  }
  /** The figures of the inputs that ended, and of the pool. */
  const summarize = (): BatchSummary => {
    const done = [...results];
    return {
      inputs: mine.length,
      ok: done.filter(([, r]) => r.ok).length,
      failed: done.filter(([, r]) => !r.ok).length,
      cached: done.filter(([, r]) => r.ok && r.nodes > 0 && r.cached === r.nodes).length,
      nodes: {
        total: sum(done, (r) => r.nodes),
        cached: sum(done, (r) => r.cached),
        remote: sum(done, (r) => r.remote),
      },
      notRun: mine.length - done.length,
      interrupted: (options.signal?.aborted ?? false) && done.length < mine.length,
      ms: Math.round(performance.now() - started),
      slowest: done.map(([input, r]) => ({ input, ms: r.ms })).sort((a, b) =>
        b.ms - a.ms || (a.input < b.input ? -1 : 1)
      )
        .slice(0, 5),
      workers: figures,
      pool: options.processes ? "processes" : "workers",
    };
  };
  for (let i = 0; i < workers.length; i++) await workers[i]; // the list grows while the batch runs
  // What ran before a wedge stopped the batch: its consumers (an NDJSON stream, verify) say so.
  if (wedged) {
    wedged.summary = summarize();
    throw wedged;
  }

  const sorted = Object.fromEntries(Object.keys(records).sort().map((rel) => [rel, records[rel]]));
  const manifest: BatchManifest = {
    batch: 1,
    tools: TOOL_VERSIONS,
    graph: { file: relative(Deno.cwd(), resolve(options.graph)), files },
    sets: options.sets ?? [],
    selection: {
      each: selection.name,
      base: relativeToWorkingFolder(selection.base),
      inputs: selection.inputs.map((i) => i.rel),
    },
    shard: options.shard ? formatShard(options.shard) : null,
    inputs: sorted,
  };
  return { manifest, summary: summarize(), warnings };
}

/**
 * How the pool makes its workers: Deno workers, or (`processes`) Deno processes granted what this
 * batch reads, writes and reaches. Throws `Deno.errors.NotCapable` when processes cannot be started.
 */
function memberSpawner(options: BatchOptions): SpawnMember {
  if (!options.processes) {
    if (options.heapMb !== undefined) throw new TypeError("heapMb limits worker processes: set processes");
    return spawnWorker;
  }
  const written = [
    resolve(options.outDir),
    ...(options.cacheDir === false ? [] : [resolve(options.cacheDir)]),
  ];
  const spawner = processSpawner({
    heapMb: options.heapMb,
    read: [
      dirname(resolve(options.graph)),
      resolve(options.selection.base), // holds every input
      ...written,
      fileURLToPath(new URL("..", import.meta.url)), // partgraph itself, with its node_modules
    ],
    write: written,
    net: options.remote ? [new URL(options.remote.url).host] : [],
    interruptible: options.signal !== undefined,
  });
  if (typeof spawner === "string") throw new Deno.errors.NotCapable(spawner);
  return spawner;
}

/**
 * The inputs in the order the pool starts them, with their sizes: largest file first (ties by path),
 * so the batch does not end with one worker on a big input while the others have nothing left. Files
 * that cannot be read go last (size 0); their jobs fail as in a single run.
 */
async function largestFirst(inputs: readonly BatchInput[]): Promise<{ input: BatchInput; bytes: number }[]> {
  const sizes = await Promise.all(inputs.map(async (input) => {
    try {
      return (await Deno.stat(input.path)).size;
    } catch {
      return -1;
    }
  }));
  const order = inputs.map((input, i) => ({ input, size: sizes[i] }));
  order.sort((a, b) =>
    b.size - a.size || (a.input.rel < b.input.rel ? -1 : a.input.rel > b.input.rel ? 1 : 0)
  );
  return order.map(({ input, size }) => ({ input, bytes: Math.max(size, 0) }));
}

function sum(done: readonly [string, JobResult][], count: (result: JobResult) => number): number {
  return done.reduce((total, [, result]) => total + count(result), 0);
}

/**
 * SHA-256 of a text's UTF-8 as lower-case hex, as `sha256Hex` gives it, by WebCrypto: the first
 * `sha256Hex` loads node:crypto and the Node modules under it, 50-150 ms of the batch's main thread
 * at load 13 (WebCrypto is in Deno's runtime: under 1 ms), for the one or two files of a graph.
 */
async function textDigest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
