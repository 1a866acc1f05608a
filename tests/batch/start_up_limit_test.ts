/**
 * `batch --timeout` limits an input, not a fresh worker's start-up: a worker loads the graph's code
 * (the executor, the cache, every node's implementation module) before it takes its first input, so a
 * module slow to load — as any is on a loaded machine — costs the start, which the pool limits on its
 * own, and not the input's time. Before, the first input of each worker loaded them inside its limit.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { type BatchOptions, runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import { tempDir } from "../support/temp.ts";
import { pluginGraph } from "../support/hostile_graph.ts";

const RUNTIME = new URL("../../runtime/mod.ts", import.meta.url).href;
/**
 * How long the node's implementation module takes to load (an idle wait), and the time limit per input
 * (below it). The limit is no time to meet: the input itself takes milliseconds, and 4 s leaves room for
 * a machine loaded ten times over its cores (1 s did not: an input failed at that load).
 */
const LOAD_MS = 6000, LIMIT_MS = 4000;

/**
 * A graph of one node `test.<name>` whose run module starts with `prelude` (what its loading does),
 * then answers at once with its input's size; its two inputs.
 */
async function lazyGraph(dir: string, name: string, prelude: string): Promise<string> {
  await Deno.writeTextFile(
    join(dir, `${name}_run.ts`),
    `${prelude}
export const run = ({ inputs }) => ({ size: { bytes: new TextEncoder().encode(String(inputs.data.bytes.length)), name: "size.json" } });
`,
  );
  await Deno.writeTextFile(
    join(dir, `${name}.ts`),
    `import { defineNode, lazyRun } from ${JSON.stringify(RUNTIME)};
export default { nodes: [defineNode({
  type: "test.${name}", version: 1, doc: "Loads as its prelude says, runs at once.", params: {},
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { size: { type: "bytes", doc: "Its size, as JSON." } },
  run: lazyRun(new URL("./${name}_run.ts", import.meta.url)),
})] };
`,
  );
  return await pluginGraph(dir, name, { "a.bin": [0, 0, 0], "b.bin": [0, 0, 0, 0, 0] });
}

/** A graph whose node's run module takes {@link LOAD_MS} to load. */
const slowLoadingGraph = (dir: string) =>
  lazyGraph(dir, "slow_to_load", `await new Promise((done) => setTimeout(done, ${LOAD_MS}));`);

/**
 * A batch of `graph`'s two inputs on one worker (a process or a Deno worker), with `options`; whether
 * each input succeeded, and its error.
 */
async function runBoth(dir: string, graph: string, processes: boolean, options: Partial<BatchOptions>) {
  const { manifest } = await runBatch({
    graph,
    selection: await expandEach(`model=${dir}/in/*.bin`),
    outDir: join(dir, "out"),
    cacheDir: false,
    jobs: 1,
    processes,
    ...options,
  });
  return Object.entries(manifest.inputs).map(([rel, input]) => [rel, input.ok, input.error ?? null]);
}

/** Both kinds of pool at once: their idle waits for the slow module overlap. */
Deno.test("batch --timeout on Deno workers and on worker processes: a node module slower to load than the limit fails no input", async () => {
  await Promise.all([false, true].map(async (processes) => {
    const pool = processes ? "worker processes" : "Deno workers";
    const dir = await tempDir();
    try {
      const graph = await slowLoadingGraph(dir);
      assertEquals(await runBoth(dir, graph, processes, { inputTimeoutMs: LIMIT_MS }), [
        ["a.bin", true, null],
        ["b.bin", true, null],
      ], pool);
      assertEquals(await Deno.readTextFile(join(dir, "out", "a", "size.json")), "3", pool);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }));
});

/**
 * A graph whose node's run module never ends loading the first time it loads (its first worker is
 * stuck). On worker processes, a loop that never yields, blocked in Atomics.wait rather than spinning,
 * so the seconds the start limit takes cost the suite no core: the stuck process is killed. On Deno
 * workers, an await that never ends: Deno's terminate() does not end a worker in JavaScript that never
 * yields (denoland/deno#35657), and one stuck so in a module's top level keeps node_modules' lock, so
 * no Deno worker of the test process, nor any Deno process on that node_modules, loads a module after
 * it (a CI run's other shards waited out their limits). An await yields: terminate() ends it.
 */
function stuckOnceGraph(dir: string, processes: boolean): Promise<string> {
  const marker = JSON.stringify(join(dir, "loaded-once"));
  const stuck = processes
    ? `const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0, 50);`
    : "await new Promise(() => {});";
  return lazyGraph(
    dir,
    "stuck_once",
    `try { Deno.statSync(${marker}); } catch {
  Deno.writeTextFileSync(${marker}, "");
  ${stuck}
}`,
  );
}

/** Both kinds of pool at once: their waits for the start limit overlap, and neither uses a core meanwhile. */
Deno.test("batch on Deno workers and on worker processes without --timeout: a worker stuck starting is replaced, its input runs on a fresh one", async () => {
  await Promise.all([false, true].map(async (processes) => {
    const pool = processes ? "worker processes" : "Deno workers";
    const dir = await tempDir();
    try {
      const graph = await stuckOnceGraph(dir, processes);
      const stuck: { in: readonly string[] }[] = [];
      const outcome = await runBoth(dir, graph, processes, {
        // The limit runs from when the fresh worker is up: it covers loading the graph's two small
        // modules (0.5–1 s at load 24 on two cores), not the worker's own start-up (3–10 s at that
        // load), which an 8 s limit counted from the spawn failed 6 runs of 6 on.
        startLimitMs: 5000,
        onEvent: (event) =>
          (event.event === "worker-stuck" || event.event === "worker-left-running") && stuck.push(event),
      });
      assertEquals(outcome, [["a.bin", true, null], ["b.bin", true, null]], pool);
      // The larger input starts first, on the worker that never started, named by the module it was
      // loading (a Deno worker's board; a process tells it over its pipe). A process's loop that never
      // yields may also hold back the end of the other node's load (io.read) that it tells after an
      // await: that one may be named beside it. That worker was stopped (a killed process, a Deno
      // worker whose await yields): none is left running.
      const stuckOnce = "loading the module of node `stuck_once` (test.stuck_once)";
      const alsoNamed = processes ? ["loading the module of node `read` (io.read)"] : [];
      assertEquals(
        stuck.map((event) => ({ ...event, in: event.in.filter((item) => !alsoNamed.includes(item)) })),
        [{ event: "worker-stuck", input: "b.bin", seconds: 5, in: [stuckOnce] }],
        pool,
      );
      assertEquals(await Deno.readTextFile(join(dir, "out", "b", "size.json")), "5", pool);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }));
});
