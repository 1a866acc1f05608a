/** `rig.report`: the same hinge before and after pivot insertion; aircraft coordinates; counts. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Node } from "@gltf-transform/core";
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

Deno.test("report: a part's index is looked up, not searched for among every node", async () => {
  // Rows of small ailerons at a scene's top, as a file of thousands of panels: the report searched
  // the list of every node for each part and each step of its path (quadratic in the parts).
  const searched: number[] = [];
  for (const count of [20, 200]) {
    const doc = newScene();
    for (let i = 0; i < count; i++) {
      addPanel(doc, undefined, aileron(`Aileron_${i % 2 ? "L" : "R"}_${i}`), {
        translation: [(i % 20) * 3, Math.floor(i / 20) * 0.5, 0],
      });
    }
    const frame = { forward: "-Z", up: "+Y" };
    const detected = (await runNode(rigDetectPanels, { scene: doc })).scene;
    const pivoted = (await runNode(rigInsertPivot, {
      scene: (await runNode(rigFitHinge, { scene: detected }, frame)).scene,
    })).scene;
    // Counts the entries every search of the scene's node list reads.
    let read = 0;
    const root = pivoted.getRoot(), listNodes = root.listNodes.bind(root);
    root.listNodes = () => {
      const all = listNodes();
      all.indexOf = (
        node: Node,
        from?: number,
      ) => (read += all.length, Array.prototype.indexOf.call(all, node, from));
      return all;
    };
    const report = (await runNode(rigReport, { scene: pivoted }, frame)).report;
    assertEquals((report.parts as ReportPart[]).length, count);
    searched.push(read / count);
  }
  assert(searched.every((perPart) => perPart < 10), `node entries read a part: ${searched.join(", ")}`);
});
