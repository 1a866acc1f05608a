/**
 * Ailerons across a wing's crank or gull bend (`kinked_surfaces.ts`): exported as inboard and
 * outboard objects (one name, or `.001`) each rigs on its own line; exported as one object (bent at
 * the kink, or two loose parts in one mesh) it takes the longer part's line and is never judged good
 * silently: its hinge bends (`hinge_bend.ts`). Measured (`kinks_tally.ts`) on held-out seeds 601-900:
 * one-object surfaces silently judged good 70 of 300 (rig.fit_hinge v59) -> 6 (v60); pieces sharing a
 * name 4 of 600 wrong (grouped as one surface's pieces) before and after. Developed on seeds 1-300;
 * this test runs 1-60 (fails on v59).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { judgeKink } from "./kinks_tally.ts";

Deno.test("surfaces across a planform kink: each piece on its own line, one object never silently good", async () => {
  const wrong: string[] = [], silent: string[] = [];
  let panels = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const verdict = await judgeKink(seed);
    panels += verdict.panels;
    wrong.push(...verdict.wrong.map((w) => `${verdict.description}: ${w}`));
    silent.push(...verdict.silent.map((w) => `${verdict.description}: ${w}`));
  }
  assertEquals(panels > 150, true);
  assertEquals(silent, []);
  assertEquals(wrong, []);
});
