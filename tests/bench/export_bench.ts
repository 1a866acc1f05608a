/**
 * Big-file export and cache, each as a ratio against its anchor measured in the same run
 * (`deno bench` prints them "× slower than" the baseline of each group). Every case is a fresh CLI
 * process, as a user runs it:
 *
 * - `round trip`: `graphs/gltf.json` on a code-built 4M-vertex GLB (~224 MB) against
 *   `gltf-transform copy` (`npm:@gltf-transform/cli`, run by the same Deno; skipped when it cannot
 *   be fetched). Peak memory (max RSS) and the least CPU time (user + system) of each case, from
 *   `/usr/bin/time` when there is one, are printed at the end, the round trip's as ratios to the anchor.
 * - `cache`: the same graph on a 1M-vertex GLB (~56 MB): `--no-cache` (baseline), a cold run that
 *   fills an empty cache, and a warm run.
 * - `validator`: in this process, `export.gltf` of the 1M scene (repair check, GLB, and its output
 *   check: the fast check with `validate: "auto"`, the Khronos validator with `"khronos"`) against
 *   writing its GLB alone; and `export.gltf` of the 16 realistic compounds of
 *   `freelancer_realistic_bench.ts`, decoded and resolved beforehand, with each `validate` value.
 * - `GLB writer`: in this process, `writeGlb`'s direct binary-chunk writer against glTF-Transform's
 *   writer (the path before it), on the 16 realistic Freelancer compounds (decoded and resolved, as
 *   `export.gltf` gets them) and on the 1M scene; least CPU time of each printed at the end.
 *
 * Start-up has a bench of its own, `startup_bench.ts`.
 *
 * Run alone: `deno bench --frozen --allow-read --allow-write --allow-run tests/bench/export_bench.ts`.
 * With `-- --before=DIR` (a checkout of an earlier commit, e.g. from `git archive`), every partgraph
 * case runs on that tree too, in the same session, as a "before:" row.
 */
import { join, resolve } from "node:path";
import { buildLargeGlb } from "../support/large_glb.ts";
import { runNode, testContext } from "../support/context.ts";
import { type ChunkWriter, readGltf, writeGlb, writeGlbVia } from "../../runtime/scene/gltf_io.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { decodeCmp } from "../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import process from "node:process";
import type { Document } from "@gltf-transform/core";
import { GENERATOR } from "../../runtime/version.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const BEFORE = Deno.args.find((arg) => arg.startsWith("--before="))?.slice("--before=".length);
/** The trees partgraph cases run on: this one, and the "before" tree when given. */
const TREES = [
  { prefix: "", root: ROOT },
  ...(BEFORE ? [{ prefix: "before: ", root: resolve(BEFORE) }] : []),
];
const work = Deno.makeTempDirSync({ prefix: "partgraph-export-bench-" });
const big = join(work, "4m.glb"), medium = join(work, "1m.glb");
Deno.writeFileSync(big, await buildLargeGlb(4_000_000));
Deno.writeFileSync(medium, await buildLargeGlb(1_000_000));

const TIME = (() => {
  try {
    return Deno.statSync("/usr/bin/time").isFile ? "/usr/bin/time" : undefined;
  } catch {
    return undefined;
  }
})();
/** Peak resident set (KiB) of each case, over its runs. */
const peaks = new Map<string, number>();
/**
 * Least CPU time (user + system, s) of each case, over its runs: on a machine shared with other
 * processes the wall clock mostly measures them, CPU time the case itself.
 */
const cpuTimes = new Map<string, number>();

/** Runs a command to completion (failing loudly), recording its peak memory and CPU time under `label`. */
async function run(label: string, args: string[], cwd = ROOT): Promise<void> {
  const [cmd, ...rest] = TIME
    ? [TIME, "-f", "%M %U %S", Deno.execPath(), ...args]
    : [Deno.execPath(), ...args];
  const { code, stderr } = await new Deno.Command(cmd, { args: rest, cwd, stdout: "null", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`${label} failed (${code}): ${text.slice(-2000)}`);
  const [kib, user, system] = TIME ? text.trim().split("\n").at(-1)!.split(" ").map(Number) : [NaN];
  if (Number.isFinite(kib)) peaks.set(label, Math.max(peaks.get(label) ?? 0, kib));
  const cpu = user + system;
  if (Number.isFinite(cpu)) cpuTimes.set(label, Math.min(cpuTimes.get(label) ?? Infinity, cpu));
}

const partgraph = (model: string, ...flags: string[]) => [
  "run",
  "--frozen",
  "--allow-read",
  "--allow-write",
  "cli/main.ts",
  "run",
  "graphs/gltf.json",
  "--set",
  `model=${model}`,
  "--out",
  join(work, "out"),
  "--quiet",
  ...flags,
];

const ANCHOR = ["run", "--no-config", "--no-lock", "-A", "npm:@gltf-transform/cli@4.5.1", "copy"];
const anchorWorks = await run("anchor probe", [...ANCHOR, medium, join(work, "probe.glb")], work)
  .then(() => true, (error) => {
    console.error(
      `gltf-transform copy unavailable (${error.message.split("\n")[0]}): round trip anchor skipped`,
    );
    return false;
  });

Deno.bench({
  name: "4M-vertex GLB: gltf-transform copy (anchor)",
  group: "round trip",
  baseline: true,
  ignore: !anchorWorks,
  n: 3,
  warmup: 1,
  fn: async () => await run("gltf-transform copy", [...ANCHOR, big, join(work, "anchor.glb")], work),
});

for (const { prefix, root } of TREES) {
  Deno.bench({
    name: `${prefix}4M-vertex GLB: partgraph run graphs/gltf.json --no-cache`,
    group: "round trip",
    n: 3,
    warmup: 1,
    fn: async () => await run(`${prefix}partgraph round trip`, partgraph(big, "--no-cache"), root),
  });
}

for (const { prefix, root } of TREES) {
  Deno.bench({
    name: `${prefix}1M-vertex GLB: --no-cache`,
    group: "cache",
    baseline: !prefix,
    n: 5,
    warmup: 1,
    fn: async () => await run(`${prefix}1M --no-cache`, partgraph(medium, "--no-cache"), root),
  });

  Deno.bench({
    name: `${prefix}1M-vertex GLB: cold, fills an empty disk cache`,
    group: "cache",
    n: 5,
    warmup: 1,
    async fn(b) {
      const dir = join(work, "cold");
      b.start();
      await run(`${prefix}1M cold`, partgraph(medium, "--cache-dir", dir), root);
      b.end();
      Deno.removeSync(dir, { recursive: true });
    },
  });

  const warmDir = join(work, `warm${prefix ? "-before" : ""}`);
  // Its own output folder: the other cases rewrite theirs, and a file changed in the last 2 s is
  // hashed again (racily clean, see runtime/cache/file_digests.ts), which is not what a warm run
  // after an earlier one costs. The warmup run hashes the output the fill wrote, once.
  const warmFlags = ["--cache-dir", warmDir, "--out", `${warmDir}-out`];
  await run(`${prefix}1M cache fill`, partgraph(medium, ...warmFlags), root);
  Deno.bench({
    name: `${prefix}1M-vertex GLB: warm disk cache`,
    group: "cache",
    n: 5,
    warmup: 1,
    fn: async () => await run(`${prefix}1M warm`, partgraph(medium, ...warmFlags), root),
  });
}

// Two documents, used in turn: writeGlb remembers the last document it wrote.
const scenes = [await readGltf(Deno.readFileSync(medium)), await readGltf(Deno.readFileSync(medium))];
let turn = 0;

Deno.bench({
  name: "1M-vertex scene: GLB only (anchor)",
  group: "validator",
  baseline: true,
  n: 5,
  warmup: 1,
  async fn() {
    await writeGlb(scenes[turn++ % 2], { generator: GENERATOR, uniqueNames: true });
  },
});

// The realistic set as export.gltf gets it: decoded and resolved (11.2 MB of .cmp).
const realistic: Document[] = [];
for (let i = 0; i < 16; i++) {
  const bytes = realisticCmp(i + 1, { parts: 8 + (i * 7) % 24 });
  const ctx = testContext("bench");
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes, name: `m${i}.cmp` } },
    { libraries: "none" },
    ctx,
  );
  realistic.push((await runNode(constraintsResolve, { scene }, {}, ctx)).scene);
}
for (const validate of ["auto", "khronos"] as const) {
  Deno.bench({
    name: `1M-vertex scene: export.gltf (GLB + repair check + output check), validate: ${validate}`,
    group: "validator",
    n: 5,
    warmup: 1,
    async fn() {
      await exportGltf.run({
        inputs: { scene: scenes[turn++ % 2] },
        params: { format: "glb", name: "scene", png_fallback: true, validate },
        ctx: testContext(),
      });
    },
  });
}

for (const validate of ["auto", "khronos"] as const) {
  Deno.bench({
    name: `16 realistic compounds, resolved: export.gltf, validate: ${validate}`,
    group: "realistic export",
    baseline: validate === "khronos",
    n: 5,
    warmup: 1,
    async fn() {
      for (const scene of realistic) await runNode(exportGltf, { scene }, { validate });
    },
  });
}

/** Least process CPU time (ms) of each writer case over its runs. */
const writerCpu = new Map<string, number>();

for (
  const [set, docs] of [["16 realistic compounds", realistic], ["1M-vertex scene", [scenes[0]]]] as const
) {
  for (const via of ["gltf-transform", "direct"] as ChunkWriter[]) {
    const label = `${set}: writeGlb, ${via === "direct" ? "direct chunk writer" : "glTF-Transform's writer"}`;
    Deno.bench({
      name: label,
      group: `GLB writer, ${set}`,
      baseline: via === "gltf-transform",
      n: 8,
      warmup: 2,
      async fn() {
        const { user, system } = process.cpuUsage();
        for (const doc of docs) await writeGlbVia(doc, { generator: GENERATOR, uniqueNames: true }, via);
        const after = process.cpuUsage();
        const ms = (after.user - user + after.system - system) / 1000;
        writerCpu.set(label, Math.min(writerCpu.get(label) ?? Infinity, ms));
      },
    });
  }
}

globalThis.addEventListener("unload", () => {
  for (const [label, ms] of writerCpu) console.log(`least CPU time ${label}: ${ms.toFixed(0)} ms`);
  const file = Deno.statSync(big).size;
  for (const [label, kib] of peaks) {
    const ratio = label.includes("round trip") || label.includes("copy")
      ? ` (${(kib * 1024 / file).toFixed(2)}× the 4M file)`
      : "";
    console.log(`peak memory ${label}: ${(kib / 1024).toFixed(0)} MiB${ratio}`);
  }
  const anchorCpu = cpuTimes.get("gltf-transform copy");
  for (const [label, cpu] of cpuTimes) {
    const ratio = anchorCpu && label.includes("round trip")
      ? ` (${(cpu / anchorCpu).toFixed(2)}× the anchor's)`
      : "";
    console.log(`least CPU time ${label}: ${cpu.toFixed(2)} s${ratio}`);
  }
  Deno.removeSync(work, { recursive: true });
});
