/**
 * `partgraph batch`: a graph over many inputs (`--each`), sharded with `--shard I/N`,
 * `partgraph batch --merge` to join shard manifests, and `verify` of a batch manifest.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, loadGraph } from "../runtime/api.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { atomicWrite } from "../runtime/fs.ts";
import { TOOL_VERSIONS } from "../runtime/version.ts";
import {
  EXIT,
  inRebuildFolder,
  type Opts,
  parseSets,
  readManifestFile,
  remoteFromCli,
  requireWriteAccess,
  rerunWith,
  UsageError,
  verifyVerdict,
} from "./shared.ts";
import { caseOnlyHint, expandEach, SelectionError } from "../batch/inputs.ts";
import { WorkersWedged } from "../batch/left_running.ts";
import { orWedged, reportWedged } from "./wedged.ts";
import { inShard, parseShard, type Shard } from "../batch/shard.ts";
import { type BatchEvent, type BatchOptions, runBatch } from "../batch/batch.ts";
import {
  type BatchManifest,
  batchManifestProblem,
  compareBatchManifests,
  formatManifest,
  mergeManifests,
} from "../batch/manifest.ts";
import { liveProgress, logProgress, summaryText } from "../batch/progress.ts";
import { whyNoWorkerProcesses } from "../batch/pool.ts";
import type { SpawnMember } from "../batch/member.ts";
import { interruptedExitCode, listenForInterrupts } from "./interrupt.ts";

/** Another pool for a batch and its start limit (tests: a fake pool, as `runBatch` takes one). */
export interface Pooled {
  readonly spawnMember: SpawnMember;
  readonly startLimitMs: number;
}

/** Runs `partgraph batch`; resolves with the exit code. `pooled`: see {@link Pooled}. */
export async function batchCommand(rest: string[], opts: Opts, pooled?: Pooled): Promise<number> {
  if (opts.merge) return await mergeCommand(rest, opts);
  if (rest.length !== 1) {
    throw new UsageError(`batch expects one graph file, found ${rest.join(" ") || "none"}`);
  }
  if (!opts.each) {
    throw new UsageError(
      "batch needs --each NAME=<glob>, --each NAME=@list.txt or --each NAME=@- (a list on stdin)",
    );
  }
  const graphPath = rest[0];
  const outDir = opts.out ?? DEFAULT_OUT_DIR;
  const cacheDir = opts["no-cache"] ? undefined : opts["cache-dir"] ?? DEFAULT_CACHE_DIR;
  const manifestPath = opts.manifest ?? join(outDir, "batch.manifest.json");
  await requireWriteAccess([outDir, ...(cacheDir ? [cacheDir] : []), manifestPath]);
  let shard: Shard | undefined;
  try {
    shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const jobs = jobsOption(opts);
  const timeoutMs = inputTimeoutMs(opts);
  const pool = poolOptions(opts, [outDir, ...(cacheDir ? [cacheDir] : [])]);
  let selection;
  try {
    // Neither the outputs nor the cache of this batch (or of an earlier run of it) are inputs.
    selection = await expandEach(opts.each, Deno.cwd(), [outDir, ...(cacheDir ? [cacheDir] : [])]);
  } catch (error) {
    if (error instanceof SelectionError) throw new UsageError(error.message, false);
    throw error;
  }
  if (selection.caseOnly?.length) {
    // A tree from Windows mixes cases (`SHIP.CMP` beside `ship.cmp`): say what the glob passed over.
    console.error(
      `warning: --each ${selection.name}: ${selection.caseOnly.length} file(s) match only ignoring case ` +
        `and are not inputs: ${caseOnlyHint(selection.caseOnly)}`,
    );
  }
  for (const { rel, reason } of selection.unread ?? []) {
    console.error(
      `warning: --each ${selection.name}: folder '${rel}' could not be read, so no file in it is an input: ${reason}`,
    );
  }
  const remote = await remoteFromCli(opts);
  const source = await loadGraph(graphPath);
  const inputs = await parseSets(opts.set ?? [], source.json as GraphFile);
  const progress = batchProgress(opts, inShard(selection.inputs, shard).length);
  const interruption = listenForInterrupts();
  const result = await orWedged(runBatch({
    graph: graphPath,
    selection,
    inputs,
    sets: opts.set ?? [],
    outDir,
    cacheDir: cacheDir ?? false,
    noCache: opts["no-cache"],
    jobs,
    shard,
    failFast: opts["fail-fast"],
    failOnWarning: opts["fail-on-warning"],
    inputTimeoutMs: timeoutMs,
    ...pool,
    remote,
    ...progress.sinks,
    nodeEvents: opts.json,
    signal: interruption.signal,
    startLimitMs: pooled?.startLimitMs,
  }, pooled?.spawnMember)).finally(interruption.dispose);
  progress.finish();
  // Deno workers can no longer start (see batch/left_running.ts).
  if (result instanceof WorkersWedged) return reportWedged(result, "batch", opts.json);
  const { manifest, summary } = result;
  const failures = Object.entries(manifest.inputs).filter(([, r]) => !r.ok).map(([input, r]) => ({
    input,
    message: (r.error as { message?: string } | undefined)?.message ?? "failed",
  }));
  const signal = interruption.received();
  if (signal && summary.interrupted) {
    // A manifest of part of the batch would pass for the whole one: none is written.
    if (opts.json) console.log(JSON.stringify({ event: "summary", ...summary, manifest: null }));
    else {
      if (!opts.quiet) console.error(summaryText(summary, failures));
      console.error(
        `interrupted by ${signal}: ${summary.notRun} of ${summary.inputs} inputs not run, no manifest written` +
          " (a re-run takes what finished from the cache)",
      );
    }
    return interruptedExitCode(signal);
  }
  await atomicWrite(resolve(manifestPath), new TextEncoder().encode(formatManifest(manifest)));
  if (opts.json) console.log(JSON.stringify({ event: "summary", ...summary, manifest: manifestPath }));
  else if (!opts.quiet) {
    console.error(summaryText(summary, failures));
    console.error(`manifest: ${manifestPath}`);
  }
  return summary.failed || summary.notRun ? EXIT.failed : EXIT.ok;
}

/** `batch --merge m1.json m2.json … --out merged.json`: exit 1 when inputs are missing or duplicated. */
async function mergeCommand(files: string[], opts: Opts): Promise<number> {
  if (!files.length) throw new UsageError("batch --merge expects the shard manifests to join");
  if (!opts.out) throw new UsageError("batch --merge needs --out FILE for the merged manifest");
  await requireWriteAccess([opts.out]);
  const manifests: BatchManifest[] = [];
  for (const file of files) {
    manifests.push(await readManifestFile<BatchManifest>(file, "batch manifest", batchManifestProblem));
  }
  let merged;
  try {
    merged = mergeManifests(manifests);
  } catch (error) {
    throw new UsageError((error as Error).message, false);
  }
  await atomicWrite(resolve(opts.out), new TextEncoder().encode(formatManifest(merged.manifest)));
  const { missing, duplicated } = merged;
  if (opts.json) {
    console.log(JSON.stringify({ ok: !missing.length && !duplicated.length, missing, duplicated }));
  } else {
    for (const d of duplicated) {
      const why = d.conflicting
        ? "; they disagree on what it gave: not reproducible, or the input changed"
        : "";
      console.error(`duplicated: ${d.input} (in ${d.manifests.map((i) => files[i]).join(", ")}${why})`);
    }
    for (const m of missing) console.error(`missing: ${m}`);
    console.error(
      `merged ${files.length} manifests: ${
        Object.keys(merged.manifest.inputs).length
      } of ${merged.manifest.selection.inputs.length} inputs → ${opts.out}`,
    );
  }
  return missing.length || duplicated.length ? EXIT.failed : EXIT.ok;
}

/**
 * `verify` of a batch (or shard, or merged) manifest: rebuilds every input it covers, from the same
 * paths, graph and `--set` values, with no cache read, in a fresh folder inside `--out`, and compares
 * each input's digest, outcome, files, warnings and error. Exit 1 when anything differs, or when the
 * rebuild's Deno workers can no longer start. `pooled`: see {@link Pooled}.
 */
export async function verifyBatch(recorded: BatchManifest, opts: Opts, pooled?: Pooled): Promise<number> {
  const remote = await remoteFromCli(opts); // uploads what it rebuilt, as `verify` of a run does
  const pool = poolOptions(opts, [opts.out ?? DEFAULT_OUT_DIR]);
  const jobs = jobsOption(opts);
  const source = await loadGraph(recorded.graph.file);
  const inputs = await parseSets([...recorded.sets], source.json as GraphFile);
  const covered = Object.entries(recorded.inputs).map(([rel, record]) => ({ path: record.path, rel }));
  // A batch reads regular files only (its globs and lists take nothing else): a manifest naming a pipe
  // or a device (damaged, or hostile) would have the rebuild wait for ever or read without end.
  for (const { path, rel } of covered) {
    const info = await Deno.stat(path).catch(() => undefined);
    if (info && !info.isFile) {
      throw new UsageError(`the manifest's input '${rel}' is '${path}', which is not a regular file`, false);
    }
  }
  if (!covered.length) {
    // A shard that drew no input: nothing to rebuild, but a manifest of other tools is still one.
    const differences = compareBatchManifests(recorded, { ...recorded, tools: TOOL_VERSIONS });
    return verifyVerdict(differences, "0 inputs (the manifest covers none)", opts);
  }
  const selection = { name: recorded.selection.each, base: recorded.selection.base, inputs: covered };
  const progress = batchProgress(opts, covered.length, true);
  const interruption = listenForInterrupts();
  const differences = await orWedged(inRebuildFolder(opts, async (outDir) => {
    const rebuilt = await runBatch({
      graph: recorded.graph.file,
      selection,
      inputs,
      sets: recorded.sets,
      outDir,
      cacheDir: false,
      noCache: !remote,
      refresh: true,
      remote,
      inputTimeoutMs: inputTimeoutMs(opts),
      jobs,
      ...pool,
      ...progress.sinks,
      signal: interruption.signal,
      startLimitMs: pooled?.startLimitMs,
    }, pooled?.spawnMember).finally(() => {
      interruption.dispose();
      progress.finish(); // a wedged rebuild too: its error is printed below the line
    });
    return rebuilt.summary.interrupted ? undefined : compareBatchManifests(recorded, rebuilt.manifest);
  }));
  // As in `batch`: Deno workers can no longer start, so nothing more can be rebuilt or verified.
  if (differences instanceof WorkersWedged) return reportWedged(differences, "verify", opts.json);
  if (!differences) { // interrupted: the rebuild is incomplete
    const signal = interruption.received()!;
    if (opts.json) console.log(JSON.stringify({ ok: false, interrupted: signal }));
    else console.error(`interrupted by ${signal}: nothing verified`);
    return interruptedExitCode(signal);
  }
  const files = Object.values(recorded.inputs).reduce((n, r) => n + Object.keys(r.writes).length, 0);
  const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const verified = `${counted(covered.length, "input")}, ${counted(files, "file")} rebuilt identically`;
  return verifyVerdict(differences, verified, opts);
}

/**
 * The pool: worker processes where this process may start them (an input that exhausts its heap or
 * crashes Deno then fails alone), else Deno workers; `--processes` insists on processes and
 * `--workers` on Deno workers. `--max-heap MB` limits each process. Fails early, with the command that
 * would work, when processes are asked for and Deno may not start itself (`written`: the folders the
 * command writes, for that command).
 */
function poolOptions(opts: Opts, written: string[]): { processes: boolean; heapMb?: number } {
  if (opts.processes && opts.workers) throw new UsageError("--processes and --workers exclude each other");
  const heapMb = opts["max-heap"] === undefined ? undefined : Number(opts["max-heap"]);
  if (heapMb !== undefined && !(Number.isInteger(heapMb) && heapMb >= 64)) {
    throw new UsageError(`--max-heap expects a whole number of MB >= 64, found '${opts["max-heap"]}'`);
  }
  if (opts.workers) {
    if (heapMb !== undefined) throw new UsageError("--max-heap limits worker processes, not --workers");
    return { processes: false };
  }
  const unavailable = whyNoWorkerProcesses();
  if (!unavailable) return { processes: true, heapMb };
  if (!opts.processes && heapMb === undefined) return { processes: false };
  throw new UsageError(
    `${opts.processes ? "--processes" : "--max-heap"}: ${unavailable}; grant running Deno itself:\n` +
      rerunWith(`--allow-read --allow-write=${written.join(",")} --allow-run=${Deno.execPath()}`),
    false,
  );
}

/**
 * How a batch of `total` inputs shows its progress: NDJSON events on stdout with `--json` (what nodes
 * print then goes to stderr), a live line on a terminal, log lines elsewhere (a CI log sees each
 * failure as it happens), nothing with `--quiet`. A rebuild for `verify` (`verifying`) keeps stdout
 * for its verdict and a log for its differences: it shows only the live line. Call `finish` before
 * printing.
 */
function batchProgress(opts: Opts, total: number, verifying = false): {
  sinks: Pick<BatchOptions, "onEvent" | "onOutput">;
  finish: () => void;
} {
  const none = () => {};
  if (opts.json) {
    const onEvent = verifying ? undefined : (event: BatchEvent) => console.log(JSON.stringify(event));
    return { sinks: { onEvent, onOutput: (_, text) => console.error(text) }, finish: none };
  }
  if (opts.quiet) return { sinks: {}, finish: none };
  if (Deno.stderr.isTerminal()) {
    const live = liveProgress(total);
    return { sinks: { onEvent: live.onEvent, onOutput: live.onOutput }, finish: live.finish };
  }
  return { sinks: { onEvent: verifying ? undefined : logProgress(total) }, finish: none };
}

/** `--jobs N`; undefined without it (the pool's own size). */
function jobsOption(opts: Opts): number | undefined {
  if (opts.jobs === undefined) return undefined;
  const jobs = Number(opts.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new UsageError(`--jobs expects a whole number >= 1, found '${opts.jobs}'`);
  }
  return jobs;
}

/** `--timeout SECONDS` (per input) in milliseconds; undefined without one. */
function inputTimeoutMs(opts: Opts): number | undefined {
  if (opts.timeout === undefined) return undefined;
  const ms = Number(opts.timeout) * 1000;
  if (!(ms > 0)) throw new UsageError(`--timeout expects seconds per input, found '${opts.timeout}'`);
  return ms;
}
