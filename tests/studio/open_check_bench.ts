/**
 * The studio server's CPU time to open generated graphs of many thousands of nodes as the page opens
 * one — the file (`GET /api/graph?sockets=0`), then its live check (`POST /api/check`) — without a
 * browser: a measurement, not a test. CPU time, as the machine is shared and wall times swing with
 * its load. Run with
 *
 * ```sh
 * deno run --frozen --unstable-bundle -A tests/studio/open_check_bench.ts [count]
 * ```
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import { startStudio } from "../../studio/server.ts";
import { BIG_STYLES, bigGraph } from "./big_graphs.ts";

const count = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 20_000);
const dir = await Deno.makeTempDir({ prefix: "studio-open-bench-" });
const studio = await startStudio({ port: 0, roots: [dir], outDir: join(dir, "out"), cacheDir: false });
try {
  for (const style of BIG_STYLES) {
    const times: number[] = [];
    for (const seed of [901, 902, 903]) {
      const file = join(dir, `${style}_${seed}.json`);
      await Deno.writeTextFile(file, JSON.stringify(bigGraph(style, count, seed)));
      const cpu = process.cpuUsage();
      const opened = await (await fetch(`${studio.url}api/graph?path=${encodeURIComponent(file)}&sockets=0`))
        .json();
      const checked = await (await fetch(`${studio.url}api/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: file, graph: opened.graph }),
      })).json();
      const { user, system } = process.cpuUsage(cpu);
      if (checked.issues.length) throw new Error(`${style} ${seed}: ${checked.issues.length} issues`);
      times.push((user + system) / 1000);
    }
    console.log(
      `${style.padEnd(8)} ${count} nodes: open + check ${times.map((t) => t.toFixed(0)).join(", ")} ms CPU`,
    );
  }
} finally {
  await studio.close();
  await Deno.remove(dir, { recursive: true });
}
