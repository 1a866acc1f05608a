/**
 * A file's own animation of its control surfaces survives the rig: three.js's AnimationMixer plays
 * the clip on the rigged GLB and every panel is where it is in the source at every time — linear,
 * step and cubic-spline channels of translation, rotation and scale, with and without `zero_rest`,
 * and on both halves of a V cut in two; the pivots stay at rest. Under a non-uniformly scaled parent, where no node chain
 * could hold the re-expressed keys, the panel is named in a warning instead.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { quatMultiply, type Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { axisAngle, newScene } from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { vPlanform } from "./v_planforms.ts";
import { skinnedAircraft } from "./skinned_aircraft.ts";
import { prng } from "../../support/prng.ts";

type Interpolation = "LINEAR" | "STEP" | "CUBICSPLINE";

/** Key times of every channel (seconds); the clip runs to the last. */
const TIMES = [0, 0.4, 1.1, 1.5, 2];
/** Where the mixer is sampled: keys, between keys, and past the end. */
const SAMPLES = [0, 0.2, 0.4, 0.73, 1.1, 1.31, 1.77, 2, 2.5];

/** Adds a channel animating `node`'s `path` through `values` (one per key, tangents made up for cubic). */
function animate(
  doc: Document,
  node: Node,
  path: "translation" | "rotation" | "scale",
  values: number[][],
  interpolation: Interpolation,
): void {
  const animation = doc.getRoot().listAnimations()[0] ?? doc.createAnimation("clip");
  const buffer = doc.getRoot().listBuffers()[0];
  const keys = interpolation === "CUBICSPLINE"
    ? values.flatMap((v, i) => [v.map((x) => x * 0.1 * (i + 1)), v, v.map((x) => -x * 0.05 * i)])
    : values;
  const sampler = doc.createAnimationSampler()
    .setInterpolation(interpolation)
    .setInput(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Float32Array(TIMES)))
    .setOutput(
      doc.createAccessor("", buffer).setType(path === "rotation" ? "VEC4" : "VEC3")
        .setArray(new Float32Array(keys.flat())),
    );
  animation.addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
  );
}

/** Rotations turning the rest one about `axis` by each of `degrees`. */
function turns(node: Node, axis: Vec3, degrees: number[]): number[][] {
  return degrees.map((d) => quatMultiply(axisAngle(axis, d), node.getRotation()));
}

/** Offsets of the rest translation, scaled by each of `amounts`. */
function moves(node: Node, offset: Vec3, amounts: number[]): number[][] {
  return amounts.map((a) => node.getTranslation().map((t, k) => t + a * offset[k]));
}

/** The demo fighter with animated surfaces: every path and interpolation, one surface a channel each. */
async function animatedFighter(): Promise<Document> {
  const doc = (await runNode(demoFighter, {})).scene;
  const node = (name: string) => nodeNamed(doc, name);
  animate(
    doc,
    node("LeftAileron"),
    "rotation",
    turns(node("LeftAileron"), [1, 0, 0], [0, 12, -20, 5, 0]),
    "LINEAR",
  );
  animate(doc, node("Flap.L"), "rotation", turns(node("Flap.L"), [0.6, 0.8, 0], [0, 8, 30, 30, 10]), "STEP");
  animate(
    doc,
    node("Flap.L"),
    "translation",
    moves(node("Flap.L"), [0, -0.1, 0.3], [0, 0.5, 1, 1, 0]),
    "LINEAR",
  );
  animate(
    doc,
    node("Rudder"),
    "rotation",
    turns(node("Rudder"), [0, 1, 0], [0, 15, -15, 20, 0]),
    "CUBICSPLINE",
  );
  animate(
    doc,
    node("Rudder"),
    "translation",
    moves(node("Rudder"), [0.02, 0, 0.01], [0, 1, 2, 1, 0]),
    "CUBICSPLINE",
  );
  animate(
    doc,
    node("Stabilator_Stbd"),
    "scale",
    [[1, 1, 1], [1, 1.2, 1], [1, 1, 1.1], [1, 1, 1], [1, 1, 1]],
    "LINEAR",
  );
  animate(
    doc,
    node("Stabilator_Stbd"),
    "rotation",
    turns(node("Stabilator_Stbd"), [0, 0, 1], [0, -10, 10, 0, 0]),
    "LINEAR",
  );
  return doc;
}

async function loadInThree(glb: Uint8Array): Promise<{ scene: THREE.Object3D; mixer: THREE.AnimationMixer }> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await new Promise<{ scene: THREE.Object3D; animations: THREE.AnimationClip[] }>((
    resolve,
    reject,
  ) => new GLTFLoader().parse(buffer, "", resolve, reject));
  const mixer = new THREE.AnimationMixer(gltf.scene);
  for (const clip of gltf.animations) mixer.clipAction(clip).play();
  return { scene: gltf.scene, mixer };
}

/** World matrices (three.js's) of `names`, by name, at `time` seconds into the clip. */
function poseAt(
  loaded: { scene: THREE.Object3D; mixer: THREE.AnimationMixer },
  time: number,
  names: string[],
) {
  loaded.mixer.setTime(time);
  loaded.scene.updateMatrixWorld(true);
  return names.map((name) => {
    const object = loaded.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(name));
    assert(object, `${name} loaded`);
    return object.matrixWorld.elements.slice();
  });
}

/**
 * The largest difference, over `SAMPLES`, between each source node's world matrix and those of its
 * rigged counterparts (`counterparts(name)`), and how far the clip moves the source at all.
 */
async function playedApart(
  source: Document,
  rigged: Document,
  names: string[],
  counterparts: (name: string) => string[] = (name) => [name],
): Promise<{ apart: number; moved: number }> {
  const before = await loadInThree(await writeGlb(source, { generator: GENERATOR }));
  const after = await loadInThree(await writeGlb(rigged, { generator: GENERATOR }));
  const rest = poseAt(before, 0, names);
  let apart = 0, moved = 0;
  for (const time of SAMPLES) {
    const expected = poseAt(before, time, names);
    names.forEach((name, i) => {
      moved = Math.max(moved, ...expected[i].map((v, k) => Math.abs(v - rest[i][k])));
      for (const got of poseAt(after, time, counterparts(name))) {
        apart = Math.max(apart, ...got.map((v, k) => Math.abs(v - expected[i][k])));
      }
    });
  }
  return { apart, moved };
}

const FIGHTER_ANIMATED = ["LeftAileron", "Flap.L", "Rudder", "Stabilator_Stbd"];

for (const zeroRest of [false, true]) {
  Deno.test(`animated surfaces of the demo fighter${zeroRest ? ", zero_rest" : ""} play in three.js as in the source`, async () => {
    const source = await animatedFighter();
    const result = await rig(source, { forward: "auto", up: "auto" }, {}, { zero_rest: zeroRest });
    for (const name of FIGHTER_ANIMATED) {
      assert(nodeNamed(result.scene, name).getParentNode()!.getName().startsWith("HINGE_auto_"), name);
    }
    assertEquals(result.ctx.warnings.filter((w) => w.message.includes("animat")), []);
    const { apart, moved } = await playedApart(source, result.scene, FIGHTER_ANIMATED);
    assert(moved > 0.1, `the clip moves the surfaces (${moved})`);
    assert(apart < 1e-5, `rigged surfaces off their source pose by up to ${apart}`);
    // The clip leaves the pivots at rest, free for whoever drives the controls.
    const pivots = FIGHTER_ANIMATED.map((name) => `HINGE_auto_${name}`);
    const { moved: pivotsMoved } = await playedApart(result.scene, result.scene, pivots);
    assertEquals(pivotsMoved, 0);
    // Each re-expressed channel has a sampler and output of its own; nothing is left unused.
    const validation = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
    assertEquals(validation.messages, []);
  });
}

Deno.test("animated armature bones driving surfaces play in three.js as in the source", async () => {
  const { doc } = skinnedAircraft();
  const bone = (name: string) => nodeNamed(doc, name);
  animate(
    doc,
    bone("aileron_L"),
    "rotation",
    turns(bone("aileron_L"), [1, 0, 0], [0, 20, -20, 10, 0]),
    "LINEAR",
  );
  animate(
    doc,
    bone("rudder"),
    "rotation",
    turns(bone("rudder"), [0, 0, 1], [0, 15, 0, -15, 0]),
    "CUBICSPLINE",
  );
  animate(doc, bone("rudder"), "translation", moves(bone("rudder"), [0.01, 0, 0], [0, 1, 1, 0, 0]), "STEP");
  const result = await rig(doc);
  const animated = ["aileron_L", "rudder"];
  for (const name of animated) {
    assert(nodeNamed(result.scene, name).getParentNode()!.getName().startsWith("HINGE_auto_"), name);
  }
  // rudder_tab hangs under the rudder's bone: it follows the clip too.
  const { apart, moved } = await playedApart(doc, result.scene, [...animated, "rudder_tab"]);
  assert(moved > 0.05, `the clip moves the bones (${moved})`);
  assert(apart < 1e-5, `rigged bones off their source pose by up to ${apart}`);
});

Deno.test("an animated V cut in two: both halves play the V's clip", async () => {
  const doc = newScene();
  const v = vPlanform(
    { sweepDegrees: 25, dihedralDegrees: 35, sections: 4, thickness: 0.08, centreSection: true },
    prng(7),
  );
  const node = addAircraftMesh(doc, "Ruddervator", v.positions, v.triangles);
  animate(doc, node, "rotation", turns(node, [1, 0, 0], [0, 10, -10, 4, 0]), "LINEAR");
  animate(doc, node, "translation", moves(node, [0, 0.05, 0], [0, 1, 0, 1, 0]), "STEP");
  const result = await rig(doc); // the rig works on a copy: `doc` stays the source
  assertEquals(result.report.parts.map((p) => p.panel), ["Ruddervator_L", "Ruddervator_R"]);
  const halves = () => ["Ruddervator_L", "Ruddervator_R"];
  const { apart, moved } = await playedApart(doc, result.scene, ["Ruddervator"], halves);
  assert(moved > 0.05, `the clip moves the V (${moved})`);
  assert(apart < 1e-5, `halves off the V's pose by up to ${apart}`);
  const validation = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  assertEquals(validation.messages, []);
});

Deno.test("an animated surface under a non-uniformly scaled parent is named in a warning", async () => {
  const doc = (await runNode(demoFighter, {})).scene;
  const canard = nodeNamed(doc, "CanardLeft");
  animate(doc, canard, "rotation", turns(canard, [1, 0, 0], [0, 10, 0, 0, 0]), "LINEAR");
  const result = await rig(doc, { forward: "auto", up: "auto" });
  const warned = result.ctx.warnings.filter((w) => w.message.includes("animated"));
  assertEquals(warned.length, 1);
  assert(warned[0].message.includes("'CanardLeft'") && warned[0].message.includes("non-uniformly scaled"));
});
