/// <reference lib="dom" />
/**
 * How long the studio takes to open, pan and zoom graphs of many thousands of nodes, in headless
 * chromium: a measurement, not a test (timings depend on the machine and its load). Run with
 *
 * ```sh
 * deno run --frozen --unstable-bundle -A tests/studio/big_graph_bench.ts [count] [--profile]
 * ```
 *
 * Each generated graph (`big_graphs.ts`) is opened three times; the median is printed, with the
 * slowest functions of a CPU profile of the last open when `--profile` is given.
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import type { Page } from "playwright-core";
import { BIG_STYLES, bigGraph } from "./big_graphs.ts";
import { openStudio } from "./page_helpers.ts";

const count = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 20_000);
const profile = Deno.args.includes("--profile");
const dir = await Deno.makeTempDir({ prefix: "studio-bench-" });
await Deno.mkdir(join(dir, "graphs"));
const { studio, page, close } = await openStudio(dir, false);
/** Wall time, the page's busy time, the server's CPU time and chromium's, in ms. */
type Timing = [number, number, number, number];
const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const metrics = await page.context().newCDPSession(page);
await metrics.send("Performance.enable");
/** The page's main-thread busy time so far, in ms (less noisy than wall time on a loaded machine). */
const busy = async () => {
  const { metrics: all } = await metrics.send("Performance.getMetrics");
  return 1000 * (all.find((m) => m.name === "TaskDuration")?.value ?? 0);
};
/** The server's requests that took long, as `path ms`, collected while opening. */
const slowRequests: string[] = [];
page.on("requestfinished", (request) => {
  const t = request.timing();
  if (t.responseEnd > 200) {
    slowRequests.push(`${new URL(request.url()).pathname} ${t.responseEnd.toFixed(0)} ms`);
  }
});

/**
 * CPU time (ms) of every chromium process this one started: the machine is shared, so wall times
 * swing with its load, CPU time much less.
 */
function chromiumCpu(): number {
  const parents = new Map<number, number>(), ticks = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, … utime (14th), stime (15th).
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry.name), Number(fields[1]));
      ticks.set(Number(entry.name), Number(fields[11]) + Number(fields[12]));
    } catch { /* it ended meanwhile */ }
  }
  const ours = (pid: number): boolean => {
    for (let p = parents.get(pid); p; p = parents.get(p)) if (p === Deno.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (ours(pid)) total += t;
  return total * 10; // 100 ticks a second
}

/**
 * Milliseconds from `act` until the page has drawn the next frame after it: wall time, the page's
 * main-thread busy time, this process's CPU time (the studio server's, with Playwright's driver) and
 * chromium's.
 */
async function timed(page: Page, act: () => Promise<unknown>, load = false): Promise<Timing> {
  // A page load starts the count again.
  const [start, started, cpu, browser] = [
    performance.now(),
    load ? 0 : await busy(),
    process.cpuUsage(),
    chromiumCpu(),
  ];
  await act();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const { user, system } = process.cpuUsage(cpu);
  return [
    performance.now() - start,
    (await busy()) - started,
    (user + system) / 1000,
    chromiumCpu() - browser,
  ];
}

try {
  for (const style of BIG_STYLES) {
    const file = join(dir, "graphs", `${style}.json`);
    await Deno.writeTextFile(file, JSON.stringify(bigGraph(style, count, 7)));
    const opens: Timing[] = [], pans: Timing[] = [], zooms: Timing[] = [];
    let top: string[] = [];
    for (let run = 0; run < 3; run++) {
      const cdp = profile && run === 2 ? await page.context().newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
        await cdp.send("Profiler.start");
      }
      opens.push(
        await timed(page, async () => {
          await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
          await page.waitForSelector("body[data-ready=true]", { timeout: 600_000 });
        }, true),
      );
      if (cdp) top = selfTimes((await cdp.send("Profiler.stop")).profile);
      if (run === 2) top.push(...slowRequests);
      slowRequests.length = 0;
      const box = (await page.locator("#editor").boundingBox())!;
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      pans.push(
        await timed(page, async () => {
          await page.mouse.move(cx, cy);
          await page.keyboard.down("Alt");
          await page.mouse.down();
          await page.mouse.move(cx - 300, cy - 200, { steps: 5 });
          await page.mouse.up();
          await page.keyboard.up("Alt");
        }),
      );
      if (cdp) await cdp.send("Profiler.start");
      for (const delta of [-100, -100, 100, 100]) {
        zooms.push(await timed(page, () => page.mouse.wheel(0, delta)));
      }
      if (cdp) top.push("wheel:", ...selfTimes((await cdp.send("Profiler.stop")).profile));
    }
    const drawn = await page.locator("g.node").count();
    const shown = (xs: Timing[]) => {
      const [wall, page, server, browser] = [0, 1, 2, 3].map((i) => median(xs.map((x) => x[i])).toFixed(0));
      return `${wall} ms (page busy ${page}; CPU: chromium ${browser}, server ${server})`;
    };
    console.log(
      `${style.padEnd(9)} ${count} nodes: open ${shown(opens)}, pan ${shown(pans)}, wheel step ${
        shown(zooms)
      }, ${drawn} drawn`,
    );
    for (const line of top) console.log(`    ${line}`);
  }
} finally {
  await close();
  await Deno.remove(dir, { recursive: true });
}

/** A CPU profile's ten functions with the most self time, as `ms name url:line`. */
function selfTimes(p: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}): string[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (p.samples ?? []).forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, ms]) => `${ms.toFixed(0)} ms ${k}`);
}
