/**
 * A pivot's `fitted_to` record written by `rig.insert_pivot` before v16 boxed every vertex of its
 * panel, drawn or not (a stray at the origin, leftover corners): the panel unedited must still keep
 * its pivot on a re-run, though the box now read is that of what its triangles draw. The records are
 * made here as the old reading made them (a box over every vertex placed in the pivot's frame, seven
 * significant digits), on a seed past those the change was measured on.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { gatherPositions, positionBounds } from "../../../nodes/rig/geometry.ts";
import { getPart, setPart } from "../../../nodes/rig/part_extras.ts";
import { invertAffine, type Vec3 } from "../../../nodes/rig/transform.ts";
import { isFittedGeometry } from "../../../nodes/rig/fitted_geometry.ts";
import { panelChild } from "../../../nodes/rig/own_pivots.ts";
import { modellerSample } from "./modeller_habits.ts";
import { rig } from "./pipeline.ts";
import { giveUndrawn, type UndrawnHabit } from "./undrawn_parts.ts";

const round = (v: readonly number[]) => v.map((x) => Number(x.toPrecision(7)) + 0) as Vec3;

for (const habit of ["origin_vertex", "leftovers"] as UndrawnHabit[]) {
  Deno.test(`${habit}: a record over every vertex (insert_pivot before v16) keeps an unedited panel's pivot`, async () => {
    let records = 0;
    const refitted: string[] = [];
    for (let seed = 71; seed < 75; seed++) {
      const sample = modellerSample(seed, "clean");
      giveUndrawn(sample.doc, habit, seed);
      const { scene } = await rig(sample.doc);
      for (const pivot of scene.getRoot().listNodes()) {
        const part = getPart(pivot);
        if (!part?.panel || !isFittedGeometry(part.fitted_to)) continue;
        const panel = panelChild(pivot, part.panel)!;
        const every = positionBounds(gatherPositions(panel, invertAffine(pivot.getWorldMatrix())))!;
        // The old record: this box, the same surface centroid.
        setPart(pivot, {
          ...part,
          fitted_to: { ...part.fitted_to, min: round(every.min), max: round(every.max) },
        });
        records++;
      }
      const again = await rig(scene);
      refitted.push(
        ...again.ctx.warnings.filter((w) => /moved under its pivot/.test(w.message)).map((w) => w.message),
      );
    }
    if (records < 8) throw new Error(`only ${records} records`);
    assertEquals(refitted, []);
  });
}
