/**
 * The structure sweep, short: a fixed sample (every 20th case, and every case of the fields that once
 * decoded silently wrong) of the cases `scripts/structure_sweep.ts` runs in full — each structural
 * field of each Carnivores and Freelancer seed set to a boundary value — through `decode.auto` and
 * the full pipeline to a validated export. Every case must end in a typed error, a warning or a
 * success; never a crash, an invalid output, an export refusal or an allocation the file's size does
 * not justify. Hangs are the full script's to catch (it runs each case in a child with a time limit).
 */
import assert from "node:assert/strict";
import { applyCase, type Case } from "./cases.ts";
import { allocationBudget, runSweepCase, type SweepOutcome, sweepSeeds } from "./run.ts";

const STRIDE = 20;
/** Fields whose boundary values once decoded without a word (now warnings): all their cases run. */
const ONCE_SILENT =
  /'VMeshData' @\d+ (FVF|mesh type)$|'VMeshRef' @\d+ (index start|index count|vertex count)$/;
/** Emptied (first child 0), these directories once cost a part its mesh or LODs without a word. */
const ONCE_SILENT_EMPTIED = /^entry '(Level\d+|VMeshPart)' @\d+ first child$/;
const mustWarn = (c: Case) =>
  ONCE_SILENT.test(c.field) || (ONCE_SILENT_EMPTIED.test(c.field) && c.value === "0");

const seeds = await sweepSeeds();

for (const seed of seeds) {
  Deno.test(`structure sweep (sample): ${seed.name} — no crash, invalid output or unjustified allocation`, async () => {
    const tally: Partial<Record<SweepOutcome, number>> = {};
    const failures: string[] = [];
    const sample = seed.cases.filter((c, i) => i % STRIDE === 0 || mustWarn(c));
    for (const c of sample) {
      const bytes = applyCase(seed.bytes, c);
      const result = await runSweepCase(bytes, seed.name);
      tally[result.outcome] = (tally[result.outcome] ?? 0) + 1;
      if (!["typed", "warning", "success"].includes(result.outcome)) {
        failures.push(`${c.field} = ${c.value}: ${result.outcome} — ${result.detail}`);
      }
      if (mustWarn(c) && result.outcome === "success") {
        failures.push(`${c.field} = ${c.value}: decoded without a warning`);
      }
    }
    assert.deepEqual(failures, []);
    // The sample reaches every kind of ending the sweep is for (a seed whose every case decoded, or
    // none did, would mean the cases no longer touch what the decoder reads).
    assert.ok(
      (tally.typed ?? 0) > 0 && (tally.warning ?? 0) + (tally.success ?? 0) > 0,
      JSON.stringify(tally),
    );
  });
}

Deno.test("structure sweep: the allocation tracker sees the decode's buffers, and a 2³¹−1 vertex count allocates nothing near it", async () => {
  // A 3DF whose header claims 2^31−1 vertices must be refused before anything that size is allocated.
  const seed = seeds.find((s) => s.format === "3df")!;
  const huge = seed.cases.find((c) => c.field === "vertex count" && c.value === "2147483647")!;
  const result = await runSweepCase(applyCase(seed.bytes, huge), seed.name);
  assert.equal(result.outcome, "typed");
  assert.ok(result.largest < allocationBudget(seed.bytes.byteLength), String(result.largest));
  // The tracker sees allocations at all: the valid file's decode allocates its texture and tables.
  const valid = await runSweepCase(seed.bytes, seed.name);
  assert.ok(valid.largest >= 256 * 2, `largest allocation ${valid.largest}`);
});
