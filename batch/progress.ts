/**
 * Batch progress for people: one live status line on a terminal (done/total, rate, ETA, failures,
 * the inputs running now) and a summary table at the end.
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
    const seconds = (performance.now() - started) / 1000;
    const rate = done / Math.max(seconds, 1e-3);
    const eta = done ? Math.round((total - done) / rate) : undefined;
    const now = [...running].slice(0, 3).join(", ") + (running.size > 3 ? ", …" : "");
    const width = Deno.consoleSize?.().columns ?? 100;
    const line = `[${done}/${total}] ${rate.toFixed(1)}/s ETA ${eta === undefined ? "?" : `${eta}s`}` +
      ` failed ${failed}${now ? ` — ${now}` : ""}`;
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
