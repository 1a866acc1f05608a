/**
 * Watch mode: run a graph, then run it again whenever the graph files or any file it read change.
 * The in-memory tier is kept between rounds, so a tweak re-runs only the nodes it affects.
 *
 * @module
 */
import { resolve } from "node:path";
import { type GraphRun, runGraph, type RunGraphOptions } from "./api.ts";
import { valueDigest } from "./canonical.ts";
import { UNHASHED } from "./execute/files.ts";

/** What one round of {@link watchGraph} produced: a run, or the error that stopped it. */
export type WatchRound = { run: GraphRun; error?: undefined } | { run?: undefined; error: unknown };

/** Options of {@link watchGraph}. */
export interface WatchOptions extends RunGraphOptions {
  /** Ends the watch (the promise then resolves). */
  readonly signal: AbortSignal;
  /** Called after every round. */
  readonly onRound: (round: WatchRound) => void;
  /** Quiet time after a change before running again, in milliseconds (editors write in bursts). */
  readonly debounceMs?: number;
}

/**
 * Runs a graph file now and after every change to it, its node groups or the files its nodes read,
 * until `signal` aborts.
 *
 * @example
 * ```ts
 * import { createRegistry, watchGraph } from "./mod.ts";
 *
 * const stop = new AbortController();
 * await watchGraph("graphs/aircraft.json", {
 *   registry: createRegistry(),
 *   signal: stop.signal,
 *   onRound: (r) => (console.log(r.error ?? "ok"), stop.abort()),
 * });
 * ```
 */
export async function watchGraph(graphPath: string, options: WatchOptions): Promise<void> {
  const memory = options.memory ?? new Map();
  let watched = [resolve(graphPath)];
  let read = new Map<string, string>();
  while (!options.signal.aborted) {
    const began = Date.now();
    try {
      const run = await runGraph(graphPath, { ...options, memory });
      watched = [
        ...run.plan.files.map((f) => f.file),
        // Folder listings are recorded as "<folder>/*": watch the folder itself.
        ...run.reads.map((r) => r.path.endsWith("/*") ? r.path.slice(0, -2) : r.path),
      ];
      read = new Map([
        ...run.plan.files.flatMap((f) => f.text === undefined ? [] : [[f.file, textDigest(f.text)] as const]),
        ...run.reads.map((r) => [r.path, r.sha256] as const),
      ]);
      options.onRound({ run });
    } catch (error) {
      options.onRound({ error });
      watched = [...new Set([resolve(graphPath), ...watched])];
    }
    await nextChange(watched, options.signal, options.debounceMs ?? 100, { since: began, read });
  }
}

/**
 * How far a file's modification time may trail the clock: Linux stamps files from a coarse clock
 * that lags `Date.now()` by up to a timer tick (10 ms at 100 Hz), so a file saved just after a
 * round began can carry a time just before it (the fresh-clone CI missed such an edit this way).
 */
const MTIME_LAG_MS = 25;

/** The digest a file holding `text` has (as {@link valueDigest} gives for its bytes). */
function textDigest(text: string): string {
  return valueDigest(new TextEncoder().encode(text));
}

/** What a round saw: when it began, and the digest of each file it read (by absolute path). */
interface RoundSeen {
  readonly since: number;
  readonly read: ReadonlyMap<string, string>;
}

/**
 * Resolves after the first change to any of `paths` (then a quiet period), or when aborted. A path
 * modified since the round began counts as changed at once: an edit saved while the round ran, or
 * before the watcher below was set up, would otherwise wait for the next edit.
 */
async function nextChange(
  paths: string[],
  signal: AbortSignal,
  debounceMs: number,
  seen: RoundSeen,
): Promise<void> {
  const existing: string[] = [];
  for (const path of new Set(paths)) {
    if (await Deno.stat(path).then(() => true, () => false)) existing.push(path);
  }
  if (signal.aborted) return;
  if (!existing.length) {
    // Nothing to watch yet (the graph file was deleted): look again in a second.
    await new Promise<void>((done) => {
      const timer = setTimeout(done, 1000);
      signal.addEventListener("abort", () => (clearTimeout(timer), done()), { once: true });
    });
    return;
  }
  const watcher = Deno.watchFs(existing);
  const close = () => {
    try {
      watcher.close();
    } catch { /* already closed */ }
  };
  signal.addEventListener("abort", close, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (await modifiedSince(existing, seen)) return;
    await new Promise<void>((done) => {
      (async () => {
        for await (const event of watcher) {
          if (event.kind === "access") continue;
          clearTimeout(timer);
          timer = setTimeout(done, debounceMs);
        }
        done(); // the watcher was closed: aborted
      })();
    });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", close);
    close();
  }
}

/**
 * Whether any of `paths` changed after the round began (checked once the watcher is up). A time
 * within {@link MTIME_LAG_MS} of the start is ambiguous: a file the round read counts as changed
 * only when its bytes differ from what it read (when it hashed them), so a save just before the
 * round is no new round.
 */
async function modifiedSince(paths: readonly string[], seen: RoundSeen): Promise<boolean> {
  for (const path of paths) {
    const info = await Deno.stat(path).catch(() => undefined);
    if (!info?.mtime || info.mtime.getTime() < seen.since - MTIME_LAG_MS) continue;
    const digest = info.isFile ? seen.read.get(path) : undefined;
    if (digest === undefined || digest === UNHASHED) return true;
    if (await Deno.readFile(path).then(valueDigest, () => undefined) !== digest) return true;
  }
  return false;
}
