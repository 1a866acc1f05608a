/**
 * The fuzz-survivor client sweep, run by hand: seeded fuzz cases of every format
 * (`tests/fuzz/pipeline.ts`'s mutations) that partgraph decodes and exports are loaded by Blender 3.4's
 * importer (one Blender process per format and seed) and three.js's `GLTFLoader`
 * (`tests/clients/survivor_census.ts`). Counts per format the survivors and the problems a user would
 * meet — refused or raised, NaN/Inf reaching the client, mesh objects or materials lost, absurd extent —
 * and which of those partgraph's warnings named; a silent problem is the worst.
 * `tests/clients/survivor_clients_test.ts` runs a handful of held-out cases of the same.
 *
 * Usage: `deno run --frozen --allow-read --allow-write --allow-run scripts/survivor_clients_sweep.ts
 * [--seeds 1-2] [--count 40] [--formats 3df,car,glb] [--verbose]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { CORPUS_FORMATS, FUZZ_FORMATS } from "../tests/fuzz/seeds.ts";
import {
  blenderProblems,
  blenderSurvivors,
  type ClientProblem,
  glbJson,
  survivor,
  threeProblems,
  warnedOf,
} from "../tests/clients/survivor_census.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seeds: { type: "string", default: "1-2" },
    count: { type: "string", default: "40" },
    formats: { type: "string", default: FUZZ_FORMATS.join(",") },
    verbose: { type: "boolean", default: false },
  },
});
const [low, high = low] = values.seeds!.split("-").map(Number);
const count = Number(values.count);
const known: readonly string[] = [...FUZZ_FORMATS, ...CORPUS_FORMATS];
for (const format of values.formats!.split(",")) {
  if (!known.includes(format)) {
    throw new Error(`unknown format ${format}; the formats are ${known.join(", ")}`);
  }
}

console.log(`seeds ${low}-${high}, ${count} cases each: survivors; problems (warned / silent) by kind`);
const total = { survivors: 0, warned: 0, silent: 0 };
for (const format of values.formats!.split(",")) {
  const kinds = new Map<string, { warned: number; silent: number }>();
  let survivors = 0;
  for (let seed = low; seed <= high; seed++) {
    const runs = [];
    for (let i = 0; i < count; i++) {
      const run = await survivor(format as never, seed, i).catch((error) => {
        console.log(`${format} seed ${seed} case ${i}: crash (the fuzzer's to report) ${error}`);
        return undefined;
      });
      if (run) runs.push(run);
    }
    survivors += runs.length;
    if (!runs.length) continue;
    const census = await blenderSurvivors(runs.map((r) => r.glb));
    if ("skip" in census) throw new Error(`Blender cannot run: ${census.skip}`);
    for (const [i, run] of runs.entries()) {
      const problems: ClientProblem[] = [
        ...blenderProblems(glbJson(run.glb), census[i]),
        ...await threeProblems(run.glb),
      ];
      for (const problem of problems) {
        const key = `${problem.client} ${problem.kind}`;
        const tally = kinds.get(key) ?? { warned: 0, silent: 0 };
        kinds.set(key, tally);
        const warned = warnedOf(problem, run.warnings);
        tally[warned ? "warned" : "silent"]++;
        if (values.verbose || !warned) {
          console.log(
            `  ${run.label}: ${warned ? "warned" : "SILENT"} ${key}: ${problem.detail.slice(0, 240)}`,
          );
        }
      }
    }
  }
  const parts = [...kinds].map(([k, t]) => `${k} ${t.warned + t.silent} (${t.warned} / ${t.silent})`);
  console.log(`${format.padEnd(10)} survivors ${survivors}; ${parts.join("; ") || "no problems"}`);
  total.survivors += survivors;
  for (const t of kinds.values()) {
    total.warned += t.warned;
    total.silent += t.silent;
  }
}
console.log(
  `total: ${total.survivors} survivors, problems ${
    total.warned + total.silent
  } (${total.warned} warned / ${total.silent} silent)`,
);
