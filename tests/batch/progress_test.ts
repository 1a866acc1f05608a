import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { logProgress } from "../../batch/progress.ts";
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
      onEvent({ event: "input", input: `s${i}.cmp`, state: "running" });
      const failed = i === 3;
      onEvent({
        event: "input",
        input: `s${i}.cmp`,
        state: failed ? "failed" : "done",
        ...(failed ? { error: { message: "not a UTF file" } } : {}),
      });
    }
    onEvent({ event: "remote-warning", message: "remote cache down" });
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
