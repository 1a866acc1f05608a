/**
 * Damage-state copies hidden or lying apart (`damage_hidden.ts`): hidden by `KHR_node_visibility`, a
 * `visible: false` extra or scale 0, or the destroyed copy lying as debris beside the aircraft. A hidden
 * copy is rigged on its intact surface's hinge and stays hidden; debris is left out, named in a warning
 * (`nodes/rig/detect_panels_debris.ts`), and moves no other verdict. Judged by `damage_hidden_judge.ts`
 * with the frame given and found by `"auto"`.
 *
 * Development seeds 1–16, before (rig.detect_panels v35): debris 10 of 40 wrong (fitted where it lay, bent
 * and torn: 7–37° and up to 3.7 spans off, one judged good, all named in a fit warning); after: 0. Copies
 * hidden at scale 0 were not rigged before rig.fit_hinge v69 (their vertices lay on a point: "has no
 * area", warned): 36 of 64 on seeds 1–16; now each is fitted unscaled on its intact surface's hinge and
 * kept at scale 0 (`nodes/rig/hidden_scale.ts`).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { judgeHidden } from "./damage_hidden_judge.ts";

Deno.test("damage copies hidden or apart: hidden ones rigged and hidden, debris left out, none silent (held-out seeds)", async () => {
  const wrong: string[] = [], silent: string[] = [];
  let judged = 0;
  for (let seed = 161; seed <= 176; seed++) {
    const verdict = await judgeHidden(seed);
    judged += verdict.judged;
    wrong.push(...verdict.wrong);
    silent.push(...verdict.silent);
  }
  assert(judged >= 150, `${judged} judged`);
  assertEquals(silent, []);
  assertEquals(wrong, []);
});

// Debris is left out of readings made before panels are found, too (detect_panels_debris.ts debrisNodes):
// seed 110's AILERON_R_DAMAGE, at its place, was sided about a centre line copies.ts drew from every
// `_DAMAGE` copy, debris among them (left, judged good with the frame given); seed 125's "auto" frame
// read the debris, its elevators 82° off. Both wrong before; held-out seeds 201-264: apart 5 -> 2 wrong.
Deno.test("damage debris pulls neither a copy's centre line nor the auto frame (seeds 110, 125)", async () => {
  for (const seed of [110, 125]) {
    const verdict = await judgeHidden(seed);
    assertEquals(verdict.wrong, [], verdict.description);
  }
});
