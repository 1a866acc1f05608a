/** `rig.detect_panels`: nested trim tabs, plural groups. (The name table is in vocabulary_test.ts.) */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addGroup, addPanel, newScene, type PanelSpec } from "./fixtures.ts";
import { skinToJoints } from "./export_fixtures.ts";
import { addTwinRuddersWithTab, AFT, aileron, RIGHT } from "./cases.ts";
import { nodeNamed, rig } from "./pipeline.ts";

Deno.test("a trim tab inside a surface is a panel of its own; a plural group is not a panel", async () => {
  const doc = newScene();
  addTwinRuddersWithTab(doc);
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => [p.panel, p.kind]), [
    ["Rudder_L", "rudder"],
    ["Rudder_L_Trim_Tab", "trim_tab"],
    ["Rudder_R", "rudder"],
  ]);
  // The tab's pivot lives under the rudder, so it turns with it.
  assertEquals(
    nodeNamed(result.scene, "HINGE_auto_Rudder_L_Trim_Tab").getParentNode()?.getName(),
    "Rudder_L",
  );
  const tab = result.report.parts.find((p) => p.panel === "Rudder_L_Trim_Tab")!;
  assertEquals(tab.positive, "trailing_edge_right");
});

Deno.test("an elevator's trim named as the MSFS SDK names it (`ElevatorTrim`, beside it) is a tab riding on it", async () => {
  // Before rig.detect_panels v5, `Elevator_Trim_L` was a second elevator: grouped with the elevators,
  // ±25°, on its own pivot beside the elevator's (turning the elevator left it behind).
  const doc = newScene();
  const tail = addGroup(doc, undefined, "Tail");
  // Scene axes: aft +Z, left −X. The tab sits in the elevator's trailing 12 cm, inboard half.
  const elevator = (name: string, from: number, to: number, chord: number, lead: number): PanelSpec => ({
    name,
    root: [from, 0, lead],
    tip: [to, 0, lead],
    aft: AFT,
    normal: [0, 1, 0],
    chordRoot: chord,
    chordTip: chord,
    thickness: chord * 0.06,
  });
  addPanel(doc, tail, elevator("Elevator_L", -0.3, -1.5, 0.5, 5));
  addPanel(doc, tail, elevator("Elevator_Trim_L", -0.5, -0.9, 0.12, 5.38));
  addPanel(doc, tail, elevator("TrimElevator", 2, 2.4, 0.12, 5.38)); // no surface to ride on
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => [p.panel, p.kind, p.group]), [
    ["Elevator_L", "elevator", "elevators"],
    ["Elevator_Trim_L", "trim_tab", "trim_tabs"],
    ["TrimElevator", "trim_tab", "trim_tabs"],
  ]);
  assertEquals(
    nodeNamed(result.scene, "HINGE_auto_Elevator_Trim_L").getParentNode()?.getName(),
    "HINGE_auto_Elevator_L",
  );
});

Deno.test("a model whose names suggest no surface and that declares no part is warned about", async () => {
  const doc = newScene();
  addPanel(doc, addGroup(doc, undefined, "Sketchfab_model"), aileron("Object_12"));
  const ctx = testContext();
  await runNode(rigDetectPanels, { scene: doc }, {}, ctx);
  assertEquals(ctx.warnings.map((w) => w.message), [
    "no node name suggests a control surface (2 nodes searched) and no part is declared: nothing to rig — " +
    "name panels like Aileron_L, or give pivots ctrl_type extras. If the file went through a web optimiser, " +
    "its surfaces may be joined into its 1 mesh: rig it before optimising, or keep parts apart " +
    "(gltf-transform optimize --join false --flatten false; gltfpack -kn)",
  ]);
  // A declared part is something to rig: no warning.
  nodeNamed(doc, "Sketchfab_model").setExtras({ ctrl_type: "rotation" });
  const declared = testContext();
  await runNode(rigDetectPanels, { scene: (await runNode(rigParts, { scene: doc })).scene }, {}, declared);
  assertEquals(declared.warnings, []);
});

Deno.test("a weak tailplane hint stays rejected beside a pitch part: declared, or rigged by an earlier run", async () => {
  const doc = newScene();
  const tail = addGroup(doc, undefined, "Tail", { translation: [0, 0.5, 5] });
  addPanel(doc, tail, { ...aileron("Elevator_L"), root: [-0.3, 0, 0.4], tip: [-2, 0, 0.7] });
  addPanel(doc, tail, { ...aileron("Tailplane_R"), root: [0.3, 0, 0], tip: [2, 0, 0.3] });
  const once = await rig(doc);
  assertEquals(once.report.parts.map((p) => p.panel), ["Elevator_L"]);
  const twice = await rig(once.scene);
  assertEquals(twice.report.parts.map((p) => p.name), ["HINGE_auto_Elevator_L"]);
  // An author's elevator part vetoes it the same way.
  const declared = newScene();
  const ctrl = addGroup(declared, undefined, "CTRL_Elevator_L", { translation: [-1, 0.5, 5.4] });
  ctrl.setExtras({ ctrl_type: "rotation", min: -25, max: 25 });
  addPanel(declared, undefined, { ...aileron("Tailplane_R"), root: [0.3, 0.5, 5], tip: [2, 0.5, 5.3] });
  assertEquals((await rig(declared)).report.parts.map((p) => p.name), ["CTRL_Elevator_L"]);
});

Deno.test("a surface the rig could not rig, holding a tab it did, is judged the same way on a re-run", async () => {
  const doc = newScene();
  const rudder: PanelSpec = {
    name: "Rudder",
    root: [0, 1, 5],
    tip: [0, 2.2, 5.5],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.7,
    chordTip: 0.5,
    thickness: 0.03,
  };
  // The rudder's skin is skinned (not riggable); its tab and a named inner mesh are plain meshes.
  const outer = addPanel(doc, undefined, rudder);
  skinToJoints(doc, outer, [addGroup(doc, undefined, "Bone")]);
  addPanel(doc, outer, { ...rudder, name: "Rudder_Inner_Mesh", thickness: 0.01 });
  addPanel(doc, outer, {
    ...rudder,
    name: "Rudder_Trim_Tab",
    root: [0, 1.2, 5.65],
    tip: [0, 1.6, 5.8],
    chordRoot: 0.1,
    chordTip: 0.1,
  });
  const once = await rig(doc);
  assertEquals(once.report.parts.map((p) => p.panel), ["Rudder_Trim_Tab"]);
  const twice = await rig(once.scene);
  assertEquals(twice.report.parts.map((p) => p.name), ["HINGE_auto_Rudder_Trim_Tab"]);
  assertEquals(twice.ctx.warnings.map((w) => w.message), once.ctx.warnings.map((w) => w.message));
});

Deno.test("a surface holding a tab the model declares is left to it; one holding our earlier tab pivot is not", async () => {
  const tabSpec: PanelSpec = {
    ...aileron("Elevator_L_Tab"),
    root: [-0.6, 0.5, 5.75],
    tip: [-1.2, 0.5, 5.8],
    chordRoot: 0.08,
    chordTip: 0.08,
    thickness: 0.004,
  };
  const build = (declareTab: boolean) => {
    const doc = newScene();
    const elevator = addPanel(doc, undefined, {
      ...aileron("Elevator_L"),
      root: [-0.3, 0.5, 5],
      tip: [-2, 0.5, 5.3],
    });
    const tab = addPanel(doc, elevator, tabSpec);
    if (declareTab) tab.setExtras({ ctrl_type: "rotation", min: -10, max: 10 });
    return doc;
  };
  // Declared: the tab is the model's own part, so the elevator holding it is not rigged.
  const declared = await rig(build(true));
  assertEquals(declared.report.parts.map((p) => [p.name, p.found_by]), [["Elevator_L_Tab", "extras"]]);
  // Found by name: both rigged, and a re-run over our own pivots changes nothing.
  const once = await rig(build(false));
  assertEquals(once.report.parts.map((p) => p.panel), ["Elevator_L", "Elevator_L_Tab"]);
  const twice = await rig(once.scene);
  assertEquals(twice.report.parts.map((p) => p.name), ["HINGE_auto_Elevator_L", "HINGE_auto_Elevator_L_Tab"]);
});

Deno.test("a Sketchfab mesh node named for its material is read by its object's name: paint is no surface", async () => {
  const doc = newScene();
  // Sketchfab's converter names mesh nodes `<object>_<material>_<n>` under their object's node.
  const paint = doc.createMaterial("Aileron_Paint"), metal = doc.createMaterial("Metal");
  const meshNode = (parent: string, material: typeof paint, spec: PanelSpec) => {
    const node = addPanel(doc, addGroup(doc, undefined, parent), spec);
    node.getMesh()!.listPrimitives()[0].setMaterial(material);
    return node;
  };
  // A fuselage strake painted with the aileron's material: no aileron.
  meshNode("Strake", paint, { ...aileron("Strake_Aileron_Paint_0"), root: [-1, 0, 1], tip: [-2, 0, 1.2] });
  // The real aileron's mesh node: found through its object's name, once (as the outer node).
  meshNode("Aileron_R", metal, aileron("Aileron_R_Metal_0"));
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => [p.panel, p.kind]), [["Aileron_R", "aileron"]]);
});
