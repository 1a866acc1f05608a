/**
 * Batch builds against the anchor users have today, a shell loop of one CLI run per input: the same
 * 40 generated retail-shaped compounds through `graphs/freelancer.json`, no cache, as
 * (a) one `partgraph run` process per input (the baseline), (b) `batch --jobs 1`, (c) `batch --jobs 2`.
 * Ratios against (a) and between (b) and (c) are what the README quotes.
 */
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";

const INPUTS = 30;
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
const batch = (jobs: number) => async () => {
  const { summary } = await runBatch({
    graph,
    selection,
    outDir: join(root, `out${jobs}`),
    cacheDir: false,
    jobs,
  });
  if (summary.failed) throw new Error("a bench input failed");
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

globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
