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
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (code !== 0) {
    throw new Error(`deno ${args.join(" ")} failed (${code}): ${new TextDecoder().decode(stderr)}`);
  }
}

/** `partgraph <args>` as the `partgraph` task runs it, with room to write its output and cache. */
const partgraph = (
  ...args: string[]
) => ["run", "--frozen", "--allow-read", `--allow-write=${work}`, "cli/main.ts", ...args];

Deno.bench({
  name: "deno run of a one-line script (anchor)",
  group: "start-up",
  baseline: true,
  n: 30,
  warmup: 3,
  fn: async () => await deno(["run", "--no-config", bare], work),
});

let round = 0;
for (const { prefix, root } of TREES) {
  const cases: [string, string[], number][] = [
    ["partgraph nodes", partgraph("nodes"), 30],
    ["partgraph schema", partgraph("schema"), 30],
    ["partgraph check graphs/aircraft.json", partgraph("check", "graphs/aircraft.json"), 30],
    [
      "partgraph run: read a file, write it (--no-cache)",
      partgraph("run", copyGraph, "--no-cache", "--quiet", "--out", work),
      20,
    ],
  ];
  for (const [name, args, n] of cases) {
    Deno.bench({
      name: `${prefix}${name}`,
      group: "start-up",
      n,
      warmup: 3,
      fn: async () => await deno(args, root),
    });
  }
  Deno.bench({
    name: `${prefix}partgraph run graphs/aircraft.json, first run (empty cache)`,
    group: "aircraft",
    baseline: !prefix,
    n: 8,
    warmup: 1,
    async fn(b) {
      const cache = join(work, `cache-${round++}`);
      b.start();
      await deno(
        partgraph("run", "graphs/aircraft.json", "--quiet", "--out", work, "--cache-dir", cache),
        root,
      );
      b.end();
      Deno.removeSync(cache, { recursive: true });
    },
  });
}

globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));
