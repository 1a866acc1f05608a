/** `rig.parts`: declared parts kept as found; what is under or holds one is left alone. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addGroup, addPanel, newScene } from "./fixtures.ts";
import { aileron } from "./cases.ts";
import { nodeNamed, rig } from "./pipeline.ts";

Deno.test("declared parts are kept as found; what is under or holds one is not searched", async () => {
  const doc = newScene();
  const body = addGroup(doc, undefined, "Body");
  const ctrl = addGroup(doc, body, "CTRL_Elevon_L", { translation: [-2, 0, 3] });
  ctrl.setExtras({
    ctrl_type: "rotation",
    axis: "X",
    min: -20,
    max: 30,
    rest: 5,
    group: "elevons",
    positive: "trailing_edge_down",
    ab_detent: 0.8,
  });
  addPanel(doc, ctrl, aileron("Aileron_Mesh_L"));
  const holder = addGroup(doc, body, "Flap_Group_L");
  const slide = addGroup(doc, holder, "Slat_Track_Carriage");
  slide.setExtras({ ctrl_type: "translation", min: 0, max: 0.2 });
  addPanel(doc, holder, aileron("Flap_L"));
  addPanel(doc, body, aileron("Aileron_R"));
  const result = await rig(doc);
  const byName = Object.fromEntries(result.report.parts.map((p) => [p.name, p]));
  // Flap_Group_L holds a part, so it is no panel; Flap_L beside the part is one.
  assertEquals(Object.keys(byName).sort(), [
    "CTRL_Elevon_L",
    "HINGE_auto_Aileron_R",
    "HINGE_auto_Flap_L",
    "Slat_Track_Carriage",
  ]);
  const elevon = byName.CTRL_Elevon_L;
  assertEquals([elevon.kind, elevon.found_by, elevon.min, elevon.max, elevon.group, elevon.side], [
    "elevon",
    "extras",
    -20,
    30,
    "elevons",
    "left",
  ]);
  assertEquals(byName.Slat_Track_Carriage.ctrl_type, "translation");
  assertEquals(byName.Slat_Track_Carriage.kind, "other");
  // The author's extras pass through untouched.
  const extras = nodeNamed(result.scene, "CTRL_Elevon_L").getExtras() as Record<string, unknown>;
  assertEquals([extras.rest, extras.ab_detent], [5, 0.8]);
  // Its world X is its hinge.
  assertEquals(elevon.hinge?.world.axis, [1, 0, 0]);
});

Deno.test("a scene whose decoder kept joints that constraints.resolve has not turned into parts is warned about", async () => {
  const doc = newScene();
  addPanel(doc, undefined, aileron("Rudder_lod0"));
  const scene = doc.getRoot().getDefaultScene()!;
  scene.setName("Root");
  const record = { parent: "Root", child: "Rudder_lod0", kind: "rev", at: 0 };
  setPartgraphExtras(scene, { constraints: [record] });
  const ctx = testContext();
  await runNode(rigParts, { scene: doc }, {}, ctx);
  assertEquals(ctx.warnings.map((w) => w.message), [
    "scene 'Root' holds 1 constraint record(s) its decoder kept: run constraints.resolve before the rig, " +
    "or their joints are not parts",
  ]);
  setPartgraphExtras(scene, { resolved: true });
  const after = testContext();
  await runNode(rigParts, { scene: doc }, {}, after);
  assertEquals(after.warnings, []);
});
