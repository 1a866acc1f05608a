import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { logProgress, TimeLeft } from "../../batch/progress.ts";
import type { BatchEvent } from "../../batch/batch.ts";
import { prng } from "../support/prng.ts";
import { main } from "../../cli/main.ts";
import { inShard } from "../../batch/shard.ts";
import { tempDir } from "../support/temp.ts";
import { hostileGraph } from "../support/hostile_graph.ts";

/** What `work` prints on stderr, line by line. */
async function stderrOf(work: () => unknown): Promise<string[]> {
  const lines: string[] = [];
  const error = console.error;
  console.error = (...data: unknown[]) => void lines.push(data.join(" "));
  try {
    await work();
  } finally {
    console.error = error;
  }
  return lines;
}

Deno.test("batch progress for a log: each failure as it happens, and a status line at each tenth", async () => {
  const lines = await stderrOf(() => {
    const onEvent = logProgress(20);
    for (let i = 1; i <= 20; i++) {
      onEvent({ event: "input", input: `s${i}.cmp`, state: "running", bytes: 100 });
      const failed = i === 3;
      onEvent({
        event: "input",
        input: `s${i}.cmp`,
        state: failed ? "failed" : "done",
        bytes: 100,
        ...(failed ? { error: { message: "not a UTF file" } } : {}),
      });
    }
    onEvent({ event: "remote-warning", message: "remote cache down" });
    onEvent({
      event: "worker-died",
      input: "s7.cmp",
      message: "worker died: Uncaught Error: boom",
      after: "s6.cmp",
    });
  });
  const status = lines.filter((line) => line.startsWith("["));
  assertEquals(
    status.map((line) => line.split(" ")[0]),
    Array.from({ length: 10 }, (_, i) => `[${2 * (i + 1)}/20]`),
  );
  assert(status.slice(1).every((line) => line.endsWith("failed 1")), status.join("\n"));
  assertEquals(lines.filter((line) => !line.startsWith("[")), [
    "failed: s3.cmp: not a UTF file",
    "warning: remote cache down",
    "warning: the worker running s7.cmp died (it ran s6.cmp before: a timer or promise that input's nodes " +
    "left may have failed): worker died: Uncaught Error: boom; s7.cmp runs again on a fresh worker",
  ]);
});

Deno.test("partgraph batch --shard in a log: the status lines count the shard's inputs, not the whole batch's", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-log-" });
  const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.bin`, [0]]));
  const graph = await hostileGraph(dir, files);
  const mine = inShard(Object.keys(files).map((rel) => ({ rel })), { index: 1, count: 3 }).length;
  const args = [
    "batch",
    graph,
    "--each",
    `model=${dir}/in/*.bin`,
    "--shard",
    "1/3",
    "--out",
    join(dir, "out"),
  ];
  const lines = await stderrOf(() => main([...args, "--no-cache", "--workers", "--jobs", "1"]));
  const status = lines.filter((line) => line.startsWith("["));
  assert(mine > 0 && mine < 12, `${mine} inputs in the shard`);
  assertEquals(status.at(-1)?.split(" ")[0], `[${mine}/${mine}]`, lines.join("\n"));
});

/**
 * A batch as a pool of `jobs` runs it: inputs in the order given, each taking `ms(bytes)`, each worker
 * taking the next input as it gets free. Returns the inputs' ends in time order, and the batch's end.
 */
function simulate(sizes: number[], jobs: number, ms: (bytes: number) => number) {
  const free = Array<number>(jobs).fill(0);
  const ends: { at: number; event: BatchEvent }[] = [];
  sizes.forEach((bytes, i) => {
    const slot = free.indexOf(Math.min(...free));
    const took = ms(bytes);
    free[slot] += took;
    ends.push({ at: free[slot], event: { event: "input", input: `s${i}`, state: "done", bytes, ms: took } });
  });
  ends.sort((a, b) => a.at - b.at);
  return { ends, end: Math.max(...free) };
}

/** The ETA `left` gives once `share` of the inputs have ended, and the time truly left then (s). */
function etaAt(left: TimeLeft, run: ReturnType<typeof simulate>, share: number) {
  const seen = run.ends.slice(0, Math.round(share * run.ends.length));
  for (const { event } of seen) left.observe(event);
  const now = seen.at(-1)!.at;
  return { eta: left.seconds(now)!, truth: (run.end - now) / 1000, now };
}

Deno.test("batch ETA: sizes spread as a game tree's, largest first, two jobs: near the truth from a fifth in", () => {
  // Skewed sizes (most files small, a few 40× larger), sorted as the pool starts them; each input
  // costs a fixed 15 ms plus 0.05 ms per KB, as small compounds do.
  const next = prng(7);
  const sizes = Array.from({ length: 300 }, () => Math.round(20_000 * (1 + 40 * next() ** 4)))
    .sort((a, b) => b - a);
  const run = simulate(sizes, 2, (bytes) => 15 + 0.05 * bytes / 1000);
  const total = sizes.reduce((sum, bytes) => sum + bytes, 0);
  for (const share of [0.2, 0.5, 0.8]) {
    const left = new TimeLeft(sizes.length);
    left.observe({ event: "batch", inputs: sizes.length, bytes: total });
    const { eta, truth, now } = etaAt(left, run, share);
    assert(Math.abs(eta - truth) / truth < 0.15, `at ${share}: ETA ${eta} s, truly ${truth} s left`);
    // Counting inputs alone, as the ETA did before, is far off early on, where it matters:
    const done = Math.round(share * sizes.length);
    const byCount = (sizes.length - done) * (now / done) / 1000;
    if (share === 0.2) assert(byCount / truth > 1.5, `the count's ETA ${byCount} s against ${truth} s`);
  }
});

Deno.test("batch ETA: without sizes every input counts the same; before any input ends it is unknown", () => {
  const left = new TimeLeft(10);
  assertEquals(left.seconds(1000), undefined);
  const run = simulate(Array(10).fill(100), 2, () => 50);
  const { eta, truth } = etaAt(left, run, 0.4);
  assertEquals([eta.toFixed(3), truth.toFixed(3)], ["0.150", "0.150"]);
});
