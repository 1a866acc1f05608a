/**
 * How a batch waits for one job: its result, or a failure once the time limit per input passes or the
 * batch is interrupted, and the result a job gets that its worker could not give.
 *
 * @module
 */
import type { RunEvent } from "../runtime/events.ts";
import type { JobResult } from "./messages.ts";
import { RUNS_ON } from "./left_running.ts";

/**
 * The result of a job its worker could not give: it died, or overran the time limit (`running`: the
 * nodes it was in then, from {@link RunningNodes}, named so the user knows where it stuck;
 * `runsOn`: its Deno worker could not be stopped, see `left_running.ts`).
 */
export function failedJob(
  error: unknown,
  started: number,
  running: readonly string[] = [],
  runsOn = false,
): JobResult {
  const within = running.length ? ` while ${running.join(", ")} ran` : "";
  const stopped = runsOn ? `its worker ${RUNS_ON}` : "its worker was stopped";
  const message = error instanceof TimeLimit
    ? error.starting
      ? `its worker did not start it within ${error.ms / 1000} s; ${stopped}`
      : `no result within ${error.ms / 1000} s (the time limit per input)${within}; ${stopped}`
    : error instanceof Error
    ? error.message
    : String(error);
  return {
    ok: false,
    digest: null,
    writes: [],
    warnings: [],
    error: { message },
    nodes: 0,
    cached: 0,
    remote: 0,
    computeMs: 0,
    ms: Math.round(performance.now() - started),
  };
}

/** The rejection of {@link settle} when the time limit passed first. */
export class TimeLimit extends Error {
  /** `starting`: the limit on the worker starting the job passed, not the job's own. */
  constructor(readonly ms: number, readonly starting = false) {
    super(starting ? `not started within ${ms} ms` : `no result within ${ms} ms`);
  }
}

/**
 * Least time a worker is given to load the graph's code and start a job (a loaded machine can stretch
 * that to seconds), however short the time limit per input; and the limit on that when inputs have
 * none: a worker stuck there (a node module that never ends loading) is replaced.
 */
const START_LIMIT_MS = 60_000;

/**
 * Least time a fresh worker is given to come up before it has the job: Deno's worker or process
 * starting and partgraph's runtime loading, 3–10 s for a Deno worker or process at load 24 on two
 * cores. A worker that never comes up (Deno has had workers that never start: denoland/deno#32034)
 * is replaced.
 */
const BOOT_LIMIT_MS = 60_000;

/** The rejection of {@link settle} when the batch was interrupted first. */
export class Interrupted extends Error {}

/**
 * `work`, or a rejection once `ms` have passed first ({@link TimeLimit}; no limit when undefined) or
 * `signal` aborts first ({@link Interrupted}). With `started`, the `ms` run from when it resolves
 * (the worker has the job), and the wait before that is limited to `ms` or `startLimitMs`, whichever
 * is longer (`startLimitMs` alone without `ms`): an input is not failed for its worker's start-up,
 * and a worker that never starts cannot stall the batch. With `loading` too, that start limit runs
 * from when `loading` resolves (the worker is up and loads the graph's code), and the wait before it
 * (the worker coming up) is limited to the start limit or {@link BOOT_LIMIT_MS}, whichever is longer:
 * a limit meant for a stuck module is not spent on a loaded machine's slow start of a fresh worker.
 */
export async function settle<T>(
  work: Promise<T>,
  ms: number | undefined,
  signal: AbortSignal | undefined,
  started?: Promise<void>,
  startLimitMs = START_LIMIT_MS,
  loading?: Promise<void>,
): Promise<T> {
  if (ms === undefined && !signal && !started) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  let over = false, begun = false;
  const cut = new Promise<never>((_, reject) => {
    const limit = (after: number, starting: boolean) =>
      setTimeout(() => reject(new TimeLimit(after, starting)), after);
    if (!started) {
      if (ms !== undefined) timer = limit(ms, false);
    } else {
      const startLimit = Math.max(ms ?? 0, startLimitMs);
      timer = limit(loading ? Math.max(startLimit, BOOT_LIMIT_MS) : startLimit, true);
      loading?.then(() => {
        if (over || begun) return;
        clearTimeout(timer);
        timer = limit(startLimit, true);
      });
      started.then(() => {
        if (over) return;
        begun = true;
        clearTimeout(timer);
        if (ms !== undefined) timer = limit(ms, false);
      });
    }
    onAbort = () => reject(new Interrupted());
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cut]);
  } finally {
    over = true;
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }
}

/** The nodes of one job running now, from its node events: what a job that overran was stuck in. */
export class RunningNodes {
  readonly #running = new Map<string, string>();

  /** Takes one event of the job. */
  note(event: RunEvent): void {
    if (event.event !== "node") return;
    if (event.state === "running") this.#running.set(event.id, event.type);
    else this.#running.delete(event.id);
  }

  /** The running nodes as a message names them: `` `rig` (rig.parts) ``. */
  ids(): string[] {
    return [...this.#running].map(([id, type]) => `node \`${id}\` (${type})`);
  }
}
