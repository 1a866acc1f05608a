import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../nodes/scene/gltf_io.ts";
import { setSourceInfo } from "../../../nodes/scene/source.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { dot, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
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
import { nodeNamed, rig, type RigResult } from "./pipeline.ts";

// Default frame: −Z forward, +Y up, so aft = +Z, right = +X.
const AFT: Vec3 = [0, 0, 1];
const UP: Vec3 = [0, 1, 0];
const DOWN: Vec3 = [0, -1, 0];
const RIGHT: Vec3 = [1, 0, 0];

/** A wing-panel design in a right wing's frame (x outboard). */
function aileron(name: string): PanelSpec {
  return {
    name,
    root: [2.3, 0, 0.8],
    tip: [4.4, 0.05, 1.25],
    aft: AFT,
    normal: UP,
    chordRoot: 0.5,
    chordTip: 0.35,
    thickness: 0.03,
  };
}

/** Far edge (mid-span, mid-thickness) of a design panel, world space. */
function farEdge(spec: PanelSpec, parentWorld: ArrayLike<number>): Vec3 {
  const f = 1 - (spec.hingeFraction ?? 0);
  const chord = (spec.chordRoot + spec.chordTip) / 2;
  const mid = [0, 1, 2].map((k) => (spec.root[k] + spec.tip[k]) / 2 + spec.aft[k] * f * chord) as Vec3;
  const m = parentWorld;
  return [0, 1, 2].map((r) => m[r] * mid[0] + m[4 + r] * mid[1] + m[8 + r] * mid[2] + m[12 + r]) as Vec3;
}

interface Case {
  spec: PanelSpec;
  parent: string;
}

/** Checks hinge, pose keeping (in memory and after write/read) and +10° sense for each case. */
async function checkCases(doc: Document, cases: Case[], wanted: (c: Case) => Vec3): Promise<RigResult> {
  const before = new Map(cases.map((c) => [c.spec.name, worldVertices(nodeNamed(doc, c.spec.name))]));
  const result = await rig(doc);
  const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  for (const c of cases) {
    const parentWorld = nodeNamed(doc, c.parent).getWorldMatrix();
    const truth = trueHinge(c.spec, parentWorld);
    const part = result.report.parts.find((p) => p.panel === c.spec.name);
    assert(part?.hinge, `${c.spec.name} rigged`);
    const degrees = axisErrorDegrees(part.hinge.world.axis, truth.axis);
    const offset = distanceToLine(truth.origin, part.hinge.world.origin, part.hinge.world.axis);
    assert(degrees < 0.05, `${c.spec.name}: axis error ${degrees}°`);
    assert(offset < 0.001, `${c.spec.name}: line offset ${offset} m`);

    const pivot = nodeNamed(result.scene, `HINGE_auto_${c.spec.name}`);
    assertEquals(pivot.getParentNode()?.getName(), c.parent);
    const moved = maxDisplacement(
      before.get(c.spec.name)!,
      worldVertices(nodeNamed(result.scene, c.spec.name)),
    );
    const movedOnDisk = maxDisplacement(
      before.get(c.spec.name)!,
      worldVertices(nodeNamed(reread, c.spec.name)),
    );
    assert(moved < 1e-5 && movedOnDisk < 1e-5, `${c.spec.name}: panel moved ${moved} / ${movedOnDisk} m`);

    const edge = farEdge(c.spec, parentWorld);
    const motion = sub(turnAttached(pivot, edge, 10), edge);
    const along = dot(motion, wanted(c)) / Math.hypot(...motion);
    assert(along > 0.5, `${c.spec.name}: +10° moved the far edge ${motion} (cos ${along} to wanted)`);
  }
  return result;
}

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

Deno.test("rudder turns right, LE flap leading edge down, spoiler up, stabilator at quarter chord", async () => {
  const doc = newScene();
  const body = addGroup(doc, undefined, "Body");
  const specs: Case[] = [
    {
      parent: "Body",
      spec: {
        name: "Rudder",
        root: [0, 1, 5],
        tip: [0, 2.2, 5.8],
        aft: AFT,
        normal: RIGHT,
        chordRoot: 0.7,
        chordTip: 0.4,
        thickness: 0.03,
      },
    },
    {
      parent: "Body",
      spec: {
        name: "LEF_L",
        root: [-0.5, 0, -1],
        tip: [-4, 0, 0.6],
        aft: AFT,
        normal: UP,
        chordRoot: 0.5,
        chordTip: 0.25,
        thickness: 0.04,
        hingeEdge: "aft",
      },
    },
    {
      parent: "Body",
      spec: {
        name: "Spoiler_R_1",
        root: [0.6, 0.06, 0.9],
        tip: [1.4, 0.07, 1.2],
        aft: AFT,
        normal: UP,
        chordRoot: 0.3,
        chordTip: 0.3,
        thickness: 0.008,
      },
    },
    {
      parent: "Body",
      spec: {
        name: "Stabilator_L",
        root: [-1, 0, 6],
        tip: [-3.4, -0.2, 6],
        aft: AFT,
        normal: UP,
        chordRoot: 2.2,
        chordTip: 1,
        thickness: 0.05,
        hingeFraction: 0.25,
      },
    },
  ];
  for (const c of specs) addPanel(doc, body, c.spec, { translation: [0.1, 0.2, 0.3] });
  const wanted: Record<string, Vec3> = { Rudder: RIGHT, LEF_L: DOWN, Spoiler_R_1: UP, Stabilator_L: DOWN };
  // The far edge of a leading-edge device is its leading edge: build it from the aft-edge design.
  const result = await checkCases(
    doc,
    specs.map((c) => c.spec.hingeEdge === "aft" ? { ...c, spec: { ...c.spec, aft: [0, 0, -1] as Vec3 } } : c),
    (c) => wanted[c.spec.name],
  );
  const kinds = Object.fromEntries(result.report.parts.map((p) => [p.panel, [p.kind, p.positive]]));
  assertEquals(kinds, {
    Rudder: ["rudder", "trailing_edge_right"],
    LEF_L: ["leading_edge_flap", "leading_edge_down"],
    Spoiler_R_1: ["spoiler", "trailing_edge_up"],
    Stabilator_L: ["stabilator", "trailing_edge_down"],
  });
});

Deno.test("air brakes open away from the body they sit on; split halves open apart", async () => {
  const doc = newScene();
  const body = addGroup(doc, undefined, "Body");
  // A fuselage-like block the brakes sit on (a thick slab: 1.2 m tall).
  addPanel(doc, body, {
    name: "Fuselage",
    root: [-0.6, 0, -3],
    tip: [0.6, 0, -3],
    aft: AFT,
    normal: UP,
    chordRoot: 8,
    chordTip: 8,
    thickness: 1.2,
  });
  const brake = (name: string, y: number): PanelSpec => ({
    name,
    root: [-0.4, y, 1],
    tip: [0.4, y, 1],
    aft: AFT,
    normal: UP,
    chordRoot: 0.9,
    chordTip: 0.9,
    thickness: 0.02,
  });
  const half = (name: string, y: number): PanelSpec => ({
    name,
    root: [3, y, 1.5],
    tip: [4.5, y, 1.7],
    aft: AFT,
    normal: UP,
    chordRoot: 0.4,
    chordTip: 0.3,
    thickness: 0.01,
  });
  const cases: Case[] = [
    { spec: brake("SpeedBrake", 0.62), parent: "Body" },
    { spec: brake("Airbrake_Belly", -0.62), parent: "Body" },
    { spec: half("DragRudder_R_A", 0.006), parent: "Body" },
    { spec: half("DragRudder_R_B", -0.006), parent: "Body" },
  ];
  for (const c of cases) addPanel(doc, body, c.spec);
  const wanted: Record<string, Vec3> = {
    SpeedBrake: UP,
    Airbrake_Belly: DOWN,
    DragRudder_R_A: UP,
    DragRudder_R_B: DOWN,
  };
  await checkCases(doc, cases.map((c) => ({ ...c })), (c) => wanted[c.spec.name]);
});

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

Deno.test("a trim tab inside a surface is a panel of its own; a plural group is not a panel", async () => {
  const doc = newScene();
  const group = addGroup(doc, undefined, "Rudders");
  const rudder = (name: string, x: number): PanelSpec => ({
    name,
    root: [x, 1, 5],
    tip: [x, 2.2, 5.5],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.7,
    chordTip: 0.5,
    thickness: 0.03,
  });
  const left = addPanel(doc, group, rudder("Rudder_L", -1));
  addPanel(doc, group, rudder("Rudder_R", 1));
  addPanel(doc, left, {
    name: "Rudder_L_Trim_Tab",
    root: [-1, 1.2, 5.6],
    tip: [-1, 1.5, 5.7],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.1,
    chordTip: 0.1,
    thickness: 0.005,
  });
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

Deno.test("side from geometry: 5 cm centre band in metres, relative band when the unit is unknown", async () => {
  const spoiler = (name: string, x: number): PanelSpec => ({
    name,
    root: [x - 0.3, 0.5, 1],
    tip: [x + 0.3, 0.5, 1],
    aft: AFT,
    normal: UP,
    chordRoot: 0.3,
    chordTip: 0.3,
    thickness: 0.01,
  });
  const build = () => {
    const doc = newScene();
    addPanel(doc, undefined, spoiler("Spoiler", 0.03));
    addPanel(doc, undefined, spoiler("Spoiler.001", 0.08));
    addPanel(doc, undefined, spoiler("Spoiler.002", -0.2));
    // A long fuselage makes the model 10 m long for the relative band.
    addPanel(doc, undefined, {
      ...spoiler("Hull", 0),
      root: [-0.5, 0, -5],
      tip: [0.5, 0, -5],
      chordRoot: 10,
    });
    return doc;
  };
  const sides = (r: RigResult) => Object.fromEntries(r.report.parts.map((p) => [p.panel, p.side]));
  assertEquals(sides(await rig(build())), {
    Spoiler: "centre",
    "Spoiler.001": "right",
    "Spoiler.002": "left",
  });
  const unknownUnit = build();
  setSourceInfo(unknownUnit, { format: "test", forward: "-Z", up: "+Y", metresPerUnit: null });
  // Band = 1 % of 10 m = 0.1: the panel 8 cm off the centre line is now centre.
  assertEquals(sides(await rig(unknownUnit)), {
    Spoiler: "centre",
    "Spoiler.001": "centre",
    "Spoiler.002": "left",
  });
});

Deno.test('forward +Z and "auto": the same aircraft turned around gives the same rig', async () => {
  const build = (turned: boolean, source?: boolean) => {
    const doc = newScene();
    const root = addGroup(doc, undefined, "Root", { rotation: turned ? [0, 1, 0, 0] : [0, 0, 0, 1] });
    addPanel(doc, root, aileron("Aileron"));
    if (source) setSourceInfo(doc, { format: "test", forward: "+Z", up: "+Y", metresPerUnit: 1 });
    return doc;
  };
  const facingMinusZ = await rig(build(false));
  const facingPlusZ = await rig(build(true), { forward: "+Z" });
  const auto = await rig(build(true, true), { forward: "auto", up: "auto" });
  const aircraft = (r: RigResult) => r.report.parts.map((p) => [p.side, p.positive, p.hinge!.aircraft]);
  const near = (a: unknown, b: unknown) =>
    JSON.stringify(a, (_, v) => typeof v === "number" ? +v.toFixed(6) : v) ===
      JSON.stringify(b, (_, v) => typeof v === "number" ? +v.toFixed(6) : v);
  assert(near(aircraft(facingMinusZ), aircraft(facingPlusZ)), "same in the aircraft frame");
  assert(near(aircraft(facingPlusZ), aircraft(auto)), "auto reads the recorded frame");
  assertEquals(facingPlusZ.report.parts[0].side, "right");
  // The wrong frame makes it a left aileron.
  assertEquals((await rig(build(true))).report.parts[0].side, "left");
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

Deno.test("panels that cannot be fitted are warned about and left alone", async () => {
  const doc = newScene();
  const flat = addGroup(doc, undefined, "Collapsed", { scale: [1, 0, 1] });
  addPanel(doc, undefined, aileron("Aileron_R"));
  const broken = addPanel(doc, undefined, aileron("Flap_R"));
  const accessor = broken.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  accessor.setElement(3, [NaN, 0, 0]);
  flat.addChild(doc.createNode("Elevator_L").setMesh(broken.getMesh()));
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => p.panel), ["Aileron_R"]);
  const messages = result.ctx.warnings.map((w) => w.message).join("\n");
  assert(messages.includes("'Flap_R' has non-finite vertex positions; not rigged"), messages);
  assert(messages.includes("'Elevator_L' sits under a zero-scale parent"), messages);
});

Deno.test("quantized (normalized int16) positions are read through the accessor's normalization", async () => {
  const doc = newScene();
  const spec = aileron("Aileron_R");
  const node = addPanel(doc, undefined, spec, { translation: [0.5, 0, 0] });
  const accessor = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  const floats = accessor.getArray() as Float32Array;
  const range = Math.max(...floats.map(Math.abs));
  accessor.setArray(Int16Array.from(floats, (v) => Math.round((v / range) * 32767))).setNormalized(true);
  node.setScale([range, range, range]);
  const result = await rig(doc);
  const hinge = result.report.parts[0].hinge!.world;
  const truth = trueHinge(spec, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  assert(axisErrorDegrees(hinge.axis, truth.axis) < 0.05);
  assert(distanceToLine(truth.origin, hinge.origin, hinge.axis) < 0.001);
});
