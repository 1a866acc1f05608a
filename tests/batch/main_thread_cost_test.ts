/**
 * Work a batch does around its inputs, counted: what the batch's main thread loads before its first
 * worker can start, and what a pool member reads again for every input. On two cores a second job
 * pays for both out of the workers' time (issue #14's two-job ratio).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jobServer, type JobSpec, type WorkerMessage } from "../../batch/job.ts";
import { RunningBoard } from "../../batch/running_board.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";

const FREELANCER = fileURLToPath(new URL("../../graphs/freelancer.json", import.meta.url));

Deno.test("batch: the command's main thread imports no node:fs (loading Node's stream modules held up the first worker 50-70 ms)", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(new URL("../../cli/batch.ts", import.meta.url))],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const { modules } = JSON.parse(new TextDecoder().decode(stdout)) as { modules: { specifier: string }[] };
  const nodeFs = modules.map((m) => m.specifier).filter((s) => s === "node:fs" || s === "node:fs/promises");
  assertEquals(nodeFs, []);
});

Deno.test("batch worker: its jobs read the graph file once between them, not once per input", async () => {
  const dir = await tempDir();
  const specs: JobSpec[] = [];
  for (const seed of [6101, 6203, 6307]) {
    const path = join(dir, `ship${seed}.cmp`);
    // Small compounds of the retail shape: what is counted is the graph's reading, not their work.
    await Deno.writeFile(path, realisticCmp(seed, { parts: 3 + seed % 4, maxGroupVertices: 120 }));
    specs.push({
      graph: FREELANCER,
      inputs: {},
      each: { name: "model", type: "string", path },
      outDir: join(dir, `out${seed}`),
      cacheDir: false,
      noCache: true,
      refresh: false,
      events: false,
    });
  }
  const reads: string[] = [];
  const readTextFile = Deno.readTextFile;
  Deno.readTextFile = (path, options) => {
    reads.push(String(path));
    return readTextFile(path, options);
  };
  const results: unknown[] = [];
  try {
    let done!: () => void;
    const serve = jobServer((message: WorkerMessage) => {
      if (message.kind === "done") {
        results.push((message.result as { ok: boolean }).ok);
        done();
      }
    });
    const board = new RunningBoard();
    for (const [id, spec] of specs.entries()) {
      await new Promise<void>((resolve) => {
        done = resolve;
        serve({ id, spec, board: board.buffer });
      });
    }
  } finally {
    Deno.readTextFile = readTextFile;
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(results, [true, true, true]);
  // Once to load its code before the first input, once for the runs (was: once more per input).
  assertEquals(reads.filter((path) => path === FREELANCER).length, 2);
});
