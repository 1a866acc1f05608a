/**
 * Left and right surfaces gathered under one group named for the surface (`sided_groups.ts`: `Aileron`
 * holding `Aileron_P` and `Aileron_S`, `Lotka` holding `Lotka_L` and `Lotka_P`, `GRP_Volet`), in side
 * habits only the file's other names explain: `rig.detect_panels` reads the pieces' sides with the file's
 * words (`nodes/rig/file_words.ts`), so the group is no panel. Before (rig.detect_panels v35, which read
 * them alone: one side or none, so the group was taken for one panel across the centre line and its
 * pieces left unrigged), development seeds 1–12: 80 of 120 panels wrong, all silently; held-out seeds
 * 301–340: 216 of 400, all silently. After: 0.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { judgeGrouped } from "./sided_groups.ts";

Deno.test("a group named for its surface holding sides in the file's words is no panel (held-out seeds)", async () => {
  const wrong: string[] = [], silent: string[] = [];
  let panels = 0;
  for (let seed = 341; seed <= 356; seed++) {
    const verdict = await judgeGrouped(seed);
    panels += verdict.panels;
    wrong.push(...verdict.wrong);
    silent.push(...verdict.silent);
  }
  assert(panels >= 160, `${panels} panels`);
  assertEquals(silent, []);
  assertEquals(wrong, []);
});
