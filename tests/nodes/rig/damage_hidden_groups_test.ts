/**
 * Damage copies hidden the ways collections and exporters leave them (`damage_hidden_groups.ts`): by a
 * parent's scale (a `Damage` group or a 3ds Max dummy shrunk to 0 or 1e-4…1e-6), by a tiny scale of
 * their own (1e-4…1e-6, about the scene's origin or their middle), or by a display group (Blender
 * collections exported as `DAMAGE`, `_hidden`, `LOD_dmg` parents with `hide_render`, `visible: false` or
 * nothing, the copies named with their own mark or only `.001`). Each is rigged on its intact surface's
 * hinge and stays hidden (`nodes/rig/hidden_scale.ts`, `damage_states.ts`); judged by
 * `damage_hidden_groups_judge.ts` with the frame given and found by `"auto"`.
 *
 * Before (rig.fit_hinge v70, rig.detect_panels v36), held-out seeds 13–48: parent scales 72 of 160
 * judged wrong (unrigged, "has no area"), tiny scales 32 of 160 (unrigged, or left out as debris lying at
 * the scene's origin), display groups 4 of 160 (`.001` copies fitted with their intact surfaces); none
 * silent. After (rig.fit_hinge v72, rig.detect_panels v37): 0 of 480. A group shrunk to exactly 0 made
 * `rig.insert_pivot` throw once its copies were fitted ("singular transform"): it records no geometry
 * for such a pivot (v10). Copies in a display group scattered as debris (`damage_hidden_groups_judge.ts
 * --scattered`), named only `.001`, were fitted where they lay, matched to no surface: seeds 20–23, 32–35,
 * 44–47, 28 of 160 wrong (warned, not silent) before; after, 0: each left out, named in a warning
 * (`damage_states.ts` `copySurfaceKey` reads past the `.001` of a copy only its group marks).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { judgeGroups } from "./damage_hidden_groups_judge.ts";
import { rig } from "./pipeline.ts";
import { hiddenSample } from "./damage_hidden.ts";

Deno.test("damage copies hidden by a parent's scale, a tiny scale or a display group: rigged on their surface's hinge, still hidden; scattered, left out", async () => {
  const wrong: string[] = [], silent: string[] = [];
  let judged = 0;
  // The last: seed 57's copies, `Aileron_L.001` in a `Hidden` collection, scattered as debris.
  for (const [seed, scattered] of [[49], [50], [53], [54], [57], [58], [57, true]] as [number, boolean?][]) {
    const verdict = await judgeGroups(seed, scattered);
    judged += verdict.judged;
    wrong.push(...verdict.wrong);
    silent.push(...verdict.silent);
  }
  assert(judged >= 40, `${judged} judged`);
  assertEquals(silent, []);
  assertEquals(wrong, []);
});

// damage_hidden.ts seed 252: `Aileron_R_D3` dropped half a chord below its aileron and turned, within a
// quarter span of it, was fitted where it lay (63° off its own hinge) and warned only that its fit failed.
Deno.test("a damage copy dropped just below its surface is debris: left out, named, told what to do (seed 252)", async () => {
  const sample = hiddenSample(252);
  const { report, ctx } = await rig(sample.doc);
  assertEquals(report.parts.find((p) => p.panel === "Aileron_R_D3"), undefined);
  const warning = ctx.warnings.find((w) => w.message.includes("'Aileron_R_D3' (of 'Aileron_R_D0')"));
  assert(warning && /debris/.test(warning.message) && /ctrl_type/.test(warning.message), "no debris warning");
  assertEquals(report.parts.find((p) => p.panel === "Aileron_R_D0")?.side, "right");
});
