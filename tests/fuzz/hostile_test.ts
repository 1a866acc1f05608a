/**
 * The suite's sample of the hostile sets (`deno task fuzz --formats hostile` runs them at length):
 * each structure-aware family once, on the small glTF bases, through the full pipeline. Every case
 * must end in a validated output or a typed error, quickly. The families too heavy for the suite (a
 * million nodes, 65,535 UTF children, near-limit Carnivores grids and long clips) run only there.
 */
import assert from "node:assert/strict";
import { runFuzzCase } from "./pipeline.ts";
import { hostileFamilies, type HostileFormat, hostileInput } from "./hostile.ts";

const HEAVY = new Set(["many-nodes", "many-children", "grid-near-limit", "car-many-frames"]);
/**
 * A case slower than this counts as a hang: far above a light case's time, so a loaded host does not
 * fail a correct case (as 5 s did in `fuzz_test.ts`); true hangs are `deno task fuzz`'s, in a child.
 */
const CASE_LIMIT_MS = 60_000;
const SEED = 0x4057;

const sets: [HostileFormat, string | undefined][] = [
  ["hostile-gltf", "limb"],
  ["hostile-glb", "car"],
  ["hostile-payload", undefined],
  ["hostile-utf", undefined],
  ["hostile-carnivores", undefined],
  ["hostile-views", "limb"],
];

for (const [format, base] of sets) {
  Deno.test(`hostile ${format}: each family gives a valid output or a typed error`, async () => {
    const families = format === "hostile-payload"
      ? ["payload", "payload", "payload"]
      : hostileFamilies(format);
    const outcomes: string[] = [];
    for (const [i, family] of families.entries()) {
      if (HEAVY.has(family)) continue;
      const choice = format === "hostile-payload" ? {} : { family, base };
      const { name, bytes } = await hostileInput(format, SEED, i, choice);
      const started = performance.now();
      const result = await runFuzzCase(bytes, name);
      const ms = performance.now() - started;
      assert.ok(ms < CASE_LIMIT_MS, `${name} (case ${i}) took ${ms.toFixed(0)} ms`);
      assert.ok(
        result.outcome === "ok" || result.outcome === "typed",
        `${name} (seed ${SEED} case ${i}): ${result.outcome}\n${result.detail}`,
      );
      outcomes.push(`${family} ${result.outcome}`);
    }
    console.log(outcomes.join(", "));
  });
}
