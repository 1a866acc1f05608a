/**
 * Counts what goes wrong against the cache servers teams run (`remote_habits.ts`): for each seed,
 * machine A builds a generated Freelancer model cold through the seed's server, then machine B
 * (nothing on disk) builds it through the same server; both are compared with a build without any
 * cache.
 *
 * Run: `deno run -A tests/runtime/remote_habits_measure.ts 1001 1030`
 *
 * @module
 */
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { RemoteCache } from "../../runtime/cache/remote.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";
import { type Habits, habitsOf, SECRETS, startHabitServer } from "./remote_habits.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;

/** What one seed's two builds came to. */
export interface SeedOutcome {
  readonly habits: Habits;
  readonly failed: number;
  readonly wrong: number;
  /** A build that took longer than its budget (a retry waited out, a loop). */
  readonly unbounded: number;
  /** A secret in a message, or sent to another origin. */
  readonly leaked: number;
  /** Machine B served fewer nodes from the remote than from a plain server (`ideal`), and nobody said why. */
  readonly silent: number;
  /** Nodes of machine B served by the remote, of all its nodes. */
  readonly served: number;
  readonly nodes: number;
  readonly warnings: readonly string[];
}

async function outputs(dir: string): Promise<string> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) out.push(`${entry.name}:${sha256Hex(await Deno.readFile(join(dir, entry.name)))}`);
  }
  return out.sort().join(",");
}

/**
 * Runs seed `seed` under `root`; `reference` is the output of a build without any cache. The client's
 * time limit is short for the measurement (a habit that stalls shows as an unbounded run); tests of
 * habits that never stall give the default, as the server shares the run's thread and a loaded
 * machine can hold its answer past half a second.
 */
export async function runSeed(
  seed: number,
  model: string,
  reference: string,
  root: string,
  ideal: number,
  habits: Habits = habitsOf(seed),
  timeoutMs = 500,
): Promise<SeedOutcome> {
  const server = startHabitServer(habits);
  const warnings: string[] = [];
  let failed = 0, wrong = 0, unbounded = 0, served = 0, nodes = 0;
  try {
    for (const name of ["a", "b"]) {
      const where = {
        cacheDir: join(root, `${seed}`, name, "cache"),
        outDir: join(root, `${seed}`, name, "out"),
      };
      const remote = new RemoteCache({
        url: server.url,
        headers: server.headers,
        timeoutMs,
        onWarning: (message) => warnings.push(message),
      });
      const started = performance.now();
      try {
        const run = await runGraph(GRAPH, { inputs: { model }, ...where, remoteCache: remote });
        warnings.push(...run.warnings.map((w) => w.message));
        if (Object.values(run.nodes).some((n) => n.state === "failed")) failed++;
        else if (await outputs(where.outDir) !== reference) wrong++;
        if (name === "b") {
          nodes = Object.keys(run.nodes).length;
          served = Object.values(run.nodes).filter((n) => n.tier === "remote").length;
        }
      } catch (error) {
        failed++;
        warnings.push(`threw: ${error instanceof Error ? error.message : error}`);
      }
      if (performance.now() - started > 8_000) unbounded++;
    }
  } finally {
    await server.stop();
  }
  const text = warnings.join("\n");
  const leaked = (text.includes(SECRETS.token) || text.includes(SECRETS.password) ||
      text.includes(encodeURIComponent(SECRETS.password)) || text.includes("w0rd")
    ? 1
    : 0) + (server.leakedToOther ? 1 : 0);
  const silent = served < ideal && warnings.length === 0 ? 1 : 0;
  return { habits, failed, wrong, unbounded, leaked, silent, served, nodes, warnings };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  const root = await tempDir({ prefix: "partgraph-habits-" });
  try {
    const model = join(root, "ship.cmp");
    await Deno.writeFile(model, realisticCmp(11, { parts: 4, maxGroupVertices: 80 }));
    const refDir = join(root, "ref");
    await runGraph(GRAPH, {
      inputs: { model },
      cacheDir: join(refDir, "cache"),
      outDir: join(refDir, "out"),
      noCache: true,
    });
    const reference = await outputs(join(refDir, "out"));
    const plain: Habits = { missing: 404, prefix: "", trailingSlash: false, credentials: false };
    const { served: ideal } = await runSeed(0, model, reference, root, 0, plain);
    console.log(`a plain server serves ${ideal} nodes to machine B`);
    const total = {
      failed: 0,
      wrong: 0,
      unbounded: 0,
      leaked: 0,
      silent: 0,
      served: 0,
      nodes: 0,
      warnings: 0,
    };
    for (let seed = from; seed <= to; seed++) {
      const o = await runSeed(seed, model, reference, root, ideal);
      for (const k of Object.keys(total) as (keyof typeof total)[]) {
        total[k] += k === "warnings" ? o.warnings.length : o[k];
      }
      const { prefix: _p, trailingSlash: _t, ...shown } = o.habits;
      console.log(
        seed,
        JSON.stringify(shown),
        `failed ${o.failed} wrong ${o.wrong} unbounded ${o.unbounded} leaked ${o.leaked} silent ${o.silent} served ${o.served}/${o.nodes} warnings ${o.warnings.length}`,
      );
      if (Deno.env.get("VERBOSE")) console.log(o.warnings.map((w) => `    ${w}`).join("\n"));
    }
    console.log("TOTAL", JSON.stringify(total));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
