/**
 * Fitted items with a scale of their own on their root (`item_scale_habits.ts`: shirts scaled 101-105 %
 * against poke-through, belts widened on X and Z, on bodies scaled or not). The item follows its body's
 * root, its own scale left out, and body morphs are projected onto its unscaled mesh; the formats notes
 * do not say what Daz does with that scale, so each such item is named with how far its vertices would
 * move were the scale kept (decode.dson v68; before, silently: dev seeds 1-30, 39 of 39 scaled items;
 * these seeds fail before). Unscaled items, and bodies scaled with their items following, say nothing.
 */
import assert from "node:assert/strict";
import { decodeJson, withContentFiles } from "./dson_runs.ts";
import { itemScaleCase } from "./item_scale_habits.ts";

Deno.test("dson fitted items with a scale of their own are named with how far it would move them; others say nothing", async () => {
  let scaled = 0, unscaled = 0, bodies = 0;
  for (let seed = 7001; seed <= 7030; seed++) {
    const c = itemScaleCase(seed);
    const { warnings } = await withContentFiles(
      c.files,
      (root) => decodeJson(c.scene, "dressed.duf", [root]),
    );
    const about = (key: string) => warnings.filter((w) => w.includes(`fitted item '${key}'`));
    for (const item of c.items) {
      const said = about(item.key);
      if (item.scaled) {
        scaled++;
        assert.equal(said.length, 1, `seed ${seed}: ${item.habit}: ${said.length} warnings`);
        const far = Number(/drawn up to ([\d.]+) cm/.exec(said[0])?.[1]);
        // Its own scale (1-6 %) about its root at the feet moves its top, 10-40 cm up, by 0.1-2.4 cm.
        assert.ok(far > 0.05 && far < 3, `seed ${seed}: ${item.habit}: ${far} cm`);
      } else {
        unscaled++;
        assert.equal(said.length, 0, `seed ${seed}: ${item.habit} unscaled, yet named: ${said[0]}`);
      }
    }
    if (c.bodyScaled) bodies++;
    // A scaled body is followed by its items as Daz fits them: nothing about scale beyond the items'.
    const others = warnings.filter((w) => /scale/.test(w) && !/fitted item '/.test(w));
    assert.deepEqual(others, [], `seed ${seed}`);
  }
  assert.ok(
    scaled >= 15 && unscaled >= 8 && bodies >= 4,
    `${scaled} scaled, ${unscaled} unscaled, ${bodies} bodies`,
  );
});
