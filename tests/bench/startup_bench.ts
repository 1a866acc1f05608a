/**
 * Start-up: fresh CLI processes, as a user runs them, against the anchor measured in the same run —
 * a bare `deno run` of a one-line script (`deno bench` prints each case "× slower than" it):
 *
 * - `partgraph nodes` (the catalogue: node declarations only), `partgraph schema` and
 *   `partgraph check graphs/aircraft.json` (validation, nothing runs);
 * - `partgraph run` of a small graph (read a file, write it: the runtime without any decoder or
 *   glTF-Transform) and the first, cold-cache run of `graphs/aircraft.json` (demo fighter, rig,
 *   export).
 *
 * The start-up cases are also run interleaved first (one of each per round), and each one's median
 * ratio to the anchor in the same round is printed: the shared machine's load drifts while `deno bench`
 * runs one case after another, and that ratio is the figure the README quotes.
 *
 * Run alone: `deno bench --frozen --allow-read --allow-write --allow-run tests/bench/startup_bench.ts`.
 * With `-- --before=DIR` (a checkout of an earlier commit, e.g. from `git archive`), every partgraph
 * case runs on that tree too, in the same session, as a "before:" row.
 */
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "../..");
const BEFORE = Deno.args.find((arg) => arg.startsWith("--before="))?.slice("--before=".length);
/** The trees partgraph cases run on: this one, and the "before" tree when given. */
const TREES = [
  { prefix: "", root: ROOT },
  ...(BEFORE ? [{ prefix: "before: ", root: resolve(BEFORE) }] : []),
];
const work = Deno.makeTempDirSync({ prefix: "partgraph-startup-bench-" });
const bare = join(work, "bare.ts");
Deno.writeTextFileSync(bare, 'console.log("partgraph");\n');
const input = join(work, "input.txt");
Deno.writeTextFileSync(input, "partgraph start-up\n");
const copyGraph = join(work, "copy.json");
Deno.writeTextFileSync(
  copyGraph,
  JSON.stringify({
    version: 1,
    nodes: {
      read: { type: "io.read", params: { path: input } },
      write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: "copy.txt" } },
    },
    outputs: {},
  }),
);

/** Runs `deno <args>` in `cwd` to completion, failing loudly. */
async function deno(args: string[], cwd: string): Promise<void> {
  const command = new Deno.Command(Deno.execPath(), { args, cwd, stdout: "null", stderr: "piped" });
  const { code, stderr } = await command.output();
  if (code !== 0) {
    throw new Error(`deno ${args.join(" ")} failed (${code}): ${new TextDecoder().decode(stderr)}`);
  }
}

/** `partgraph <args>` as the `partgraph` task runs it, with room to write its output and cache. */
function partgraph(...args: string[]): string[] {
  return ["run", "--frozen", "--allow-read", `--allow-write=${work}`, "cli/main.ts", ...args];
}

/** Every start-up case: the anchor first, then each command on each tree. */
const CASES: { name: string; args: string[]; cwd: string; n: number }[] = [
  { name: "deno run of a one-line script (anchor)", args: ["run", "--no-config", bare], cwd: work, n: 30 },
  ...TREES.flatMap(({ prefix, root }) => [
    { name: `${prefix}partgraph nodes`, args: partgraph("nodes"), cwd: root, n: 30 },
    { name: `${prefix}partgraph schema`, args: partgraph("schema"), cwd: root, n: 30 },
    {
      name: `${prefix}partgraph check graphs/aircraft.json`,
      args: partgraph("check", "graphs/aircraft.json"),
      cwd: root,
      n: 30,
    },
    {
      name: `${prefix}partgraph run: read a file, write it (--no-cache)`,
      args: partgraph("run", copyGraph, "--no-cache", "--quiet", "--out", work),
      cwd: root,
      n: 20,
    },
  ]),
];

/** A case as the interleaved rounds run it. */
type Timed = { name: string; run: () => Promise<void> };

/** Runs each case once per round and prints medians and the median per-round ratio to the first case. */
async function interleaved(title: string, cases: Timed[], rounds: number): Promise<void> {
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, { run }] of cases.entries()) {
      const started = performance.now();
      await run();
      times[i].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1];
  console.log(
    `${title}, ${rounds} interleaved rounds (median, median ratio to the first case in the same round):`,
  );
  for (const [i, { name }] of cases.entries()) {
    const ratio = median(times[i].map((t, round) => t / times[0][round]));
    console.log(`  ${name}: ${median(times[i]).toFixed(1)} ms, ${ratio.toFixed(2)}×`);
  }
}

let round = 0;
/** The first `run` of `graphs/aircraft.json` on a tree, into an empty disk cache. */
async function firstAircraftRun(root: string): Promise<void> {
  const cache = join(work, `cache-${round++}`);
  await deno(partgraph("run", "graphs/aircraft.json", "--quiet", "--out", work, "--cache-dir", cache), root);
  Deno.removeSync(cache, { recursive: true });
}

await interleaved("start-up", CASES.map(({ name, args, cwd }) => ({ name, run: () => deno(args, cwd) })), 15);
await interleaved(
  "first run of graphs/aircraft.json",
  TREES.map(({ prefix, root }) => ({ name: `${prefix}partgraph run`, run: () => firstAircraftRun(root) })),
  7,
);

for (const [i, { name, args, cwd, n }] of CASES.entries()) {
  Deno.bench({
    name,
    group: "start-up",
    baseline: i === 0,
    n,
    warmup: 3,
    fn: async () => await deno(args, cwd),
  });
}

for (const { prefix, root } of TREES) {
  Deno.bench({
    name: `${prefix}partgraph run graphs/aircraft.json, first run (empty cache)`,
    group: "aircraft",
    baseline: !prefix,
    n: 8,
    warmup: 1,
    fn: async () => await firstAircraftRun(root),
  });
}

globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));
