/**
 * Structure-aware sweep of the decoders, run by hand: every structural field of every seed file (the
 * corpus files and real-shaped files made by code; `tests/nodes/decode/sweep/`) set to each of its
 * boundary values — 0, 1, −1, the maximum, size ± 1, itself, its parent, a cycle — through
 * `decode.auto` and the full pipeline to a Khronos-validated `export.gltf` output. Carnivores
 * (`.3df`, `.car`, `.rsc`) and Freelancer (`.cmp`, `.3db`) seeds by their binary layouts; glTF (JSON
 * or GLB, 2.0 or 1.0) by every count, length, offset, stride and index of their JSON and the binary
 * headers inside them (GLB chunks, embedded PNG, JPEG, DDS and KTX2 headers, Draco and meshopt
 * streams); DSON by its counts, `values` arrays, index rows and links. Each case runs in a child
 * process with a heap cap, so a hang (no answer within the time limit) or an out-of-memory death is
 * counted and the sweep goes on.
 *
 * Prints the outcomes (typed error / warning / success, and the failures: crash, invalid, disagree,
 * alloc, hang, oom) per seed and field kind, and each failing case; exits 1 on any failure.
 * The test suite runs a sample of the same cases (`tests/nodes/decode/sweep/sweep_test.ts`).
 *
 * Usage: `deno task sweep [--timeout 10] [--memory 1024] [--only <seed name>] [--format <3df|car|rsc|cmp|gltf|dson>]
 * [--log <file.jsonl>]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runCaseChild } from "./case_child.ts";
import { applyCase } from "../tests/nodes/decode/sweep/cases.ts";
import { runSweepCase, sweepSeeds } from "../tests/nodes/decode/sweep/run.ts";
import { CORPUS_DIR } from "../tests/support/corpus.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    timeout: { type: "string", default: "10" },
    memory: { type: "string", default: "1024" },
    only: { type: "string" },
    format: { type: "string" },
    child: { type: "string" },
    from: { type: "string", default: "0" },
    log: { type: "string" },
  },
});

const encoder = new TextEncoder();
const seeds = await sweepSeeds();
if (values.child === undefined && !seeds.some((s) => s.name === "sketchbook_airplane.glb")) {
  console.log(`shared corpus absent (${CORPUS_DIR}): sweeping the seeds made by code only`);
}

if (values.child !== undefined) {
  // Worker: runs the cases of one seed from `--from` on, an NDJSON line before and after each.
  const seed = seeds[Number(values.child)];
  const say = (line: unknown) => Deno.stdout.writeSync(encoder.encode(JSON.stringify(line) + "\n"));
  for (let i = Number(values.from); i < seed.cases.length; i++) {
    say({ start: i });
    const result = await runSweepCase(applyCase(seed.bytes, seed.cases[i]), seed.name);
    say({ index: i, ...result });
  }
  Deno.exit(0);
}

const timeoutMs = Number(values.timeout) * 1000;
const FAILURES = new Set(["crash", "invalid", "disagree", "alloc", "hang", "oom"]);
const totals: Record<string, number> = {};
const failures: string[] = [];
let fields = 0;
let cases = 0;
const started = performance.now();
const log: string[] = [];

for (const [s, seed] of seeds.entries()) {
  if (values.only && values.only !== seed.name) continue;
  if (values.format && values.format !== seed.format) continue;
  const tally: Record<string, number> = {};
  const count = (outcome: string, i: number, detail?: string) => {
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    const { field, value } = seed.cases[i];
    if (values.log) log.push(JSON.stringify({ seed: seed.name, index: i, field, value, outcome, detail }));
    totals[outcome] = (totals[outcome] ?? 0) + 1;
    if (FAILURES.has(outcome)) {
      failures.push(
        `${seed.name} #${i} ${field} = ${value}: ${outcome}\n    ${
          detail?.split("\n").slice(0, 6).join("\n    ")
        }`,
      );
    }
  };
  fields += new Set(seed.cases.map((c) => c.field)).size;
  cases += seed.cases.length;
  let next = 0;
  while (next < seed.cases.length) {
    const { current, hung, success, stderr: err } = await runCaseChild(
      [
        "run",
        "--frozen",
        "--allow-read",
        "--allow-run",
        `--v8-flags=--max-old-space-size=${values.memory}`,
        new URL(import.meta.url).pathname,
        "--child",
        String(s),
        "--from",
        String(next),
      ],
      timeoutMs,
      (line) => {
        count(line.outcome, line.index, line.detail);
        next = line.index + 1;
      },
    );
    if (current !== undefined) {
      count(hung ? "hang" : "oom", current, hung ? `no answer in ${values.timeout} s` : err.slice(-400));
      next = current + 1;
    } else if ((hung || !success) && next < seed.cases.length) {
      // It hung or died between cases (loading, say), in no case of the seed: a new child would again.
      count(
        "crash",
        next,
        hung ? `no line from the child in ${values.timeout} s, between cases` : err.slice(-400),
      );
      break;
    }
  }
  console.log(`${seed.name} (${seed.format}, ${seed.bytes.byteLength} B): ${seed.cases.length} cases`, tally);
}
console.log(
  `\n${fields} fields, ${cases} cases in ${((performance.now() - started) / 1000).toFixed(0)} s:`,
  totals,
);
if (values.log) await Deno.writeTextFile(values.log, log.join("\n") + "\n");
if (failures.length) {
  console.log(`\n${failures.length} failure(s):\n` + failures.join("\n"));
  Deno.exit(1);
}
