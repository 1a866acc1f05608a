/**
 * The Freelancer realistic bench, interleaved: in one process, each round times the anchor
 * (glTF-Transform alone building the same accessors) and every stage once, in turns (the round's
 * order rotated, so no stage always follows the anchor), with a garbage collection before each timed
 * pass. Each stage's figure is its ratio to the anchor of the same round, reported as the median and
 * range over the rounds, by process CPU time and by wall clock. On a machine other runs share, the
 * best of five stage after stage (`tests/bench/freelancer_realistic_bench.ts`) compares passes taken
 * minutes apart under different loads; a ratio taken in the same seconds cancels most of that, so
 * this is the figure to quote and to compare commits by.
 *
 * Run: `deno run --frozen -A --v8-flags=--expose-gc scripts/bench_interleaved.ts [--rounds 12]
 * [--set realistic|single-mesh] [--stages decode,export,handed]` (stages: decode, seen, export,
 * handed; all by default). Without `--expose-gc` it says so and times without the collections.
 *
 * @module
 */
import process from "node:process";
import {
  type BenchSet,
  glTFTransformFloor,
  meshShapes,
  REALISTIC,
  runSet,
  SINGLE_MESH,
  type Stage,
  STAGES,
} from "../tests/bench/freelancer_realistic_stages.ts";

/** Short names for `--stages`. */
const STAGE_NAMES: Readonly<Record<string, Stage>> = {
  decode: STAGES[0],
  seen: STAGES[1],
  export: STAGES[2],
  handed: STAGES[3],
};

/** One timed pass: ms of process CPU time (GC threads included) and of wall clock. */
interface Pass {
  readonly cpu: number;
  readonly wall: number;
}

function option(name: string): string | undefined {
  const at = Deno.args.indexOf(`--${name}`);
  return at < 0 ? undefined : Deno.args[at + 1];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const rounds = Number(option("rounds") ?? 12);
if (!Number.isInteger(rounds) || rounds < 1) {
  throw new Error(`--rounds: expected a whole number ≥ 1, found ${option("rounds")}`);
}
const setName = option("set") ?? "realistic";
const sets: Record<string, BenchSet> = { realistic: REALISTIC, "single-mesh": SINGLE_MESH };
const set = sets[setName];
if (!set) throw new Error(`--set: expected realistic or single-mesh, found ${setName}`);
const stages = (option("stages") ?? "decode,seen,export,handed").split(",").map((name) => {
  const stage = STAGE_NAMES[name];
  if (!stage) throw new Error(`--stages: expected decode, seen, export or handed, found ${name}`);
  return stage;
});

// deno-lint-ignore no-explicit-any
const gc = (globalThis as any).gc as (() => void) | undefined;
if (!gc) console.log("no --v8-flags=--expose-gc: timing without a collection before each pass");
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
async function timed(run: () => unknown): Promise<Pass> {
  gc?.();
  const wall = performance.now(), cpu = cpuMs();
  await run();
  return { cpu: cpuMs() - cpu, wall: performance.now() - wall };
}

const shapes = meshShapes(await runSet(set, "decode", true));
const bytes = set.files.reduce((sum, f) => sum + f.byteLength, 0);
const runs: [string, () => unknown][] = [
  ["anchor", () => glTFTransformFloor(shapes)],
  ...stages.map((stage) => [stage, () => runSet(set, stage)] as [string, () => unknown]),
];
// A warm-up pass of each: the first pass of a stage compiles its code.
for (const [, run] of runs) await run();
const passes = new Map<string, Pass[]>(runs.map(([name]) => [name, []]));
const loadBefore = Deno.loadavg();
const started = performance.now();
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < runs.length; k++) {
    const [name, run] = runs[(round + k) % runs.length];
    passes.get(name)!.push(await timed(run));
  }
}
const minutes = (performance.now() - started) / 60000;
const loadAfter = Deno.loadavg();

const anchor = passes.get("anchor")!;
const range = (values: number[]) =>
  `${median(values).toFixed(2)}× (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
console.log(
  `${set.label}: ${(bytes / 1e6).toFixed(1)} MB; ${rounds} rounds in ${minutes.toFixed(1)} min; ` +
    `load ${loadBefore.map((l) => l.toFixed(1)).join(" ")} -> ${
      loadAfter.map((l) => l.toFixed(1)).join(" ")
    } ` +
    `on ${navigator.hardwareConcurrency} cores`,
);
for (const [name] of runs) {
  const own = passes.get(name)!;
  const cpu = median(own.map((p) => p.cpu)), wall = median(own.map((p) => p.wall));
  const ratios = name === "anchor"
    ? ""
    : `; to the anchor, CPU ${range(own.map((p, r) => p.cpu / anchor[r].cpu))}, ` +
      `wall ${range(own.map((p, r) => p.wall / anchor[r].wall))}`;
  console.log(
    `  ${name}: median CPU ${cpu.toFixed(0)} ms (${(bytes / 1e3 / cpu).toFixed(1)} MB/s), ` +
      `wall ${wall.toFixed(0)} ms (${(bytes / 1e3 / wall).toFixed(1)} MB/s)${ratios}`,
  );
}
