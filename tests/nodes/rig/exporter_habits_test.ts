/**
 * Aircraft as exporters and converters hand them over (`exporter_habits.ts`: unwelded, flipped,
 * duplicated vertices, T-junctions, slivers, all at once; panels under rotated, unevenly or mirror
 * scaled empties; centimetres under a 0.01 root, inches unscaled, a Z-up root, the right half a −1
 * scaled copy; control horns and pushrods in the panels' meshes; inboard and outboard surfaces sharing
 * one name or numbered `.001`; an FBX mix of them) rig as the clean aircraft do: every panel's hinge
 * within 5° and 2 % of its span, on its side. Measured on rig.fit_hinge v58 / rig.assign_side v27,
 * held-out seeds 301-480 (15 habits, 12 scenes each): 0 wrong, 0 silent. A guard: no change was
 * needed, so it passed before too.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { HABITS } from "./exporter_habits.ts";
import { judgeHabit } from "./habits_tally.ts";

Deno.test("exporters' mesh, node and unit habits: every panel's hinge and side as on the clean aircraft", async () => {
  const wrong: string[] = [], silent: string[] = [];
  let panels = 0;
  for (let seed = 1; seed <= 2 * HABITS.length; seed++) {
    const verdict = await judgeHabit(seed);
    panels += verdict.panels;
    wrong.push(...verdict.wrong.map((w) => `${verdict.description}: ${w}`));
    silent.push(...verdict.silent.map((w) => `${verdict.description}: ${w}`));
  }
  assertEquals(panels > 4 * HABITS.length, true);
  assertEquals(silent, []);
  assertEquals(wrong, []);
});
