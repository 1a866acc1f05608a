/** `rig.report`: the same hinge before and after pivot insertion; aircraft coordinates; counts. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { runNode } from "../../support/context.ts";
import { addGroup, addPanel, axisAngle, newScene } from "./fixtures.ts";
import { aileron } from "./cases.ts";
import type { ReportPart } from "./pipeline.ts";

Deno.test("report: a fitted panel and its inserted pivot report the same world hinge", async () => {
  const doc = newScene();
  const wing = addGroup(doc, undefined, "Wing_L", { scale: [-1, 1, 1], rotation: axisAngle([0, 0, 1], 4) });
  addPanel(doc, wing, aileron("Aileron_L"), { rotation: axisAngle([1, 1, 0], 20) });
  const frame = { forward: "-Z", up: "+Y" };
  const detected = (await runNode(rigDetectPanels, { scene: doc })).scene;
  const fitted = (await runNode(rigFitHinge, { scene: detected }, frame)).scene;
  const pivoted = (await runNode(rigInsertPivot, { scene: fitted })).scene;
  const before = (await runNode(rigReport, { scene: fitted }, frame)).report;
  const after = (await runNode(rigReport, { scene: pivoted }, frame)).report;
  const [a] = before.parts as ReportPart[];
  const [b] = after.parts as ReportPart[];
  assertEquals([a.name, a.path, a.ctrl_type], ["Aileron_L", "Wing_L/Aileron_L", null]);
  assertEquals([b.name, b.path, b.ctrl_type, b.panel], [
    "HINGE_auto_Aileron_L",
    "Wing_L/HINGE_auto_Aileron_L",
    "rotation",
    "Aileron_L",
  ]);
  for (let k = 0; k < 3; k++) {
    assert(Math.abs(a.hinge!.world.axis[k] - b.hinge!.world.axis[k]) < 1e-9, "same signed axis");
  }
  // The origin may slide along the line, never off it.
  const d = [0, 1, 2].map((k) => b.hinge!.world.origin[k] - a.hinge!.world.origin[k]);
  const along = d[0] * a.hinge!.world.axis[0] + d[1] * a.hinge!.world.axis[1] + d[2] * a.hinge!.world.axis[2];
  assert(Math.hypot(...d.map((v, k) => v - along * a.hinge!.world.axis[k])) < 1e-9);
  // Forward −Z, up +Y: aft = +Z, left = aft × up = −X; aircraft coordinates are (aft, up, left).
  const w = b.hinge!.world.axis, c = b.hinge!.aircraft.axis;
  assert(Math.abs(c[0] - w[2]) < 1e-12 && Math.abs(c[1] - w[1]) < 1e-12 && Math.abs(c[2] + w[0]) < 1e-12);
  assertEquals(after.frame, { forward: "-Z", up: "+Y", metres_per_unit: 1 });
  assertEquals(after.counts, { parts: 1, by_kind: { aileron: 1 }, by_found_by: { name: 1 } });
});
