/** `rig.insert_pivot`: pivots on the hinge under mirrored, scaled and near-identity frames; extras; idempotence; bytes. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { writeGlb } from "../../../nodes/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import { addGroup, addPanel, axisAngle, newScene, type PanelSpec } from "./fixtures.ts";
import { AFT, aileron, checkCases, DOWN, UP } from "./cases.ts";
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
  assert(
    result.ctx.warnings.some((w) => w.message.includes("non-uniformly scaled")),
    "shear is warned about",
  );
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
