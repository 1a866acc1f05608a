/**
 * French `gouvernail` names a rudder on an aircraft (alone, or `de direction`; `de profondeur` is the
 * elevator: `vocabulary_test.ts`, `languages_test.ts`) and on a boat too: a French boat's
 * `Gouvernail` is no aircraft's panel, as an English boat's `Rudder` is none (`scene_setting.ts`).
 * Before, the word was read by no one: an aircraft's rudder so named was silently unrigged.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { rig } from "./pipeline.ts";

Deno.test("a French boat's gouvernail is its rudder, not an aircraft's, and is said so", async () => {
  for (const hullName of ["Bateau", "Voilier_coque", "Navire.001"]) {
    const doc = newScene();
    const hull = boxMesh([-1, -0.5, -4], [1, 0.5, 4]);
    addAircraftMesh(doc, hullName, hull.positions, hull.triangles);
    const plate = boxMesh([-0.02, -1.2, 4], [0.02, -0.3, 4.6]);
    addAircraftMesh(doc, "Gouvernail", plate.positions, plate.triangles);
    const { report, ctx } = await rig(doc);
    assertEquals(report.parts.map((p) => p.panel), [], hullName);
    assertEquals(ctx.warnings.some((w) => /'Gouvernail'.*ship or boat/.test(w.message)), true, hullName);
  }
});
