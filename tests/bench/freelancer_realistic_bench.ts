/**
 * `decode.cmp` throughput on compounds shaped like retail ones (many parts, 3–5 LODs, small material
 * groups, textures; `realistic_cmp.ts`) next to the single-mesh compound (`large_cmp.ts`), through
 * the node API as a graph runs them: decode only, and decode + `constraints.resolve` + `export.gltf`,
 * with resolve on a copy (as under a caller's memory tier, the studio's way) and on the scene handed
 * over (as in a CLI or batch run, where the decoded scene has one consumer).
 * Run: `deno bench --frozen --allow-read --allow-write tests/bench/freelancer_realistic_bench.ts`
 * (with `--allow-sys` it prints the load average too).
 * Besides the Deno.bench timings it prints MB/s and µs per accessor of each set (the best of five
 * passes, so other processes on a shared machine disturb the figure less), with the load average,
 * by the wall clock and by the process's CPU time: on a machine shared by more runs than it has
 * cores the wall clock mostly measures the others, CPU time (GC threads included) this process.
 * Stage after stage, best of five still compares passes taken minutes apart: to compare commits or
 * quote a figure under load, run `scripts/bench_interleaved.ts` (the anchor and each stage in turns,
 * ratios to the same round's anchor).
 *
 * Every pass starts with no PNG encoding remembered (`forgetPngEncodings`), so each texture is
 * deflated as a first decode would; the "textures seen" line keeps them, as a batch over models that
 * share a texture library does. The anchor is glTF-Transform alone making the same meshes,
 * primitives and accessors over the same arrays with the fewest calls: the floor a builder on
 * glTF-Transform cannot go below, measured in the same run.
 */
import process from "node:process";
import {
  type BenchSet,
  glTFTransformFloor,
  meshShapes,
  REALISTIC,
  runSet,
  SINGLE_MESH,
  STAGES,
} from "./freelancer_realistic_stages.ts";

/** The best of five timed passes of `run`, in ms of wall clock and of process CPU time. */
async function bestOfFive(run: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  await run();
  const best = { wall: Infinity, cpu: Infinity };
  for (let pass = 0; pass < 5; pass++) {
    const wall = performance.now(), cpu = cpuMs();
    await run();
    best.cpu = Math.min(best.cpu, cpuMs() - cpu);
    best.wall = Math.min(best.wall, performance.now() - wall);
  }
  return best;
}

async function report(set: BenchSet): Promise<void> {
  const bytes = set.files.reduce((sum, f) => sum + f.byteLength, 0);
  const scenes = await runSet(set, "decode", true);
  const accessors = scenes.reduce((sum, scene) => sum + scene.getRoot().listAccessors().length, 0);
  const figure = (ms: number) =>
    `${ms.toFixed(0)} ms = ${(bytes / 1e3 / ms).toFixed(0)} MB/s, ${
      (ms * 1000 / accessors).toFixed(1)
    } µs/accessor`;
  const line = (stage: string, ms: { wall: number; cpu: number }, anchor?: { wall: number; cpu: number }) =>
    console.log(
      `${set.label}, ${stage}: ${(bytes / 1e6).toFixed(1)} MB, ${accessors} accessors; ` +
        `CPU ${figure(ms.cpu)}${anchor ? ` (${(ms.cpu / anchor.cpu).toFixed(2)}× the anchor)` : ""}; ` +
        `wall ${figure(ms.wall)}${anchor ? ` (${(ms.wall / anchor.wall).toFixed(2)}×)` : ""}`,
    );
  const shapes = meshShapes(scenes);
  const floor = await bestOfFive(() => glTFTransformFloor(shapes));
  line("anchor: glTF-Transform alone, same accessors", floor);
  for (const stage of STAGES) {
    line(stage, await bestOfFive(() => runSet(set, stage)), floor);
  }
}

for (const set of [REALISTIC, SINGLE_MESH]) await report(set);
console.log(`load average ${loadAverage()} on ${navigator.hardwareConcurrency} cores`);

/** The 1/5/15-minute load average, so a figure can be read against how busy the machine was. */
function loadAverage(): string {
  try {
    return Deno.loadavg().map((load) => load.toFixed(1)).join(" ");
  } catch {
    return "unknown (run with --allow-sys to see it)";
  }
}

const REALISTIC_SHAPES = meshShapes(await runSet(REALISTIC, "decode", true));
Deno.bench({
  name: `anchor: glTF-Transform alone, ${REALISTIC.label}`,
  group: REALISTIC.label,
  n: 3,
  baseline: true,
}, () => {
  glTFTransformFloor(REALISTIC_SHAPES);
});
for (const set of [REALISTIC, SINGLE_MESH]) {
  Deno.bench({ name: `decode.cmp, ${set.label}`, group: set.label, n: 3 }, async () => {
    await runSet(set, "decode");
  });
  Deno.bench(
    { name: `decode.cmp + resolve + export.gltf, ${set.label}`, group: set.label, n: 3 },
    async () => {
      await runSet(set, "decode + resolve + export");
    },
  );
}
