/**
 * Panels whose meshes hold vertices no triangle with an area draws (`modeller_habits.ts`: a wing and
 * its aileron from one vertex buffer, a loose vertex or a collapsed triangle at the model's origin,
 * leftover vertices, loose guide edges as a lines primitive) rig as their drawn surfaces do: right
 * (5°, 5 % of chord, side, sense) and `good`. Before `rig.fit_hinge` v91 the undrawn vertices were
 * read as the panel's: weak (brackets outside its sections, span its edge did not run along) and,
 * where they stretched its span, 8–20° off.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { drawnOnly } from "../../../nodes/rig/drawn_vertices.ts";
import { judgeModeller, seedsOf } from "./modeller_habits_tally.ts";
import type { ModellerHabit } from "./modeller_habits.ts";

const UNDRAWN: ModellerHabit[] = [
  "shared_buffer",
  "origin_vertex",
  "degenerate_origin",
  "loose_points",
  "loose_edges",
];

Deno.test("panels with undrawn vertices rig as their drawn surfaces: right and good", async () => {
  const missed: string[] = [];
  let panels = 0;
  for (const habit of UNDRAWN) {
    for (const seed of seedsOf(habit, 6)) {
      const verdict = await judgeModeller(seed);
      panels += verdict.panels;
      for (const said of [...verdict.wrong, ...verdict.alarms]) {
        missed.push(`${verdict.description}: ${said}`);
      }
    }
  }
  assertEquals(missed, [], `${missed.length} of ${panels} panels wrong or not good`);
});

Deno.test("drawnOnly leaves out what no triangle with an area draws, and says which vertex each was", () => {
  // A quad (0–3), a vertex no triangle draws (4), a triangle collapsed onto one point (5–7).
  const positions = new Float64Array([
    0,
    0,
    0,
    1,
    0,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    9,
    9,
    9,
    5,
    5,
    5,
    5,
    5,
    5,
    5,
    5,
    5,
  ]);
  const triangles = new Uint32Array([0, 1, 2, 0, 2, 3, 5, 6, 7]);
  const drawn = drawnOnly({ positions, count: 8, triangles });
  assertEquals(drawn.count, 4);
  assertEquals([...drawn.kept!], [0, 1, 2, 3]);
  assertEquals([...drawn.triangles!], [0, 1, 2, 0, 2, 3]);
  // Every vertex drawn: the very same geometry, no copy.
  const whole = { positions: positions.subarray(0, 12), count: 4, triangles: triangles.subarray(0, 6) };
  assertEquals(drawnOnly(whole) === whole, true);
});
