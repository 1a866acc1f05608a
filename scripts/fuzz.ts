/**
 * `deno task fuzz` — long fuzz runs: seeded mutations of every format through
 * `decode.auto → constraints.resolve → export.gltf`, each written output checked with the Khronos
 * validator, which must also agree with `export.gltf`'s fast output check on every output it wrote
 * or refused (a disagreement is a failure). Cases run in a child process with a heap cap, so a hang
 * (no answer within the time limit) or an out-of-memory death is counted and the run goes on with
 * the next case.
 *
 * Usage: `deno task fuzz [--count 10000] [--seed 1] [--from 0] [--formats cmp,glb] [--timeout 10]
 * [--memory 4096]`. `--formats hostile` runs the structure-aware hostile sets (tests/fuzz/hostile.ts:
 * `hostile-gltf`, `hostile-glb`, `hostile-payload`, `hostile-utf`, `hostile-carnivores`,
 * `hostile-views`), which
 * the default leaves out. Prints a table of ok / typed / crash / invalid / disagree / hang / oom per
 * format, with how many outputs the fast check decided itself (the rest went to the validator),
 * and the first case of each distinct failure (format, seed, index: rerun it with
 * `--from <index> --count 1`); exits 1 when anything but ok and typed occurred.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { CORPUS_FORMATS, FUZZ_FORMATS } from "../tests/fuzz/seeds.ts";
import { HOSTILE_FORMATS } from "../tests/fuzz/hostile.ts";
import { runCaseChild } from "./case_child.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    count: { type: "string", default: "1000" },
    seed: { type: "string", default: "1" },
    from: { type: "string", default: "0" },
    formats: { type: "string", default: FUZZ_FORMATS.join(",") },
    timeout: { type: "string", default: "10" },
    memory: { type: "string", default: "4096" },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const from = Number(values.from);
const timeoutMs = Number(values.timeout) * 1000;
// An unknown format would fail every case in a child of its own: say so once instead.
const known: readonly string[] = [...FUZZ_FORMATS, ...CORPUS_FORMATS, ...HOSTILE_FORMATS];
// `hostile` names every hostile set.
const formats = values.formats.split(",").flatMap((f) => f === "hostile" ? [...HOSTILE_FORMATS] : [f]);
const unknown = formats.filter((f) => !known.includes(f));
if (unknown.length) {
  console.error(`unknown format ${unknown.join(", ")}; the formats are ${known.join(", ")}`);
  Deno.exit(2);
}
const child = new URL("./fuzz_child.ts", import.meta.url).pathname;

type Tally = Record<"ok" | "typed" | "crash" | "invalid" | "disagree" | "hang" | "oom" | "fast", number>;
const failures = new Map<string, string>();

/** Runs cases [start, end) of a format in child processes, restarting after a hang or a death. */
async function fuzzFormat(format: string): Promise<Tally> {
  const tally: Tally = { ok: 0, typed: 0, crash: 0, invalid: 0, disagree: 0, hang: 0, oom: 0, fast: 0 };
  let next = from;
  while (next < from + count) {
    const { current, hung, success, stderr: errors } = await runCaseChild(
      [
        "run",
        "--frozen",
        "--allow-read",
        `--v8-flags=--max-old-space-size=${values.memory}`,
        child,
        format,
        String(seed),
        String(next),
        String(from + count - next),
      ],
      timeoutMs,
      (line) => {
        tally[line.outcome as keyof Tally]++;
        if (line.check === "valid" || line.check === "invalid") tally.fast++; // decided without the validator
        if (line.detail) note(format, line.index, line.outcome, line.detail);
        next = line.index + 1;
      },
    );
    if (current === undefined) {
      if (success) continue;
      // Died between cases (e.g. while loading): report once and stop this format.
      note(format, next, "crash", errors.slice(-400));
      tally.crash++;
      break;
    }
    const kind = hung ? "hang" : /out of memory|heap limit/i.test(errors) ? "oom" : "crash";
    tally[kind]++;
    note(format, current, kind, hung ? `no answer within ${values.timeout} s` : errors.slice(-400));
    next = current + 1;
  }
  return tally;
}

function note(format: string, index: number, outcome: string, detail: string): void {
  const key = `${format} ${outcome} ${detail.split("\n")[0].slice(0, 160)}`;
  if (!failures.has(key)) {
    const text = `${format} seed ${seed} case ${index}: ${outcome}\n  ${
      detail.split("\n").slice(0, 3).join("\n  ")
    }`;
    failures.set(key, text);
    console.error(text); // at once, so a long run's first failures can be looked at while it goes on
  }
}

const rows: string[] = [
  "| format | inputs | ok | typed | crash | invalid | disagree | hang | oom | fast check decided | seconds |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
let bad = 0;
for (const format of formats) {
  const started = performance.now();
  const t = await fuzzFormat(format);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  bad += t.crash + t.invalid + t.disagree + t.hang + t.oom;
  rows.push(
    `| ${format} | ${count} | ${t.ok} | ${t.typed} | ${t.crash} | ${t.invalid} | ${t.disagree} | ${t.hang} | ${t.oom} | ${t.fast} | ${seconds} |`,
  );
  console.error(rows.at(-1));
}
console.log(rows.join("\n"));
for (const failure of failures.values()) console.log(failure);
Deno.exit(bad ? 1 : 0);
