/**
 * A control surface never separated from its wing — one object, one mesh, the surface a primitive of
 * its own only by its material (`modeller_habits.ts` `material_split`: `Aileron_L`, `M_Aileron_L`,
 * `aileron_l_mat`, one `Aileron` on both wings; one vertex buffer or two) — is moved into a node of its
 * own, found, rigged right (5°, 5 % of chord, side, sense) and `good`, and named in a warning, as the
 * material might have been paint (`rig.detect_panels` v42). Before, such surfaces were never found,
 * and nothing said so.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { judgeModeller, seedsOf } from "./modeller_habits_tally.ts";

Deno.test("surfaces told from their wing only by material are found, rigged right and good, and warned", async () => {
  const missed: string[] = [];
  let panels = 0, warned = 0;
  for (const seed of seedsOf("material_split", 8)) {
    const verdict = await judgeModeller(seed);
    panels += verdict.panels;
    warned += verdict.warned;
    for (const said of [...verdict.wrong, ...verdict.alarms]) missed.push(`${verdict.description}: ${said}`);
  }
  assertEquals(missed, [], `${missed.length} of ${panels} panels unrigged, wrong or not good`);
  // Each was named in a warning: the material might have been paint.
  assertEquals(warned, panels);
});
