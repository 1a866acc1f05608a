/**
 * A node that starts a long-running process of its own, handing it its output (a `sleep 60` given
 * stdout and stderr, as a tool a custom node calls might be), then hangs: the batch on worker
 * processes fails that input at its time limit and goes on, without waiting for the process to let
 * go of the pipes (before, it waited the full minute); where the worker leads a process group of its
 * own (a batch that can be interrupted) and the batch may signal any process (`--allow-run`), the
 * process goes with it.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import { tempDir } from "../support/temp.ts";
import { pluginGraph } from "../support/hostile_graph.ts";

const RUNTIME = new URL("../../runtime/mod.ts", import.meta.url).href;
/** The started process's life: far past what the batch should take. */
const SLEEP_S = 60;

async function spawningGraph(dir: string): Promise<string> {
  await Deno.writeTextFile(
    join(dir, "spawns.ts"),
    `import { defineNode } from ${JSON.stringify(RUNTIME)};
export default { nodes: [defineNode({
  type: "test.spawns", version: 1, doc: "Starts a process holding its output, then hangs.", params: {},
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { size: { type: "bytes", doc: "Never given." } },
  run() {
    const child = new Deno.Command("sleep", { args: ["${SLEEP_S}"], stdout: "inherit", stderr: "inherit" }).spawn();
    Deno.writeTextFileSync(${JSON.stringify(join(dir, "pid"))}, String(child.pid));
    return new Promise(() => {});
  },
})] };
`,
  );
  return await pluginGraph(dir, "spawns", { "a.bin": [0, 0, 0] });
}

/** True while `pid` is a live process (a zombie, ended but not yet reaped, is not). */
async function alive(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => undefined);
  return stat !== undefined && !/^\d+ \(.*\) Z /.test(stat);
}

for (const interruptible of [false, true]) {
  Deno.test({
    name: `batch --processes${
      interruptible ? " (interruptible)" : ""
    }: a node's process holding the worker's pipes does not hold up the batch`,
    ignore: Deno.build.os !== "linux",
    async fn() {
      const dir = await tempDir();
      let pid: number | undefined;
      try {
        const graph = await spawningGraph(dir);
        const started = performance.now();
        const { manifest } = await runBatch({
          graph,
          selection: await expandEach(`model=${dir}/in/*.bin`),
          outDir: join(dir, "out"),
          cacheDir: false,
          jobs: 1,
          processes: true,
          inputTimeoutMs: 2000,
          ...(interruptible ? { signal: new AbortController().signal } : {}),
        });
        const seconds = (performance.now() - started) / 1000;
        pid = Number(await Deno.readTextFile(join(dir, "pid")));
        const [record] = Object.values(manifest.inputs);
        assertEquals(record.ok, false);
        assert(/no result within 2 s/.test(JSON.stringify(record.error)), JSON.stringify(record.error));
        // A guard, not a measure: waiting for the process would take the whole minute.
        assert(seconds < SLEEP_S / 2, `the batch took ${seconds.toFixed(1)} s`);
        if (interruptible) {
          assertEquals(await alive(pid), false, "the node's process went with its worker's group");
        }
      } finally {
        if (pid && await alive(pid)) Deno.kill(pid, "SIGKILL");
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
