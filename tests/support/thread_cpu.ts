/**
 * Per-thread CPU accounting of this process, read from Linux's /proc while something runs: how long
 * each batch worker was on a core, waiting for one, or blocked, and how much CPU V8's own background
 * threads (optimizing compilers, concurrent GC) and the main thread took meanwhile. Benchmarks print
 * it so that a wall-clock ratio comes with the reason for it.
 *
 * @module
 */

/** CPU figures of one sampled interval, in milliseconds. */
export interface ThreadFigures {
  readonly wallMs: number;
  /** Each Deno worker thread (`worker-N`) seen during the interval. */
  readonly workers: readonly {
    /** On a core. */
    readonly cpuMs: number;
    /** Runnable, waiting for a core (other threads or processes had them). */
    readonly waitMs: number;
    /** Neither: waiting on I/O, a lock or a message. */
    readonly blockedMs: number;
  }[];
  /** V8's platform threads ("V8 DefaultWorker"): background compilation and GC. */
  readonly v8BackgroundMs: number;
  /** Every other thread: the one running the caller, Tokio's for file and network I/O. */
  readonly restMs: number;
}

interface Sample {
  readonly name: string;
  readonly runNs: number;
  readonly waitNs: number;
}

/**
 * Starts sampling every `intervalMs`; `stop` returns the figures since the start. Undefined where
 * /proc cannot be read (not Linux). Deno lets a program read its own /proc entries only with
 * --allow-all, so a `grep` subprocess reads them (--allow-run). A thread's last `intervalMs`
 * before it exits can be missed.
 *
 * @example
 * ```ts
 * const sampler = await threadSampler();
 * await runBatch(options);
 * console.log(await sampler?.stop());
 * ```
 */
export async function threadSampler(
  intervalMs = 100,
): Promise<{ stop: () => Promise<ThreadFigures> } | undefined> {
  const first = await readThreads();
  if (!first) return undefined;
  const started = performance.now();
  const last = new Map(first);
  const seen = new Map<string, { from: number; to: number }>();
  const sample = async () => {
    const threads = await readThreads();
    const now = performance.now();
    for (const [tid, s] of threads ?? []) {
      last.set(tid, s);
      const span = seen.get(tid);
      if (span) span.to = now;
      else seen.set(tid, { from: first.has(tid) ? started : now - intervalMs / 2, to: now });
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await sample();
      const ms = (tid: string, key: "runNs" | "waitNs") =>
        (last.get(tid)![key] - (first.get(tid)?.[key] ?? 0)) / 1e6;
      const workers = [];
      let v8BackgroundMs = 0, restMs = 0;
      for (const [tid, s] of last) {
        const cpuMs = ms(tid, "runNs");
        if (/^worker-\d+$/.test(s.name)) {
          if (cpuMs === 0) continue; // a worker of an earlier run, still shutting down
          const span = seen.get(tid)!;
          const waitMs = ms(tid, "waitNs");
          workers.push({ cpuMs, waitMs, blockedMs: Math.max(0, span.to - span.from - cpuMs - waitMs) });
        } else if (s.name.startsWith("V8 ")) v8BackgroundMs += cpuMs;
        else restMs += cpuMs;
      }
      return { wallMs: performance.now() - started, workers, v8BackgroundMs, restMs };
    },
  };
}

/** Every thread's name and scheduler times (`schedstat`: on-CPU and run-queue ns), or undefined. */
async function readThreads(): Promise<Map<string, Sample> | undefined> {
  if (Deno.build.os !== "linux") return undefined;
  const task = `/proc/${Deno.pid}/task`;
  let stdout;
  try {
    ({ stdout } = await new Deno.Command("sh", {
      args: ["-c", `grep -H '' ${task}/*/comm ${task}/*/schedstat`],
      stdout: "piped",
      stderr: "null",
    }).output());
  } catch {
    return undefined;
  }
  const names = new Map<string, string>();
  const times = new Map<string, number[]>();
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    const match = /^\/proc\/\d+\/task\/(\d+)\/(comm|schedstat):(.*)$/.exec(line);
    if (!match) continue;
    if (match[2] === "comm") names.set(match[1], match[3]);
    else times.set(match[1], match[3].split(" ").map(Number));
  }
  const threads = new Map<string, Sample>();
  for (const [tid, [runNs, waitNs]] of times) {
    const name = names.get(tid);
    if (name !== undefined) threads.set(tid, { name, runNs, waitNs });
  }
  return threads.size ? threads : undefined;
}
