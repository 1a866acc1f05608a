/**
 * Batch builds against the anchor users have today, a shell loop of one CLI run per input: the same
 * generated retail-shaped compounds (360 KiB each; 100 unless the first argument after `--` says
 * otherwise) through `graphs/freelancer.json`, no cache, as (a) one `partgraph run` process per input
 * (the baseline), (b) `batch --jobs 1`, (c) `batch --jobs 2`, (d) the same on worker processes
 * (`--processes`). Ratios against (a) and between (b) and (c) are what the README quotes. After the table, each batch run's wall time and per-thread CPU
 * (Linux): the workers' time on a core, waiting for one and blocked, and what V8's background threads
 * and the main thread took — the reason behind the ratio.
 *
 * ```sh
 * npx --yes deno@2.9.6 task bench tests/bench/batch_bench.ts -- 200
 * ```
 */
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { type ThreadFigures, threadSampler } from "../support/thread_cpu.ts";

const INPUTS = Number(Deno.args[0] ?? 100);
const root = Deno.makeTempDirSync({ prefix: "partgraph-batch-bench-" });
for (let i = 0; i < INPUTS; i++) {
  Deno.writeFileSync(
    join(root, `ship${i}.cmp`),
    realisticCmp(1000 + i, { parts: 12, maxGroupVertices: 1200 }),
  );
}
const graph = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const cli = new URL("../../cli/main.ts", import.meta.url).pathname;
const selection = await expandEach(`model=${root}/*.cmp`);
const runs: { jobs: number; ms: number; figures?: ThreadFigures }[] = [];
/** A batch run; with `processes`, on worker processes, whose CPU this process's threads do not show. */
const batch = (jobs: number, processes = false) => async () => {
  const sampler = processes ? undefined : await threadSampler();
  const started = performance.now();
  const { summary } = await runBatch({
    graph,
    selection,
    outDir: join(root, `out${jobs}`),
    cacheDir: false,
    jobs,
    processes,
  });
  const ms = performance.now() - started;
  if (summary.failed) throw new Error("a bench input failed");
  if (!processes) runs.push({ jobs, ms, figures: await sampler?.stop() });
};

Deno.bench({
  name: `one 'partgraph run' process per input (${INPUTS} inputs)`,
  group: "batch",
  baseline: true,
  n: 1,
  warmup: 0,
  async fn() {
    for (const input of selection.inputs) {
      const { code } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--frozen",
          "--allow-read",
          `--allow-write=${root}`,
          cli,
          "run",
          graph,
          "--set",
          `model=${input.path}`,
          "--out",
          join(root, "loop"),
          "--no-cache",
          "--quiet",
        ],
        stdout: "null",
        stderr: "null",
      }).output();
      if (code !== 0) throw new Error(`run failed for ${input.path}`);
    }
  },
});

Deno.bench({ name: `batch --jobs 1 (${INPUTS} inputs)`, group: "batch", n: 2, warmup: 0, fn: batch(1) });
Deno.bench({ name: `batch --jobs 2 (${INPUTS} inputs)`, group: "batch", n: 2, warmup: 0, fn: batch(2) });
for (const jobs of [1, 2]) {
  Deno.bench({
    name: `batch --jobs ${jobs} --processes (${INPUTS} inputs)`,
    group: "batch",
    n: 2,
    warmup: 0,
    fn: batch(jobs, true),
  });
}

globalThis.addEventListener("unload", () => {
  Deno.removeSync(root, { recursive: true });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cores = navigator.hardwareConcurrency;
  // Per --jobs: each run's wall time and the least time an idle machine would need (from its CPU).
  const walls = new Map<number, number[]>(), floors = new Map<number, number[]>();
  const add = (map: Map<number, number[]>, jobs: number, value: number) =>
    map.set(jobs, [...map.get(jobs) ?? [], value]);
  const ratio = (map: Map<number, number[]>) => {
    const mean = (jobs: number) => map.get(jobs)!.reduce((a, b) => a + b, 0) / map.get(jobs)!.length;
    return (mean(1) / mean(2)).toFixed(2);
  };
  for (const { jobs, ms, figures: f } of runs) {
    add(walls, jobs, ms);
    if (!f) continue;
    const workers = f.workers.reduce((sum, w) => sum + w.cpuMs, 0);
    const total = workers + f.v8BackgroundMs + f.restMs;
    const each = f.workers.map((w) => `${s(w.cpuMs)} / ${s(w.waitMs)} / ${s(w.blockedMs)}`).join(", ");
    const floor = Math.max(...f.workers.map((w) => w.cpuMs), total / cores);
    add(floors, jobs, floor);
    const share = (f.v8BackgroundMs / workers).toFixed(2);
    console.log(
      `batch --jobs ${jobs}: wall ${s(ms)}; CPU ${s(total)} = workers ${s(workers)} + V8 background ` +
        `${s(f.v8BackgroundMs)} (${share} of the workers') + main and I/O ${s(f.restMs)}; each worker on a ` +
        `core / waiting for one / blocked: ${each}; an idle ${cores}-core machine needs at least ${s(floor)}`,
    );
  }
  const fromCpu = floors.size === 2 ? `; on an idle machine, from the CPU figures: ${ratio(floors)}×` : "";
  console.log(`${INPUTS} inputs, batch --jobs 2 vs --jobs 1, means: wall ${ratio(walls)}×${fromCpu}`);
});
