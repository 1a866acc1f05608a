/**
 * How a batch waits for one job: its result, or a failure once the time limit per input passes or the
 * batch is interrupted, and the result a job gets that its worker could not give.
 *
 * @module
 */
import type { JobResult } from "./job.ts";

/** The result of a job its worker could not give: it died, or overran the time limit. */
export function failedJob(error: unknown, started: number): JobResult {
  const message = error instanceof TimeLimit
    ? `no result within ${error.ms / 1000} s (the time limit per input); its worker was stopped`
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
  constructor(readonly ms: number) {
    super(`no result within ${ms} ms`);
  }
}

/** The rejection of {@link settle} when the batch was interrupted first. */
export class Interrupted extends Error {}

/**
 * `work`, or a rejection once `ms` have passed first ({@link TimeLimit}; no limit when undefined) or
 * `signal` aborts first ({@link Interrupted}).
 */
export async function settle<T>(
  work: Promise<T>,
  ms: number | undefined,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (ms === undefined && !signal) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<never>((_, reject) => {
    if (ms !== undefined) timer = setTimeout(() => reject(new TimeLimit(ms)), ms);
    onAbort = () => reject(new Interrupted());
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cut]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }
}
