/**
 * The bounded fuzz run of the test suite: a few seeded mutations per format (more under `deno task
 * heldout`) through `decode.auto → constraints.resolve → export.gltf`. Every case must end in a validated output or
 * a typed error, quickly, and `export.gltf`'s fast output check must agree with the Khronos
 * validator on every output; `deno task fuzz` runs the same cases at length, in a child process
 * that also catches hangs and out-of-memory deaths.
 */
import assert from "node:assert/strict";
import { fuzzInput, type FuzzOutcome, runFuzzCase } from "./pipeline.ts";
import { EXTENDED_OUTPUT_FORMATS, FUZZ_FORMATS } from "./seeds.ts";
import { heldOutCount } from "../support/heldout.ts";

/**
 * Cases per format: 20 in the suite, where each format still ends both ways with outputs the fast
 * check decides — 50 for the quick formats whose first 20 cases are all refusals (webp, avif,
 * instanced) — and 150 under `deno task heldout`; `deno task fuzz` runs the long campaigns.
 */
const casesOf = (format: string) =>
  heldOutCount(150, ["webp", "avif", "instanced"].includes(format) ? 50 : 20);
/**
 * A case slower than this counts as a hang. Far above a case's time (tens of ms; the first of a format
 * loads its decoders): on a loaded host 5 s failed a correct case at 5.3 s and 33 s, and a runaway case
 * (an unbounded loop or allocation) takes far longer still. `deno task fuzz` catches true hangs in a child.
 */
const CASE_LIMIT_MS = 60_000;
const SEED = 0xf022;

Deno.test("fuzz inputs are deterministic by (format, seed, index)", async () => {
  for (const format of FUZZ_FORMATS) {
    const a = await fuzzInput(format, 5, 17);
    const b = await fuzzInput(format, 5, 17);
    const c = await fuzzInput(format, 6, 17);
    assert.deepEqual(a.bytes, b.bytes, format);
    assert.notDeepEqual(a.bytes, c.bytes, format);
  }
});

Deno.test("consecutive fuzz cases of a large seed (a date) are each mutated their own way", async () => {
  const inputs = await Promise.all(Array.from({ length: 8 }, (_, i) => fuzzInput("glb", 20261208, i)));
  const distinct = new Set(inputs.map(({ bytes }) => bytes.join()));
  assert.equal(distinct.size, inputs.length);
});

for (const format of FUZZ_FORMATS) {
  const CASES_PER_FORMAT = casesOf(format);
  Deno.test(`fuzz: ${CASES_PER_FORMAT} mutated ${format} files each give a valid output or a typed error`, async () => {
    const counts: Record<FuzzOutcome, number> = { ok: 0, typed: 0, crash: 0, invalid: 0, disagree: 0 };
    const checks = { valid: 0, invalid: 0, outside: 0 };
    for (let i = 0; i < CASES_PER_FORMAT; i++) {
      const { name, bytes } = await fuzzInput(format, SEED, i);
      const started = performance.now();
      const result = await runFuzzCase(bytes, name);
      const ms = performance.now() - started;
      assert.ok(ms < CASE_LIMIT_MS, `${format} case ${i} took ${ms.toFixed(0)} ms`);
      if (result.check) checks[result.check]++;
      if (result.outcome === "crash" || result.outcome === "invalid" || result.outcome === "disagree") {
        assert.fail(`${format} seed ${SEED} case ${i}: ${result.outcome}\n${result.detail}`);
      }
      counts[result.outcome]++;
    }
    // Both kinds of ending must occur, or the mutations are too mild (or too harsh) to mean anything.
    assert.ok(counts.ok > 0 && counts.typed > 0, JSON.stringify(counts));
    // The fast check must decide some outputs itself, or the agreement above tests nothing; where the
    // outputs keep an extension, the validator decides every one of them.
    if (EXTENDED_OUTPUT_FORMATS.has(format)) assert.equal(checks.valid + checks.invalid, 0);
    else assert.ok(checks.valid > 0, `fast check verdicts ${JSON.stringify(checks)}`);
    console.log(`${format}: ${JSON.stringify(counts)}; fast check verdicts ${JSON.stringify(checks)}`);
  });
}
