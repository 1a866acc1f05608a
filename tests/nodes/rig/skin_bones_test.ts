/**
 * Control surfaces driven by skin bones: a code-built skinned aircraft is rigged, its bones become
 * panels (`driven_by: "skin"`) fitted to the vertices skinned to them, and turning an inserted pivot
 * moves those vertices about the fitted hinge — checked by skinning them independently.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws as assertThrows } from "node:assert/strict";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { gatherBonePositions, SkinPoses } from "../../../nodes/rig/bone_geometry.ts";
import {
  dot,
  normalize,
  type Quat,
  quatMultiply,
  rotatePointAboutAxis,
  sub,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { validateGltf } from "../../support/validator.ts";
import {
  axisAngle,
  axisErrorDegrees,
  distanceToLine,
  IDENTITY,
  maxDisplacement,
  panelMesh,
} from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import {
  ELEVATOR_NOSE_WEIGHT,
  FUSELAGE,
  SKINNED_SURFACES,
  skinnedAircraft,
  skinnedWorld,
} from "./skinned_aircraft.ts";

Deno.test("the fixture skins to its design: bind space and bone frames cancel exactly", () => {
  const { mesh, ranges } = skinnedAircraft();
  const world = skinnedWorld(mesh);
  for (const spec of [FUSELAGE, ...SKINNED_SURFACES.map((s) => s.spec)]) {
    const [first] = ranges.get(spec.name)!;
    const design = panelMesh(spec).positions;
    const drawn = world.subarray(first * 3, first * 3 + design.length);
    assert(maxDisplacement(Float64Array.from(design), drawn) < 1e-5, spec.name);
  }
});

Deno.test("a bone's geometry is the skinned vertices weighted mostly to it, not its child bone's", () => {
  const { doc, mesh, ranges } = skinnedAircraft();
  const world = skinnedWorld(mesh);
  for (const name of ["rudder", "Elevator_L", "rudder_tab"]) {
    const [first, end] = ranges.get(name)!;
    const { positions, count } = gatherBonePositions(doc, nodeNamed(doc, name), IDENTITY);
    // Only the surface's own vertices: the tab's (even its 0.5/0.5 hinge row) are its bone's, the
    // fuselage's 0.3 is not dominant.
    assertEquals(count, end - first);
    assert(maxDisplacement(positions, world.slice(first * 3, end * 3)) < 1e-5, name);
  }
  assertEquals(gatherBonePositions(doc, nodeNamed(doc, "flap_L"), IDENTITY).count, 0);
});

Deno.test("skin poses kept for one pass give every bone the geometry it gets on its own", () => {
  const { doc } = skinnedAircraft();
  const frame = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, -1, 2, 1]; // not the identity: a turn and an offset
  const poses = new SkinPoses(frame);
  for (const name of ["rudder", "Elevator_L", "rudder_tab", "rudder", "Elevator_L"]) {
    const bone = nodeNamed(doc, name);
    const alone = gatherBonePositions(doc, bone, frame, { triangles: true });
    const kept = gatherBonePositions(doc, bone, frame, { triangles: true, poses });
    assert(alone.count > 0, name);
    assertEquals(kept, alone);
  }
  // Poses are of one frame: asked for another, it is an error, not the wrong placement.
  assertThrows(
    () => gatherBonePositions(doc, nodeNamed(doc, "rudder"), IDENTITY, { poses }),
    /another frame/,
  );
});

Deno.test("surface bones become panels: kind, side, hinge; the pose is kept and +10° turns about the hinge", async () => {
  const { doc } = skinnedAircraft();
  const rest = skinnedWorld(nodeNamed(doc, "Aircraft"));
  const result = await rig(doc);
  const bytes = await writeGlb(result.scene, { generator: GENERATOR });
  assertEquals((await validateGltf(bytes)).messages, []);

  const bones = result.report.parts.map((p) => [p.panel, p.kind, p.side, p.found_by]);
  assertEquals(bones, SKINNED_SURFACES.map((s) => [s.bone, s.kind, s.side, "name"]));
  const extras = nodeNamed(result.scene, "HINGE_auto_aileron_L").getExtras() as {
    partgraph: { part: { driven_by: string } };
  };
  assertEquals(extras.partgraph.part.driven_by, "skin");
  assert(
    result.ctx.warnings.some((w) => w.message.startsWith("skin bone 'flap_L' (flap) has 0 skinned vertices")),
    result.ctx.warnings.map((w) => w.message).join("\n"),
  );

  // At 0° nothing moves, in memory and in the written file.
  const mesh = nodeNamed(result.scene, "Aircraft");
  assert(maxDisplacement(rest, skinnedWorld(mesh)) < 1e-5);
  assert(maxDisplacement(rest, skinnedWorld(nodeNamed(await readGltf(bytes), "Aircraft"))) < 1e-5);

  const { ranges } = skinnedAircraft();
  for (const surface of SKINNED_SURFACES) {
    const { spec } = surface;
    const part = result.report.parts.find((p) => p.panel === surface.bone)!;
    const { origin, axis } = part.hinge!.world;
    const chord = (spec.chordRoot + spec.chordTip) / 2;
    const degrees = axisErrorDegrees(axis, sub(spec.tip, spec.root));
    const offset = Math.max(distanceToLine(spec.root, origin, axis), distanceToLine(spec.tip, origin, axis));
    assert(degrees < 0.5 && offset < 0.01 * chord, `${spec.name}: ${degrees}°, ${offset / chord} chord`);
    // Fitted from the bone's skinned triangles, judged like a mesh panel.
    const fit = part.fit as unknown as { source: string; confidence: string };
    assertEquals([fit.source, fit.confidence], ["surface", "good"], spec.name);

    const pivot = nodeNamed(result.scene, `HINGE_auto_${surface.bone}`);
    const rotation = pivot.getRotation() as Quat;
    pivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], 10)));
    const turned = skinnedWorld(mesh);
    pivot.setRotation(rotation);

    // Vertices weighted fully to the bone turn rigidly about the fitted hinge; the far edge goes the kind's way.
    const [first, end] = ranges.get(spec.name)!;
    let rigidError = 0, far = -1, farDistance = -1;
    for (let v = first; v < end; v++) {
      const before = Array.from(rest.subarray(v * 3, v * 3 + 3)) as Vec3;
      const after = Array.from(turned.subarray(v * 3, v * 3 + 3)) as Vec3;
      const noseRow = (spec.name === "Elevator_L" || spec.name === "rudder_tab") && (v - first) % 7 === 0;
      if (!noseRow) {
        const rigid = rotatePointAboutAxis(before, origin, axis, (10 * Math.PI) / 180);
        rigidError = Math.max(rigidError, Math.hypot(...sub(after, rigid)));
      }
      const distance = distanceToLine(before, origin, axis);
      if (distance > farDistance) [far, farDistance] = [v, distance];
    }
    assert(rigidError < 1e-5, `${spec.name}: off the rigid turn by ${rigidError} m`);
    const motion = sub(turned.subarray(far * 3, far * 3 + 3), rest.subarray(far * 3, far * 3 + 3));
    const along = dot(normalize(motion), surface.wanted);
    assert(along > 0.9, `${spec.name}: +10° moved the far edge ${motion} (cos ${along} to wanted)`);
  }

  // Blended hinge-row vertices follow the bone in proportion to their weight.
  const [first] = ranges.get("Elevator_L")!;
  const part = result.report.parts.find((p) => p.panel === "Elevator_L")!;
  const pivot = nodeNamed(result.scene, "HINGE_auto_Elevator_L");
  const rotation = pivot.getRotation() as Quat;
  pivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], 10)));
  const turned = skinnedWorld(mesh);
  pivot.setRotation(rotation);
  const before = Array.from(rest.subarray(first * 3, first * 3 + 3)) as Vec3;
  const rigid = rotatePointAboutAxis(
    before,
    part.hinge!.world.origin,
    part.hinge!.world.axis,
    (10 * Math.PI) / 180,
  );
  const blended = [0, 1, 2].map((k) => before[k] + ELEVATOR_NOSE_WEIGHT * (rigid[k] - before[k]));
  assert(Math.hypot(...sub(turned.subarray(first * 3, first * 3 + 3), blended)) < 1e-5);
});

Deno.test("skin-bone rigs are byte-identical across runs and idempotent on their own output", async () => {
  const once = await rig(skinnedAircraft().doc);
  const again = await rig(skinnedAircraft().doc);
  const bytes = await writeGlb(once.scene, { generator: GENERATOR });
  assertEquals(bytes, await writeGlb(again.scene, { generator: GENERATOR }));
  const twice = await rig(await readGltf(bytes));
  assertEquals(twice.report.parts.map((p) => p.name), once.report.parts.map((p) => p.name));
  const rest = skinnedWorld(nodeNamed(once.scene, "Aircraft"));
  assert(maxDisplacement(rest, skinnedWorld(nodeNamed(twice.scene, "Aircraft"))) < 1e-5);
});

Deno.test("a tab's bone beside its rudder's rides on the rudder's pivot", async () => {
  const { doc, ranges } = skinnedAircraft({ tabBesideRudder: true });
  const result = await rig(doc);
  assertEquals((await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }))).messages, []);
  const rudderPivot = nodeNamed(result.scene, "HINGE_auto_rudder");
  assertEquals(
    nodeNamed(result.scene, "HINGE_auto_rudder_tab").getParentNode()?.getName(),
    "HINGE_auto_rudder",
  );
  const mesh = nodeNamed(result.scene, "Aircraft");
  const rest = skinnedWorld(mesh);
  const rotation = rudderPivot.getRotation() as Quat;
  rudderPivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], 10)));
  const turned = skinnedWorld(mesh);
  rudderPivot.setRotation(rotation);
  const { origin, axis } = result.report.parts.find((p) => p.panel === "rudder")!.hinge!.world;
  const [first, end] = ranges.get("rudder_tab")!;
  for (let v = first; v < end; v++) {
    const rigid = rotatePointAboutAxis(
      Array.from(rest.subarray(v * 3, v * 3 + 3)) as Vec3,
      origin,
      axis,
      (10 * Math.PI) / 180,
    );
    assert(Math.hypot(...sub(turned.subarray(v * 3, v * 3 + 3), rigid)) < 1e-5, `tab vertex ${v}`);
  }
});
