/**
 * Batch progress for people: one live status line on a terminal (done/total, rate, ETA, failures,
 * the inputs running now), lines a log can keep elsewhere, and a summary table at the end.
 *
 * @module
 */
import type { BatchEvent, BatchSummary } from "./batch.ts";

/** A live status line: its progress sink, the way to print above it, and its end. */
export interface LiveProgress {
  readonly onEvent: (event: BatchEvent) => void;
  /** Prints what a node printed above the status line, which is drawn again below it. */
  readonly onOutput: (stream: "stdout" | "stderr", text: string) => void;
  /** Clears the line; call it before printing anything else. */
  readonly finish: () => void;
}

/**
 * A progress sink redrawing one status line on stderr.
 *
 * @example
 * ```ts
 * const progress = liveProgress(142);
 * await runBatch({ ...options, onEvent: progress.onEvent, onOutput: progress.onOutput });
 * progress.finish();
 * ```
 */
export function liveProgress(total: number): LiveProgress {
  const started = performance.now();
  const running = new Set<string>();
  let done = 0, failed = 0, drawn = 0;
  const encoder = new TextEncoder();
  const draw = () => {
    const now = [...running].slice(0, 3).join(", ") + (running.size > 3 ? ", …" : "");
    const width = Deno.consoleSize?.().columns ?? 100;
    const line = statusText(done, total, failed, started) + (now ? ` — ${now}` : "");
    Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line.slice(0, width - 1)}`));
    drawn = performance.now();
  };
  return {
    onEvent(event) {
      if (event.event === "remote-warning") {
        Deno.stderr.writeSync(encoder.encode(`\r\x1b[2Kwarning: ${event.message}\n`));
        return draw();
      }
      if (event.event !== "input") return;
      if (event.state === "running") running.add(event.input);
      else {
        running.delete(event.input);
        done++;
        if (event.state === "failed") failed++;
      }
      // Redraw at most ten times a second: a fast batch must not spend its time on the terminal.
      if (performance.now() - drawn > 100 || done === total) draw();
    },
    onOutput(stream, text) {
      Deno.stderr.writeSync(encoder.encode("\r\x1b[2K"));
      (stream === "stdout" ? console.log : console.error)(text);
      draw();
    },
    finish() {
      Deno.stderr.writeSync(encoder.encode("\r\x1b[2K"));
    },
  };
}

/** Seconds between two status lines of {@link logProgress} at the least, when no tenth is crossed. */
const LOG_EVERY_S = 30;

/**
 * Batch progress for a log (CI, a file): a line for each failure as it happens, and a status line
 * (done/total, rate, ETA, failures) at each tenth of the inputs and at least every 30 s, on stderr.
 *
 * @example
 * ```ts
 * await runBatch({ ...options, onEvent: logProgress(142) });
 * ```
 */
export function logProgress(total: number): (event: BatchEvent) => void {
  const started = performance.now();
  let done = 0, failed = 0, tenths = 0, logged = started;
  return (event) => {
    if (event.event === "remote-warning") return console.error(`warning: ${event.message}`);
    if (event.event !== "input" || event.state === "running") return;
    done++;
    if (event.state === "failed") {
      failed++;
      console.error(`failed: ${event.input}: ${(event.error as { message?: string })?.message ?? "failed"}`);
    }
    const now = performance.now();
    if (Math.floor(10 * done / total) > tenths || now - logged >= LOG_EVERY_S * 1000) {
      tenths = Math.floor(10 * done / total);
      logged = now;
      console.error(statusText(done, total, failed, started));
    }
  };
}

/** `[done/total] rate ETA failed`, as both progress forms print it. */
function statusText(done: number, total: number, failed: number, started: number): string {
  const rate = done / Math.max((performance.now() - started) / 1000, 1e-3);
  const eta = done ? Math.round((total - done) / rate) : undefined;
  return `[${done}/${total}] ${rate.toFixed(1)}/s ETA ${
    eta === undefined ? "?" : `${eta}s`
  } failed ${failed}`;
}

/** The end-of-batch table: counts and time, the slowest inputs, and every failure. */
export function summaryText(
  summary: BatchSummary,
  failures: readonly { input: string; message: string }[],
): string {
  const rows = [
    ["inputs", "ok", "failed", "cached", "not run", "time"],
    [
      summary.inputs,
      summary.ok,
      summary.failed,
      summary.cached,
      summary.notRun,
      `${(summary.ms / 1000).toFixed(1)} s`,
    ]
      .map(String),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) => r.map((cell, c) => cell.padStart(widths[c])).join("  "));
  if (summary.slowest.length) {
    lines.push("slowest:");
    for (const s of summary.slowest) lines.push(`  ${(s.ms / 1000).toFixed(2).padStart(7)} s  ${s.input}`);
  }
  const busy = summary.workers.map((w) => `${Math.round(100 * w.busyMs / Math.max(w.ms, 1))}%`);
  const kind = summary.pool === "processes" ? " processes" : "";
  if (busy.length) lines.push(`workers: ${busy.length}${kind}, busy ${busy.join(", ")} of their time`);
  for (const f of failures) lines.push(`failed: ${f.input}: ${f.message}`);
  return lines.join("\n");
}
