/**
 * Brackets as modellers make them are not control linkages (`linkage_habits.ts`, `nodes/rig/linkages.ts`):
 * a flap on a dropped hinge whose mesh holds one bracket plate, one or two hinge fairings, or an
 * airliner's flap-track canoe fairings running forward under the wing and aft past the trailing edge
 * keeps them in its fit and is not judged good on the line along its nose (before rig.fit_hinge v71, on
 * held-out seeds 5000–5299: 226, 75 and 159 of 240 such flaps off and judged good, 340 of them without a
 * warning). Horns with no rod at two places along the span, one standing above the surface at each
 * (or a pair above and below), are horns: right and judged good. Seeds here 6000–6059 (developed on
 * 0–59).
 *
 * @module
 */
import assert from "node:assert";
import { tallyLinkages } from "./linkage_tally.ts";

Deno.test("brackets, hinge fairings and flap-track fairings are no linkages: a dropped hinge is not judged good", async () => {
  const wrongGood: string[] = [];
  const rows = await tallyLinkages(6000, 6059, undefined, (v) => {
    if (v.wrongGood.length) wrongGood.push(`${v.description}: ${v.wrongGood.join("; ")}`);
  });
  console.log(`linkage look-alikes: ${JSON.stringify(rows)}`);
  // Nothing off and judged good (before v71, here: 48 dropped flaps with one bracket of 48, and more).
  assert.deepStrictEqual(wrongGood, []);
  for (const habit of ["dropped_bracket", "dropped_fairing", "flap_track"]) {
    // The dropped hinges are off (the fit draws its line along the nose) and say so.
    assert(rows[habit].wrong >= rows[habit].panels * 0.8, `${habit}: ${JSON.stringify(rows[habit])}`);
  }
  // Right hinges stay right, whatever hangs on them.
  assert.strictEqual(rows.two_horns.wrong + rows.plain_fairing.wrong, 0, JSON.stringify(rows));
  // Horns at two places: those standing above (or paired) judged good (before v71 all but 6 of 160 weak).
  assert(rows.two_horns.alarms <= rows.two_horns.panels * 0.8, JSON.stringify(rows.two_horns));
});
