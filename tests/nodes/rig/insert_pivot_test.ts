/** `rig.insert_pivot`: pivots on the hinge under mirrored, scaled and near-identity frames; extras; idempotence; bytes. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { dot, type Quat, quatMultiply, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import {
  addGroup,
  addPanel,
  axisAngle,
  axisErrorDegrees,
  distanceToLine,
  maxDisplacement,
  newScene,
  type PanelSpec,
  trueHinge,
  turnAttached,
  worldVertices,
} from "./fixtures.ts";
import { AFT, aileron, checkCases, DOWN, farEdge, UP } from "./cases.ts";
import { nodeNamed, rig } from "./pipeline.ts";

Deno.test("mirrored parent: exact hinge, pose kept, +10° still trailing edge down", async () => {
  const doc = newScene();
  const wingR = addGroup(doc, undefined, "Wing_R", {
    translation: [0.75, -0.2, 0],
    rotation: axisAngle([0, 0, 1], -3),
  });
  const wingL = addGroup(doc, undefined, "Wing_L", {
    translation: [-0.75, -0.2, 0],
    rotation: [0, 0, -axisAngle([0, 0, 1], -3)[2], axisAngle([0, 0, 1], -3)[3]],
    scale: [-1, 1, 1],
  });
  const own = { translation: [3, 0.1, 1] as Vec3, rotation: axisAngle([0.3, 1, 0.2], 17) };
  addPanel(doc, wingR, aileron("Aileron_R"), own);
  addPanel(doc, wingL, aileron("Aileron_L"), own);
  const result = await checkCases(doc, [
    { spec: aileron("Aileron_R"), parent: "Wing_R" },
    { spec: aileron("Aileron_L"), parent: "Wing_L" },
  ], () => DOWN);
  const sides = Object.fromEntries(result.report.parts.map((p) => [p.panel, p.side]));
  assertEquals(sides, { Aileron_R: "right", Aileron_L: "left" });
});

Deno.test("non-uniformly scaled parent: the full inverse gives the exact hinge", async () => {
  const doc = newScene();
  const tail = addGroup(doc, undefined, "Tail", {
    translation: [0, 0.3, 5],
    rotation: axisAngle([1, 0.2, 0], 8),
    scale: [1, 3, 1],
  });
  const spec: PanelSpec = {
    name: "Elevator_R",
    root: [0.3, 0, 0.4],
    tip: [2.2, 0.01, 0.9],
    aft: AFT,
    normal: UP,
    chordRoot: 0.5,
    chordTip: 0.3,
    thickness: 0.01,
  };
  addPanel(doc, tail, spec, { translation: [1, 0, 0.5], rotation: axisAngle([0, 1, 0], 30) });
  const result = await checkCases(doc, [{ spec, parent: "Tail" }], () => DOWN);
  // The scale is taken out from under the pivot (rigid_pivot_test.ts measures the turn): no shear.
  assert(!result.ctx.warnings.some((w) => w.message.includes("non-uniformly scaled")), "no shear warning");
});

Deno.test("a panel whose own X is already its hinge keeps its pose on disk (near-identity snapping)", async () => {
  const doc = newScene();
  const root = addGroup(doc, undefined, "Fighter");
  // Hinge along world X through (0, 0.5, 2): the panel's origin on it, its rotation identity, so the
  // pivot is (almost) the panel's own frame and the panel's local transform (almost) identity.
  const spec: PanelSpec = {
    name: "Flap_L",
    root: [-2.5, 0.5, 2],
    tip: [-0.5, 0.5, 2],
    aft: AFT,
    normal: UP,
    chordRoot: 0.6,
    chordTip: 0.6,
    thickness: 0.04,
  };
  addPanel(doc, root, spec, { translation: [-1.5, 0.5, 2] });
  await checkCases(doc, [{ spec, parent: "Fighter" }], () => DOWN);
});

Deno.test("names=false finds nothing; the pivot carries interop extras", async () => {
  const doc = newScene();
  addPanel(doc, undefined, aileron("Aileron_R"));
  const off = await rig(doc, {}, { names: false });
  assertEquals(off.report.parts, []);
  const on = await rig(doc);
  const pivot = nodeNamed(on.scene, "HINGE_auto_Aileron_R");
  const extras = pivot.getExtras() as Record<string, unknown>;
  assertEquals(
    [
      extras.ctrl_type,
      extras.axis,
      extras.unit,
      extras.min,
      extras.max,
      extras.rest,
      extras.group,
      extras.positive,
    ],
    ["rotation", "X", "deg", -25, 25, 0, "ailerons", "trailing_edge_down"],
  );
  const part = getPart(pivot)!;
  assertEquals([part.kind, part.side, part.found_by, part.panel], ["aileron", "right", "name", "Aileron_R"]);
  assert(part.fit && part.fit.bins_filled === 12 && part.fit.inliers === 12);
  assertEquals(getPart(nodeNamed(on.scene, "Aileron_R")), undefined);
});

Deno.test("re-running detect, fit and insert on a rigged scene adds nothing", async () => {
  const doc = newScene();
  addPanel(doc, undefined, aileron("Aileron_R"));
  const once = (await rig(doc)).scene;
  let again = (await runNode(rigDetectPanels, { scene: once })).scene;
  again = (await runNode(rigFitHinge, { scene: again })).scene;
  again = (await runNode(rigInsertPivot, { scene: again })).scene;
  assertEquals(again.getRoot().listNodes().length, once.getRoot().listNodes().length);
});

Deno.test("rigged synthetic scene validates and is byte-identical across runs", async () => {
  const build = () => {
    const doc = newScene();
    const wing = addGroup(doc, undefined, "Wing_L", { scale: [-1, 1, 1] });
    addPanel(doc, wing, aileron("Aileron_L"), { rotation: axisAngle([0, 1, 0], 12) });
    return doc;
  };
  const a = await writeGlb((await rig(build())).scene, { generator: GENERATOR });
  const b = await writeGlb((await rig(build())).scene, { generator: GENERATOR });
  assertEquals(a, b);
  const report = await validateGltf(a);
  assertEquals(report.messages, []);
  assertEquals(report.errors, 0);
});

Deno.test("a trim tab beside its surface (not inside it) rides on the surface's pivot", async () => {
  const doc = newScene();
  const tail = addGroup(doc, undefined, "Tail", {
    translation: [0, 0.4, 0.5],
    rotation: axisAngle([0, 1, 0], 5),
  });
  const elevator: PanelSpec = {
    ...aileron("Elevator_L"),
    root: [-0.3, 0, 5],
    tip: [-2, 0, 5.3],
    chordTip: 0.4,
  };
  const tab: PanelSpec = {
    ...aileron("Elevator_L_Trim_Tab"),
    root: [-0.6, 0, 5.45],
    tip: [-1.2, 0, 5.5],
    chordRoot: 0.08,
    chordTip: 0.08,
    thickness: 0.004,
  };
  addPanel(doc, tail, elevator);
  addPanel(doc, tail, tab, { translation: [-0.9, 0, 5.5] });
  // Flat exports keep every object at the scene's top: the same there.
  const rudder: PanelSpec = {
    name: "Rudder",
    root: [0, 1, 5],
    tip: [0, 2.2, 5.5],
    aft: AFT,
    normal: [1, 0, 0],
    chordRoot: 0.7,
    chordTip: 0.5,
    thickness: 0.03,
  };
  const rudderTab: PanelSpec = {
    ...rudder,
    name: "Rudder_Tab",
    root: [0, 1.2, 5.65],
    tip: [0, 1.6, 5.8],
    chordRoot: 0.1,
    chordTip: 0.1,
  };
  addPanel(doc, undefined, rudder);
  addPanel(doc, undefined, rudderTab);
  const tabBefore = worldVertices(nodeNamed(doc, "Elevator_L_Trim_Tab"));
  const result = await checkCases(doc, [{ spec: elevator, parent: "Tail" }], () => DOWN);
  const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  for (const [tabName, host] of [["Elevator_L_Trim_Tab", "Elevator_L"], ["Rudder_Tab", "Rudder"]]) {
    assertEquals(
      nodeNamed(result.scene, `HINGE_auto_${tabName}`).getParentNode()?.getName(),
      `HINGE_auto_${host}`,
    );
  }
  const tabPivot = nodeNamed(result.scene, "HINGE_auto_Elevator_L_Trim_Tab");
  for (const scene of [result.scene, reread]) {
    assert(maxDisplacement(tabBefore, worldVertices(nodeNamed(scene, "Elevator_L_Trim_Tab"))) < 1e-5);
  }
  // The tab's hinge is unchanged by the move, and +10° on it still puts its trailing edge down.
  const tailWorld = nodeNamed(doc, "Tail").getWorldMatrix();
  const truth = trueHinge(tab, tailWorld);
  const reported = result.report.parts.find((p) => p.panel === "Elevator_L_Trim_Tab")!.hinge!.world;
  assert(axisErrorDegrees(reported.axis, truth.axis) < 0.05);
  assert(distanceToLine(truth.origin, reported.origin, reported.axis) < 0.001);
  const edge = farEdge(tab, tailWorld);
  assert(dot(sub(turnAttached(tabPivot, edge, 10), edge), DOWN) > 0);
  // Turning the elevator carries the tab along, rigidly.
  const elevatorPivot = nodeNamed(result.scene, "HINGE_auto_Elevator_L");
  const before = worldVertices(nodeNamed(result.scene, "Elevator_L_Trim_Tab"));
  const expected = new Float64Array(before.length);
  for (let i = 0; i < before.length; i += 3) {
    expected.set(turnAttached(elevatorPivot, [before[i], before[i + 1], before[i + 2]], 10), i);
  }
  elevatorPivot.setRotation(quatMultiply(elevatorPivot.getRotation() as Quat, axisAngle([1, 0, 0], 10)));
  assert(maxDisplacement(expected, worldVertices(nodeNamed(result.scene, "Elevator_L_Trim_Tab"))) < 1e-6);
  assert(maxDisplacement(before, expected) > 0.01, "the elevator's turn moved the tab");
});

Deno.test("under a parent scaled ×100 the pivot stays on the hinge and near the panel", async () => {
  const doc = newScene();
  const root = addGroup(doc, undefined, "Root", { scale: [100, 100, 100] });
  const local = (v: Vec3): Vec3 => [v[0] / 100, v[1] / 100, v[2] / 100];
  const flap: PanelSpec = {
    ...aileron("Flap_R"),
    root: local([2.3, 0, 0.8]),
    tip: local([4.4, 0, 0.8]),
    chordRoot: 0.005,
    chordTip: 0.005,
    thickness: 0.0003,
  };
  // Its origin 3 mm (world) off the hinge: 3e-5 in parent units, which must not pull the pivot off it.
  addPanel(doc, root, flap, { translation: local([3.35, 0.003, 0.8]) });
  // A hinge through the parent's origin: the pivot slides along it, a quarter span, not 100×.
  const elevator: PanelSpec = { ...flap, name: "Elevator_R", root: local([-1, 0, 0]), tip: local([1, 0, 0]) };
  addPanel(doc, root, elevator);
  const result = await checkCases(
    doc,
    [{ spec: flap, parent: "Root" }, { spec: elevator, parent: "Root" }],
    () => DOWN,
  );
  const pivot = nodeNamed(result.scene, "HINGE_auto_Elevator_R").getWorldTranslation();
  assert(Math.hypot(...pivot) < 1, `pivot at ${pivot}, the panel spans x = −1 … 1 m`);
});
