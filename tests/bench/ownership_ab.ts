/**
 * CPU time of graphs whose nodes own their input scenes (`ctx.owns`: constraints.resolve and the rig
 * nodes change them in place), A/B against an earlier checkout, in alternating processes (the
 * machine may be shared: each round runs both trees back to back, and the least of each is kept).
 *
 * - `freelancer`: 16 retail-shaped compounds (`realistic_cmp.ts`, as `freelancer_realistic_bench.ts`)
 *   through read → decode.cmp → constraints.resolve → export.gltf, one `runGraph` each, no cache.
 * - `freelancer.json`: the same compounds through `graphs/freelancer.json` (resolve, rig.parts,
 *   report, export, writes), as `partgraph batch` runs each input.
 * - `aircraft`: `graphs/aircraft.json` (the demo fighter through the rig nodes and export), 4 runs.
 *
 * ```sh
 * base=$(mktemp -d); git archive de857ab | tar -x -C "$base"
 * deno run --frozen -A tests/bench/ownership_ab.ts --before="$base" --rounds=4
 * ```
 *
 * A round's process runs a warm-up pass of every case, then one more and five timed passes and reports the least CPU time
 * (user + system of the whole process, garbage collection threads included) and wall time per pass.
 *
 * @module
 */
import { join, resolve } from "node:path";
import process from "node:process";
import { realisticCmp } from "../support/realistic_cmp.ts";

type Api = {
  runGraph(graph: unknown, options: Record<string, unknown>): Promise<unknown>;
};

const CASES = ["freelancer", "freelancer.json", "aircraft"] as const;
type Case = typeof CASES[number];
type Figures = Record<Case, { cpu: number; wall: number }>;

const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

if (Deno.args[0] === "measure") {
  console.log(JSON.stringify(await measure(resolve(Deno.args[1]))));
} else {
  await drive(arg("before"), Number(arg("rounds") ?? 3));
}

/** Runs every case on the tree at `root` in this process. */
async function measure(root: string): Promise<Figures> {
  const api: Api = await import(join(root, "mod.ts"));
  const work = await Deno.makeTempDir({ prefix: "partgraph-ownership-ab-" });
  const models: string[] = [];
  for (let i = 0; i < 16; i++) {
    const path = join(work, `m${i}.cmp`);
    await Deno.writeFile(path, realisticCmp(i + 1, { parts: 8 + (i * 7) % 24 }));
    models.push(path);
  }
  const pipeline = {
    version: 1,
    inputs: { model: { type: "string" } },
    nodes: {
      read: { type: "io.read", params: { path: { $input: "model" } } },
      decode: { type: "decode.cmp", inputs: { bytes: "read.bytes" }, params: { libraries: "none" } },
      resolve: { type: "constraints.resolve", inputs: { scene: "decode.scene" } },
      export: { type: "export.gltf", inputs: { scene: "resolve.scene" } },
    },
    outputs: { glb: "export.bytes" },
  };
  const run = (graph: unknown, inputs: Record<string, unknown>) =>
    api.runGraph(graph, { inputs, outDir: join(work, "out"), cacheDir: false, outputs: [] });
  const passes: Record<Case, () => Promise<unknown>> = {
    freelancer: async () => {
      for (const model of models) await run(pipeline, { model });
    },
    "freelancer.json": async () => {
      for (const model of models) {
        await run(join(root, "graphs/freelancer.json"), { model, libraries: "none" });
      }
    },
    aircraft: async () => {
      for (let i = 0; i < 4; i++) await run(join(root, "graphs/aircraft.json"), {});
    },
  };
  const figures = {} as Figures;
  try {
    for (const name of CASES) await passes[name](); // every case's code loaded and warm first
    for (const name of CASES) figures[name] = await leastOfFive(passes[name]);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  return figures;
}

/** The least CPU and wall time (ms) of five passes, after one warm-up pass. */
async function leastOfFive(pass: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  await pass();
  const least = { cpu: Infinity, wall: Infinity };
  for (let i = 0; i < 5; i++) {
    const cpu = cpuMs(), wall = performance.now();
    await pass();
    least.cpu = Math.min(least.cpu, cpuMs() - cpu);
    least.wall = Math.min(least.wall, performance.now() - wall);
  }
  return least;
}

/** Alternates a process per tree per round; prints each tree's least figures and the ratio. */
async function drive(before: string | undefined, rounds: number): Promise<void> {
  const here = resolve(import.meta.dirname!, "../..");
  const trees = before ? [["before", resolve(before)], ["now", here]] : [["now", here]];
  const best = new Map<string, Figures>();
  for (let round = 0; round < rounds; round++) {
    for (const [label, root] of round % 2 ? [...trees].reverse() : trees) {
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--frozen", "-A", import.meta.filename!, "measure", root],
        cwd: here,
      }).output();
      if (code !== 0) throw new Error(`${label} failed: ${new TextDecoder().decode(stderr).slice(-2000)}`);
      const figures: Figures = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!);
      console.error(`round ${round + 1} ${label}: ${JSON.stringify(figures)}`);
      const kept = best.get(label);
      if (!kept) best.set(label, figures);
      else {
        for (const name of CASES) {
          kept[name] = {
            cpu: Math.min(kept[name].cpu, figures[name].cpu),
            wall: Math.min(kept[name].wall, figures[name].wall),
          };
        }
      }
    }
  }
  for (const name of CASES) {
    const now = best.get("now")![name], then = best.get("before")?.[name];
    const ratio = then ? ` (${(now.cpu / then.cpu).toFixed(2)}× before: CPU ${then.cpu.toFixed(0)} ms)` : "";
    console.log(`${name}: CPU ${now.cpu.toFixed(0)} ms, wall ${now.wall.toFixed(0)} ms${ratio}`);
  }
  console.log(`load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}
