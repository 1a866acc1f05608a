/**
 * Kit-bashed tails (`kit_bashed_pairs.ts`): where one half of an elevator pair is named as the fixed
 * stabiliser (`HStab_Port` beside `Elevator_S`), that half is left fixed while its twin turns; before
 * rig.fit_hinge v76 nothing said so. Now a warning names both (`mirror_strays.ts`), and a pair both
 * named as elevators, in any style, draws none. Developed on seeds 100-239; these are held out.
 *
 * @module
 */
import assert from "node:assert";
import { kitBashedSample } from "./kit_bashed_pairs.ts";
import { rig } from "./pipeline.ts";

Deno.test("a kit-bashed elevator whose mirror twin is named a stabiliser is warned of", async () => {
  const tally = { strays: 0, rigged: 0, silent: 0, controls: 0, falseWarnings: 0, wrongSide: 0 };
  const silent: string[] = [];
  for (let seed = 1000; seed < 1070; seed++) {
    const sample = kitBashedSample(seed);
    const { report, ctx } = await rig(sample.doc);
    const parts = sample.names.map((n) => report.parts.find((p) => p.panel === n));
    const warned = (name: string) =>
      ctx.warnings.some((w) => w.message.includes(`'${name}'`) && w.message.includes("mirror image"));
    if (parts[0] && parts[0].side !== "left" || parts[1] && parts[1].side !== "right") tally.wrongSide++;
    if (sample.stray) {
      tally.strays++;
      const missing = sample.names.filter((_, i) => !parts[i]);
      tally.rigged += 2 - missing.length;
      if (missing.length === 1 && !warned(missing[0])) silent.push(sample.description), tally.silent++;
    } else {
      tally.controls++;
      if (sample.names.some(warned)) tally.falseWarnings++;
    }
  }
  console.log(`kit-bashed pairs: ${JSON.stringify(tally)}`);
  // Before v76: every such scene silent (40 of 40 here).
  assert.deepStrictEqual(silent, []);
  assert(tally.strays >= 30 && tally.controls >= 30, JSON.stringify(tally));
  assert.strictEqual(tally.falseWarnings, 0);
  assert.strictEqual(tally.wrongSide, 0);
});
