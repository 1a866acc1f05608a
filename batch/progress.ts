/**
 * Batch progress for people: one live status line on a terminal (done/total, rate, ETA, failures,
 * the inputs running now), lines a log can keep elsewhere, and a summary table at the end.
 *
 * @module
 */
import type { BatchEvent, BatchSummary } from "./batch.ts";
import { RUNS_ON, whereText } from "./left_running.ts";

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
  const left = new TimeLeft(total);
  let done = 0, failed = 0, drawn = 0;
  const encoder = new TextEncoder();
  const draw = () => {
    const now = [...running].slice(0, 3).join(", ") + (running.size > 3 ? ", …" : "");
    const width = Deno.consoleSize?.().columns ?? 100;
    const line = statusText(done, total, failed, started, left) + (now ? ` — ${now}` : "");
    Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line.slice(0, width - 1)}`));
    drawn = performance.now();
  };
  return {
    onEvent(event) {
      const warning = warningText(event);
      if (warning) {
        Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${warning}\n`));
        return draw();
      }
      left.observe(event);
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
  const left = new TimeLeft(total);
  let done = 0, failed = 0, tenths = 0, logged = started;
  return (event) => {
    const warning = warningText(event);
    if (warning) return console.error(warning);
    left.observe(event);
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
      console.error(statusText(done, total, failed, started, left));
    }
  };
}

/** The line a batch's warning event prints as, or undefined for another event. */
function warningText(event: BatchEvent): string | undefined {
  if (event.event === "remote-warning") return `warning: ${event.message}`;
  if (event.event === "worker-stuck") {
    const where = event.in.length ? `, ${event.in.join(", ")}` : "";
    return `warning: the worker given ${event.input} did not start it within ${event.seconds} s (stuck starting${where}); it was given up and ${event.input} runs again on a fresh worker`;
  }
  if (event.event === "worker-left-running") {
    const where = whereText(event);
    const lock = event.starting
      ? ", and node_modules' lock held if a module's loading is what never ends"
      : "";
    return `warning: the Deno worker given ${event.input}${where} ${RUNS_ON}; it keeps a core busy if it spins${lock}, until the batch ends (worker processes, --processes, are killed instead)`;
  }
  if (event.event !== "worker-died") return undefined;
  const after = event.after
    ? ` (it ran ${event.after} before: a timer or promise that input's nodes left may have failed)`
    : "";
  return `warning: the worker running ${event.input} died${after}: ${event.message}; ${event.input} runs again on a fresh worker`;
}

/** `[done/total] rate ETA failed`, as both progress forms print it. */
function statusText(done: number, total: number, failed: number, started: number, left: TimeLeft): string {
  const elapsedMs = performance.now() - started;
  const rate = done / Math.max(elapsedMs / 1000, 1e-3);
  const eta = left.seconds(elapsedMs);
  return `[${done}/${total}] ${rate.toFixed(1)}/s ETA ${
    eta === undefined ? "?" : `${Math.round(eta)}s`
  } failed ${failed}`;
}

/**
 * The time a batch has left, from what its finished inputs took. Counting inputs alone misleads twice
 * over: the largest files start first (so an early rate is too slow), and a small file costs more
 * than its share of bytes. So each input's time is fitted as a fixed part plus a part per byte (least
 * squares over the inputs finished), summed over the inputs left, and divided by how many inputs have
 * been running at once on average. Without sizes (no `batch` event), every input counts the same.
 *
 * @example
 * ```ts
 * const left = new TimeLeft(3);
 * left.observe({ event: "batch", inputs: 3, bytes: 600 });
 * left.observe({ event: "input", input: "a.cmp", state: "done", bytes: 400, ms: 420 });
 * left.observe({ event: "input", input: "b.cmp", state: "done", bytes: 100, ms: 120 });
 * console.log(left.seconds(540)); // c.cmp, 100 bytes: 0.12
 * ```
 */
export class TimeLeft {
  #inputs: number;
  #bytes = NaN;
  /** Sums over the inputs finished, x their bytes and y their ms: n, Σx, Σy, Σx², Σxy. */
  #n = 0;
  #sx = 0;
  #sy = 0;
  #sxx = 0;
  #sxy = 0;

  /** `inputs`: how many the batch runs (its `batch` event, when observed, says it again). */
  constructor(inputs: number) {
    this.#inputs = inputs;
  }

  /** Takes in a batch event: the batch's size, and each input that finished. */
  observe(event: BatchEvent): void {
    if (event.event === "batch") {
      this.#inputs = event.inputs;
      this.#bytes = event.bytes;
    }
    if (event.event !== "input" || event.state === "running") return;
    const x = event.bytes, y = event.ms ?? 0;
    this.#n++;
    this.#sx += x;
    this.#sy += y;
    this.#sxx += x * x;
    this.#sxy += x * y;
  }

  /** Seconds left, `elapsedMs` into the batch; undefined until an input has finished. */
  seconds(elapsedMs: number): number | undefined {
    const n = this.#n;
    if (!n || this.#sy <= 0) return n ? 0 : undefined;
    let perInput = this.#sy / n, perByte = 0;
    const spread = n * this.#sxx - this.#sx * this.#sx;
    if (Number.isFinite(this.#bytes) && n >= 2 && spread > 1e-9 * n * this.#sxx) {
      perByte = (n * this.#sxy - this.#sx * this.#sy) / spread;
      perInput = (this.#sy - perByte * this.#sx) / n;
      // A fit with a negative part (noise over few inputs) falls back to the simpler rule it leans to.
      if (perByte < 0) [perInput, perByte] = [this.#sy / n, 0];
      else if (perInput < 0) [perInput, perByte] = [0, this.#sy / this.#sx];
    }
    const inputsLeft = Math.max(this.#inputs - n, 0);
    const bytesLeft = Number.isFinite(this.#bytes) ? Math.max(this.#bytes - this.#sx, 0) : 0;
    const workMs = perInput * inputsLeft + perByte * bytesLeft;
    const atOnce = this.#sy / Math.max(elapsedMs, 1); // inputs running side by side, on average
    return workMs / atOnce / 1000;
  }
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
  const { nodes } = summary;
  if (nodes.total) {
    const remote = nodes.remote ? ` (${nodes.remote} from the remote)` : "";
    lines.push(`nodes: ${nodes.total}, ${nodes.cached} of them from a cache${remote}`);
  }
  const busy = summary.workers.map((w) => `${Math.round(100 * w.busyMs / Math.max(w.ms, 1))}%`);
  const kind = summary.pool === "processes" ? (busy.length === 1 ? " process" : " processes") : "";
  if (busy.length) lines.push(`workers: ${busy.length}${kind}, busy ${busy.join(", ")} of their time`);
  for (const f of failures) lines.push(`failed: ${f.input}: ${f.message}`);
  return lines.join("\n");
}
