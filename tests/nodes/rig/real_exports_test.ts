/**
 * The rig on files shaped like real aircraft exports: quantized, sparse and interleaved positions,
 * several primitives, shared meshes, panels of several nodes, lines and points, degenerate panels,
 * skins, GPU instancing, morph targets, huge offsets, centimetres, several scenes, its own output
 * and a decoder's joints. Each gives the right rig or a clear warning — never a crash, a NaN or an
 * invalid GLB.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { mergeExtras, setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import { setSourceInfo } from "../../../runtime/scene/source.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { validateGltf } from "../../support/validator.ts";
import { runNode } from "../../support/context.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import {
  addGroup,
  addPanel,
  axisAngle,
  axisErrorDegrees,
  distanceToLine,
  IDENTITY,
  maxDisplacement,
  newScene,
  type PanelSpec,
  trueHinge,
  worldVertices,
} from "./fixtures.ts";
import {
  addMorphTarget,
  instanceAt,
  looseCopy,
  quantizePositions,
  rawMeshNode,
  skinToJoints,
} from "./export_fixtures.ts";
import { aileron, checkCases, DOWN, RIGHT } from "./cases.ts";
import { nodeNamed, rig, type RigResult } from "./pipeline.ts";

/** Writes and re-reads a scene, as a user's file would arrive. */
async function roundTrip(doc: Document): Promise<Document> {
  return await readGltf(await writeGlb(doc, { generator: GENERATOR }));
}

/** The rigged GLB validates with 0 errors and the report holds only finite numbers. */
async function assertSound(result: RigResult): Promise<void> {
  const validation = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  assertEquals(validation.messages, []);
  const json = JSON.stringify(
    result.report,
    (_, v) => typeof v === "number" && !Number.isFinite(v) ? "!" : v,
  );
  assert(!json.includes('"!"'), "report numbers are finite");
}

/** Axis error (degrees) and line offset of a reported panel against its design hinge. */
function hingeError(result: RigResult, spec: PanelSpec, panel: string, parentWorld: ArrayLike<number>) {
  const part = result.report.parts.find((p) => p.panel === panel);
  assert(part?.hinge, `${panel} rigged`);
  const truth = trueHinge(spec, parentWorld);
  return {
    degrees: axisErrorDegrees(part.hinge.world.axis, truth.axis),
    offset: distanceToLine(truth.origin, part.hinge.world.origin, part.hinge.world.axis),
  };
}

/** `spec` moved `dy` up (so panels of one scene do not overlap). */
function raised(spec: PanelSpec, dy: number, name = spec.name): PanelSpec {
  return {
    ...spec,
    name,
    root: [spec.root[0], spec.root[1] + dy, spec.root[2]],
    tip: [spec.tip[0], spec.tip[1] + dy, spec.tip[2]],
  };
}

Deno.test("quantized (int8, uint16), sparse and interleaved positions decoded from a file: exact hinges", async () => {
  const doc = newScene();
  const wing = addGroup(doc, undefined, "Wing_R");
  const specs = [
    raised(aileron("Aileron_R_int8"), 0),
    raised(aileron("Aileron_R_uint16"), 0.3),
    raised(aileron("Aileron_R_sparse"), 0.6),
    raised(aileron("Aileron_R_interleaved"), 0.9),
  ];
  const [int8, uint16, sparse, interleaved] = specs.map((spec) => addPanel(doc, wing, spec));
  quantizePositions(doc, int8, "int8");
  quantizePositions(doc, uint16, "uint16");
  sparse.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.setSparse(true);
  const primitive = interleaved.getMesh()!.listPrimitives()[0];
  const count = primitive.getAttribute("POSITION")!.getCount();
  const normals = new Float32Array(count * 3).map((_, i) => (i % 3 === 1 ? 1 : 0));
  primitive.setAttribute(
    "NORMAL",
    doc.createAccessor("normal", doc.getRoot().listBuffers()[0]).setType("VEC3").setArray(normals),
  );
  const bytes = await writeGlb(doc, { generator: GENERATOR });
  const json = new TextDecoder().decode(
    bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true)),
  );
  assert(
    json.includes('"sparse"') && json.includes('"byteStride"'),
    "the file holds sparse and strided data",
  );
  // Through decode.gltf, as a user's file goes: its structure check allows what KHR_mesh_quantization does.
  const { scene: file } = await runNode(decodeGltf, { bytes: { bytes, name: "quantized.glb" } });
  const wingWorld = nodeNamed(file, "Wing_R").getWorldMatrix();
  const result = await rig(file);
  await assertSound(result);
  for (const spec of specs) {
    const { degrees, offset } = hingeError(result, spec, spec.name, wingWorld);
    // int8 steps are 1/127 of the half-span (1.05 m): 8 mm, so the line is only about that good.
    const [maxDegrees, maxOffset] = spec.name.endsWith("int8") ? [0.5, 0.008] : [0.05, 0.001];
    assert(degrees < maxDegrees && offset < maxOffset, `${spec.name}: ${degrees}°, ${offset} m`);
  }
});

Deno.test("several primitives, a mesh shared by two panels, a panel of child meshes, lines: each rigged once", async () => {
  const doc = newScene();
  const tail = addGroup(doc, undefined, "Tail", { translation: [0, 0.5, 4] });
  const elevator: PanelSpec = { ...aileron("Elevator_R"), root: [0.3, 0, 0.4], tip: [2, 0.02, 0.7] };
  const right = addPanel(doc, tail, elevator);
  // One mesh, two primitives (two materials, as exporters split them).
  const first = right.getMesh()!.listPrimitives()[0];
  right.getMesh()!.addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", first.getAttribute("POSITION")).setIndices(
      first.getIndices(),
    )
      .setMaterial(doc.createMaterial("Trim")),
  );
  // The left elevator is the same mesh, mirrored.
  tail.addChild(doc.createNode("Elevator_L").setMesh(right.getMesh()).setScale([-1, 1, 1]));
  const mirrored: PanelSpec = {
    ...elevator,
    name: "Elevator_L",
    root: [-elevator.root[0], elevator.root[1], elevator.root[2]],
    tip: [-elevator.tip[0], elevator.tip[1], elevator.tip[2]],
  };
  // A flap made of a skin node and a wireframe node under an empty named for it.
  const wing = addGroup(doc, undefined, "Wing_L", { scale: [-1, 1, 1] });
  const flapHolder = addGroup(doc, wing, "Flap_L");
  const flap = raised(aileron("Object_12"), 0.2);
  const skin = addPanel(doc, flapHolder, flap);
  flapHolder.addChild(looseCopy(doc, skin, "Object_13", "lines"));
  // A spoiler drawn only as lines.
  const spoilerSpec = raised(aileron("Spoiler_Source"), 0.5);
  const source = addPanel(doc, wing, spoilerSpec);
  const spoiler = looseCopy(doc, source, "Spoiler_L", "lines");
  wing.addChild(spoiler);
  source.dispose();

  const result = await checkCases(await roundTrip(doc), [
    { spec: elevator, parent: "Tail" },
    { spec: mirrored, parent: "Tail" },
  ], () => DOWN);
  await assertSound(result);
  assertEquals(result.report.parts.map((p) => [p.panel, p.kind, p.side]), [
    ["Elevator_R", "elevator", "right"],
    ["Elevator_L", "elevator", "left"],
    ["Flap_L", "flap", "left"],
    ["Spoiler_L", "spoiler", "left"],
  ]);
  const wingWorld = nodeNamed(result.scene, "Wing_L").getWorldMatrix();
  for (const [panel, spec] of [["Flap_L", flap], ["Spoiler_L", spoilerSpec]] as const) {
    const { degrees, offset } = hingeError(result, spec, panel, wingWorld);
    assert(degrees < 0.05 && offset < 0.001, `${panel}: ${degrees}°, ${offset} m`);
  }
});

Deno.test("points, a line or one point are warned about and not rigged; one triangle is rigged", async () => {
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  scene.addChild(rawMeshNode(doc, "Flap_R", [1, 0, 0, 2, 0, 0.01, 3, 0, 0.02, 4, 0, 0.03], 0));
  scene.addChild(rawMeshNode(doc, "Aileron_R", [2, 0, 1, 4, 0, 1], 1));
  scene.addChild(rawMeshNode(doc, "Elevator_L", [-1, 0, 5, -1, 0, 5, -1, 0, 5], 4));
  // One triangle: root leading edge, root trailing edge, tip; the hinge is its forward edge.
  scene.addChild(rawMeshNode(doc, "Elevator_R", [1, 0, 5, 1, 0, 5.5, 2.5, 0, 5.2], 4));
  const result = await rig(await roundTrip(doc));
  await assertSound(result);
  assertEquals(result.report.parts.map((p) => p.panel), ["Elevator_R"]);
  const hinge = result.report.parts[0].hinge!.world;
  assert(axisErrorDegrees(hinge.axis, [1.5, 0, 0.2]) < 0.01, `${hinge.axis}`);
  assert(distanceToLine([1, 0, 5], hinge.origin, hinge.axis) < 1e-6);
  const messages = result.ctx.warnings.map((w) => w.message);
  for (const name of ["Flap_R", "Aileron_R", "Elevator_L"]) {
    assert(
      messages.includes(`panel '${name}' has no area (its vertices lie on one line or point); not rigged`),
    );
  }
});

Deno.test("skinned and GPU-instanced panels are warned about; the skin's surface bone and a panel under a skinned node are rigged", async () => {
  const doc = newScene();
  const armature = addGroup(doc, undefined, "Armature");
  const bone = addGroup(doc, armature, "aileron_r_bone", { translation: [2.3, 0, 0.8] });
  const boneEnd = addGroup(doc, bone, "aileron_r_bone_end", { translation: [2, 0, 0] });
  skinToJoints(doc, addPanel(doc, undefined, aileron("Aileron_R")), [bone, boneEnd]);
  const flap = addPanel(doc, undefined, raised(aileron("Flap_R"), 0.3));
  instanceAt(doc, flap, [[0, 0, 0], [0, 0, 1]]);
  const body = addPanel(doc, armature, {
    ...aileron("Body"),
    root: [-1, 0, -3],
    tip: [1, 0, -3],
    chordRoot: 6,
    chordTip: 6,
    thickness: 1,
  });
  skinToJoints(doc, body, [armature]);
  const elevator = raised(aileron("Elevator_R"), 0.6);
  addPanel(doc, body, elevator);

  const file = await roundTrip(doc);
  const before = worldVertices(nodeNamed(file, "Elevator_R"));
  const result = await rig(file);
  await assertSound(result);
  assertEquals(result.report.parts.map((p) => p.panel), ["aileron_r_bone", "Elevator_R"]);
  const { degrees, offset } = hingeError(
    result,
    elevator,
    "Elevator_R",
    nodeNamed(file, "Body").getWorldMatrix(),
  );
  assert(degrees < 0.05 && offset < 0.001, `${degrees}°, ${offset} m`);
  assert(maxDisplacement(before, worldVertices(nodeNamed(result.scene, "Elevator_R"))) < 1e-5);
  const messages = result.ctx.warnings.map((w) => w.message).join("\n");
  assert(messages.includes("panel 'Aileron_R' has a skinned mesh ('Aileron_R')"), messages);
  assert(messages.includes("panel 'Flap_R' has a GPU-instanced mesh ('Flap_R')"), messages);
  // The bone that moves the skinned aileron is named after it: it is the panel (its tip bone is not).
  const boneError = hingeError(result, aileron("Aileron_R"), "aileron_r_bone", IDENTITY);
  assert(
    boneError.degrees < 0.05 && boneError.offset < 0.001,
    `${boneError.degrees}°, ${boneError.offset} m`,
  );
  assertEquals(result.report.parts[0].found_by, "name");
  assert(!messages.includes("aileron_r_bone_end"), messages);
});

Deno.test("a panel with morph targets is fitted in the shape its default weights draw", async () => {
  const doc = newScene();
  const wing = addGroup(doc, undefined, "Wing_R");
  const spec = aileron("Aileron_R");
  addMorphTarget(doc, addPanel(doc, wing, spec), [0, -0.1, 0.05], 1);
  const moved = (p: readonly number[]): [number, number, number] => [p[0], p[1] - 0.1, p[2] + 0.05];
  const drawnSpec: PanelSpec = { ...spec, root: moved(spec.root), tip: moved(spec.tip) };
  const result = await rig(await roundTrip(doc));
  await assertSound(result);
  const { degrees, offset } = hingeError(
    result,
    drawnSpec,
    "Aileron_R",
    nodeNamed(doc, "Wing_R").getWorldMatrix(),
  );
  assert(degrees < 0.05 && offset < 0.001, `${degrees}°, ${offset} m`);
});

Deno.test("a model 6,000 km from the origin (geographic placement) keeps its hinges exact", async () => {
  const doc = newScene();
  const placed = addGroup(doc, undefined, "Placement", {
    translation: [4_200_000, 120_000, -4_700_000],
    rotation: axisAngle([0.2, 1, 0.1], 40),
  });
  const wing = addGroup(doc, placed, "Wing_R");
  addPanel(doc, wing, aileron("Aileron_R"));
  const worldDown = (): [number, number, number] => {
    const m = placed.getWorldMatrix();
    return [-m[4], -m[5], -m[6]];
  };
  const result = await checkCases(doc, [{ spec: aileron("Aileron_R"), parent: "Wing_R" }], worldDown);
  await assertSound(result);
});

Deno.test("a model in centimetres with an unknown unit: exact hinges, relative centre band", async () => {
  const doc = newScene();
  const cm = (v: readonly number[]) => v.map((x) => x * 100) as [number, number, number];
  const wing = addGroup(doc, undefined, "Wing");
  const spec: PanelSpec = {
    ...aileron("Aileron"),
    root: cm(aileron("Aileron").root),
    tip: cm(aileron("Aileron").tip),
    chordRoot: 50,
    chordTip: 35,
    thickness: 3,
  };
  addPanel(doc, wing, spec);
  const fin = addGroup(doc, undefined, "Fin");
  // A rudder 0.3 cm off the centre line: centre in a 9 m model, whatever the unit.
  const rudder: PanelSpec = {
    name: "Rudder",
    root: [0.3, 100, 500],
    tip: [0.3, 220, 550],
    aft: [0, 0, 1],
    normal: RIGHT,
    chordRoot: 70,
    chordTip: 50,
    thickness: 3,
  };
  addPanel(doc, fin, rudder);
  setSourceInfo(doc, { format: "test", forward: "-Z", up: "+Y", metresPerUnit: null });
  const result = await checkCases(doc, [{ spec, parent: "Wing" }, { spec: rudder, parent: "Fin" }], (c) => {
    return c.spec.name === "Rudder" ? RIGHT : DOWN;
  });
  await assertSound(result);
  assertEquals(result.report.parts.map((p) => [p.panel, p.side]), [["Aileron", "right"], [
    "Rudder",
    "centre",
  ]]);
});

Deno.test("several scenes: the panels of every scene are rigged", async () => {
  const doc = newScene();
  addPanel(doc, undefined, aileron("Aileron_R"));
  const lod = doc.createScene("LOD1");
  const low = addPanel(doc, undefined, raised(aileron("Aileron_R_LOD1"), 0.3));
  doc.getRoot().getDefaultScene()!.removeChild(low);
  lod.addChild(low);
  const result = await rig(await roundTrip(doc));
  await assertSound(result);
  assertEquals(result.report.parts.map((p) => p.panel), ["Aileron_R", "Aileron_R_LOD1"]);
  assertEquals(nodeNamed(result.scene, "HINGE_auto_Aileron_R_LOD1").listParents().includes(lod), false);
  assert(
    result.scene.getRoot().listScenes()[1].listChildren().some((n) =>
      n.getName() === "HINGE_auto_Aileron_R_LOD1"
    ),
  );
});

Deno.test("the rig on its own output file, and on a decoder's joints, changes nothing", async () => {
  const doc = newScene();
  const root = addGroup(doc, undefined, "Root");
  addPanel(doc, root, aileron("Aileron_R"));
  // A Freelancer-style joint: the decoder's pivot above a part whose name says aileron.
  const joint = addGroup(doc, root, "Aileron_L_joint", { translation: [-1, 0, 0] });
  mergeExtras(joint, { ctrl_type: "rotation", axis: "X", unit: "deg", min: -20, max: 20, rest: 0 });
  setPartgraphExtras(joint, { part: { kind: "rev", found_by: "constraint", min: -20, max: 20 } });
  addPanel(doc, joint, { ...aileron("Aileron_L"), root: [-2.3, 0, 0.8], tip: [-4.4, 0.05, 1.25] });
  setSourceInfo(doc, { format: "cmp", forward: "-Z", up: "+Y", metresPerUnit: 1 });
  const frame = { forward: "auto", up: "auto" };
  const once = await rig(await roundTrip(doc), frame);
  const bytes = await writeGlb(once.scene, { generator: GENERATOR });
  const twice = await rig(await readGltf(bytes), frame);
  assertEquals(await writeGlb(twice.scene, { generator: GENERATOR }), bytes);
  assertEquals(twice.report, once.report);
  assertEquals(once.report.parts.map((p) => [p.name, p.found_by]), [
    ["HINGE_auto_Aileron_R", "name"],
    ["Aileron_L_joint", "constraint"],
  ]);
  assertEquals(twice.ctx.warnings, []);
});

Deno.test('forward "auto" with no recorded frame: found from the geometry, and said to be unsure', async () => {
  const build = (facingPlusZ: boolean) => {
    const doc = newScene();
    const root = addGroup(doc, undefined, "Root", { rotation: facingPlusZ ? [0, 1, 0, 0] : [0, 0, 0, 1] });
    addPanel(doc, root, aileron("Aileron_R"));
    addPanel(doc, root, { ...aileron("Aileron_L"), root: [-2.3, 0, 0.8], tip: [-4.4, 0.05, 1.25] });
    return doc;
  };
  const auto = { forward: "auto", up: "auto" };
  // Two ailerons and nothing else: the span and the sides show (left/right names fix the
  // handedness), not which end is the tail — so the frame is said to be unsure.
  for (const facingPlusZ of [false, true]) {
    const { report, ctx } = await rig(build(facingPlusZ), auto);
    assertEquals([report.frame.found_by, report.frame.confidence], ["geometry", "weak"]);
    if (!facingPlusZ) assertEquals([report.frame.forward, report.frame.up], ["-Z", "+Y"]);
    assertEquals(report.parts.map((p) => p.side), ["right", "left"]);
    const unsure = ctx.warnings.map((w) => w.message).filter((m) => m.startsWith('frame: "auto" found'));
    assertEquals(unsure.length, 1);
    assert(unsure[0].includes("from the geometry but is unsure (tail: nothing to tell by"), unsure[0]);
  }
  // A recorded frame that is no frame (a foreign or edited file) is not used: the geometry is.
  const odd = build(false);
  setSourceInfo(odd, { format: "test", forward: "+Y", up: "+Y", metresPerUnit: -1 });
  const fallback = await rig(odd, auto);
  assertEquals(
    [fallback.report.frame.forward, fallback.report.frame.up, fallback.report.frame.metres_per_unit],
    ["-Z", "+Y", null],
  );
  assertEquals(fallback.report.parts.map((p) => p.side), ["right", "left"]);
  // Given explicitly, the frame is used as given, and the facing check still names the axis to try.
  const given = await rig(build(true), { forward: "-Z", up: "+Y" });
  assertEquals(given.report.frame, { forward: "-Z", up: "+Y", metres_per_unit: 1 });
  const messages = given.ctx.warnings.map((w) => w.message).join("\n");
  assert(messages.includes("try forward +Z"), messages);
});
