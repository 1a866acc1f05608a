/**
 * `.3df` files as converters and bone editors leave them (`converter_habits.ts`), decoded, resolved and
 * exported. The seeds here are not those the decoder was measured on while it was changed (1–5, and the
 * held-out sweep 201–230).
 */
import assert from "node:assert/strict";
import { CONVERTER_HABITS, converterOutcome } from "./converter_habits.ts";

Deno.test("a .car converted to .3df (owners kept, no bone table) is static and named, the owners kept", async () => {
  for (let seed = 301; seed <= 306; seed++) {
    const { outcome, detail } = await converterOutcome("car_to_3df", seed);
    // Before decode.3df v21: wrong_silent on every seed (no warning said the owners name absent bones).
    assert.equal(outcome, "right", `seed ${seed}: ${detail}`);
  }
});

Deno.test("converter habits read as the file says: repeated corners, alike names, children first, texels below 0", async () => {
  for (const habit of CONVERTER_HABITS.filter((h) => h !== "car_to_3df" && h !== "pivots_scaled")) {
    for (let seed = 301; seed <= 303; seed++) {
      const { outcome, detail } = await converterOutcome(habit, seed);
      assert.equal(outcome, "right", `${habit} seed ${seed}: ${detail}`);
    }
  }
});

Deno.test("pivots a converter left ×16, ×10 or ×100 off their points are read at that scale, named", async () => {
  for (let seed = 301; seed <= 306; seed++) {
    const { outcome, detail } = await converterOutcome("pivots_scaled", seed);
    // Before the resolver's v3: wrong on every seed (the far pivots moved to centroids, the near ones
    // kept at the wrong scale with no warning naming them).
    assert.equal(outcome, "right", `seed ${seed}: ${detail}`);
  }
});
