/** `rig.fit_hinge` on synthetic scenes: senses per kind, brakes and split halves, frames, bad geometry. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { setSourceInfo } from "../../../runtime/scene/source.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import {
  addGroup,
  addPanel,
  axisErrorDegrees,
  distanceToLine,
  newScene,
  type PanelSpec,
  trueHinge,
} from "./fixtures.ts";
import { AFT, aileron, type Case, checkCases, DOWN, RIGHT, UP } from "./cases.ts";
import { rig, type RigResult } from "./pipeline.ts";

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
    // The halves share the pair's hinge, between them (rig fit v21; before, each turned about its own
    // mid-thickness, 6 mm off it).
    { spec: half("DragRudder_R_A", 0.006), parent: "Body", hingeOf: half("pair", 0) },
    { spec: half("DragRudder_R_B", -0.006), parent: "Body", hingeOf: half("pair", 0) },
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
