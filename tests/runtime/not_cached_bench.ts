/**
 * Held-out measurement of the cache-write warning: graphs of 3–15 demo nodes run against cache folders
 * that cannot be written the ways users' folders cannot (a file where the folder goes, a parent that
 * is a file, `cas` a file, the database a folder, a read-only folder when not root). Counts runs that
 * say it more than once, and runs whose words name no folder.
 * `deno run --frozen -A tests/runtime/not_cached_bench.ts FIRST LAST`
 */
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

const [first, last] = Deno.args.map(Number);
const modes = ["file-at-folder", "parent-is-file", "cas-is-file", "db-is-folder", "read-only"] as const;
let repeated = 0, unnamed = 0, runs = 0, lines = 0;
for (let seed = first; seed <= last; seed++) {
  const mode = modes[seed % modes.length];
  if (mode === "read-only" && Deno.uid?.() === 0) continue; // root writes anywhere
  const dir = await tempDir({ prefix: "not-cached-bench-" });
  let cacheDir = join(dir, ".partgraph-cache");
  if (mode === "file-at-folder") await Deno.writeTextFile(cacheDir, "x");
  if (mode === "parent-is-file") {
    await Deno.writeTextFile(join(dir, "cache"), "x");
    cacheDir = join(dir, "cache", "inner");
  }
  if (mode === "cas-is-file") {
    await Deno.mkdir(cacheDir);
    await Deno.writeTextFile(join(cacheDir, "cas"), "x");
  }
  if (mode === "db-is-folder") await Deno.mkdir(join(cacheDir, "actions.sqlite"), { recursive: true });
  if (mode === "read-only") {
    await Deno.mkdir(cacheDir);
    await Deno.chmod(cacheDir, 0o555);
  }
  const count = 3 + (seed * 7919) % 13;
  const nodes: Record<string, { type: string }> = {};
  const outputs: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    nodes[`n${i}`] = { type: "demo.fighter" };
    outputs[`n${i}`] = `n${i}.scene`;
  }
  const run = await runGraph({ version: 1, nodes, outputs } as GraphFile, {
    cacheDir,
    outDir: join(dir, "out"),
  });
  const said = run.warnings.filter((w) => w.message.startsWith("result not cached"));
  runs++;
  lines += said.length;
  if (said.length > 1) repeated++;
  if (said.length && !said.some((w) => w.message.includes("cannot be written"))) unnamed++;
  console.log(
    `seed ${seed} ${mode} nodes ${count}: ${said.length} line(s)` +
      (said[0] ? `: ${said[0].message.slice(0, 90)}` : ""),
  );
  await Deno.chmod(cacheDir, 0o755).catch(() => {});
  await Deno.remove(dir, { recursive: true });
}
console.log(`${runs} runs, ${lines} lines; said more than once: ${repeated}; no folder named: ${unnamed}`);
