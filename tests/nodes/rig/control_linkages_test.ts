/**
 * Control horns and pushrods (`rough_surfaces.ts` with `linkage_shapes.ts`: horn plates and boxes,
 * square bars and 6–12-sided cylinders running forward toward the body, merged into the surface's mesh
 * or as its child nodes; game models' chunky boxes; balance arms with their weights) are recognised
 * as linkages (`nodes/rig/linkages.ts`) and left out of the fit, so a right hinge is no longer judged
 * weak for them — while a flap hung on a dropped hinge, a horn and pushrod beside its brackets, stays
 * weak. A horn with no rod standing above the surface (a plate or box, alone or in a pair above and
 * below, at one place or two) is a horn too (rig.fit_hinge v68, v71): its surface right and good; a
 * horn hanging below alone may be weak (it has a dropped hinge's bracket's shape and place:
 * `linkage_brackets_test.ts`). Before v67, v68 and v71, on held-out seeds: see `linkages.ts` and the
 * commits.
 * Seeds here 4000–4119 (developed on 0–239). And a dropped hinge whose pushrod the stations cut is
 * still weak (development seed 155: judged good, 1.6° and 8.4 % of the span off, before v68).
 *
 * @module
 */
import assert from "node:assert";
import { judgeRough } from "./rough_tally.ts";
import { type Rough, ROUGHS, roughSample } from "./rough_surfaces.ts";

const HABITS: readonly Rough[] = [
  "horn_pushrod",
  "horn_above",
  "balance_arm",
  "chunky_horns",
  "dropped_linkage",
];

Deno.test("control horns and pushrods: right hinges judged good, dropped hinges still weak", async () => {
  const tally: Record<string, { panels: number; wrong: number; wrongGood: number; alarms: number }> = {};
  // Surfaces whose horns with no rod stand above (horn_above): right, and how many not good.
  const alone = { panels: 0, alarms: 0 };
  const wrongGood: string[] = [];
  for (let seed = 4000; seed <= 4119; seed++) {
    const rough = ROUGHS[seed % ROUGHS.length];
    if (!HABITS.includes(rough)) continue;
    const verdict = await judgeRough(seed);
    // Surfaces carrying a horn with nothing driving it may fairly be weak: not false alarms here.
    const truths = roughSample(seed).truths;
    const horns = new Set(truths.filter((t) => t.hornAlone).map((t) => t.name));
    const onePlace = new Set(rough === "horn_above" ? [...horns] : []);
    const alarms = verdict.alarms.filter((a) => !horns.has(a.split(":")[0]));
    alone.panels += onePlace.size;
    alone.alarms += verdict.alarms.filter((a) => onePlace.has(a.split(":")[0])).length;
    const row = tally[rough] ??= { panels: 0, wrong: 0, wrongGood: 0, alarms: 0 };
    row.panels += verdict.panels - horns.size, row.wrong += verdict.wrong.length;
    row.wrongGood += verdict.wrongGood.length, row.alarms += alarms.length;
    if (verdict.wrongGood.length) wrongGood.push(`${verdict.description}: ${verdict.wrongGood.join("; ")}`);
  }
  console.log(
    `control linkages: ${JSON.stringify(tally)}; horns alone standing above: ${JSON.stringify(alone)}`,
  );
  // Nothing off and judged good — above all no dropped-hinge flap whose linkage was taken out.
  assert.deepStrictEqual(wrongGood, []);
  assert(
    tally.dropped_linkage.wrong >= tally.dropped_linkage.panels - 2,
    JSON.stringify(tally.dropped_linkage),
  );
  // Horns with their rods, chunky or not, and balance arms: right and good (before v67 nearly all weak).
  for (const habit of ["horn_pushrod", "chunky_horns", "horn_above", "balance_arm"]) {
    const row = tally[habit];
    assert(row.wrong === 0 && row.alarms <= row.panels / 10, `${habit}: ${JSON.stringify(row)}`);
  }
  // Horns with no rod standing above, at one place or two (before v68 62 of 86 at one place not good;
  // before v71 those at two places, on held-out seeds 9000-9479 22 more of 108 horn_above surfaces).
  assert(alone.panels >= 10 && alone.alarms <= alone.panels / 10, JSON.stringify(alone));
});

Deno.test("a dropped hinge whose pushrod the stations cut is not judged good", async () => {
  // Development seed 155: Elevator_L's rod runs inboard across four stations, whose lead bin took the
  // rod's depth, and the brackets below the nose hid inside the envelope.
  const verdict = await judgeRough(155, "dropped_linkage");
  assert.deepStrictEqual(verdict.wrongGood, []);
  assert(verdict.wrong.length === verdict.panels, verdict.wrong.join("; "));
});
