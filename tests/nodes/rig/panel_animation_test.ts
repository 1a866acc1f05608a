/**
 * A file's own animation of its control surfaces survives the rig: three.js's AnimationMixer plays
 * the clip on the rigged GLB and every panel is where it is in the source at every time — linear,
 * step and cubic-spline channels of translation, rotation and scale, with and without `zero_rest`,
 * on armature bones, and on both halves of a V cut in two; the pivots stay at rest. Under a
 * non-uniformly scaled parent, where no node chain could hold the re-expressed keys, the panel is
 * named in a warning instead.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { vPlanform } from "./v_planforms.ts";
import { skinnedAircraft } from "./skinned_aircraft.ts";
import { animate, animatedFighter, FIGHTER_ANIMATED, moves, turns } from "./animated.ts";
import { prng } from "../../support/prng.ts";

/** Where the mixer is sampled: keys, between keys, and past the end. */
const SAMPLES = [0, 0.2, 0.4, 0.73, 1.1, 1.31, 1.77, 2, 2.5];

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

for (const zeroRest of [false, true]) {
  Deno.test(`animated surfaces of the demo fighter${zeroRest ? ", zero_rest" : ""} play in three.js as in the source`, async () => {
    const source = await animatedFighter();
    const result = await rig(source, { forward: "auto", up: "auto" }, {}, { zero_rest: zeroRest });
    for (const name of FIGHTER_ANIMATED) {
      assert(nodeNamed(result.scene, name).getParentNode()!.getName().startsWith("HINGE_auto_"), name);
    }
    // The test's clips are no deflections (a track, a scale, a turn about the surface's own origin):
    // each is named, and no hinge is taken from them.
    const notes = result.ctx.warnings.map((w) => w.message).filter((m) => m.includes("its animation"));
    assertEquals(notes.map((m) => /^panel '([^']+)'/.exec(m)?.[1]).sort(), [...FIGHTER_ANIMATED].sort());
    assert(notes.every((m) => !/the animation's is used/.test(m)), notes.join("\n"));
    for (const part of result.report.parts.filter((p) => FIGHTER_ANIMATED.includes(p.name))) {
      assert((part.fit as { rule?: string } | null)?.rule !== "animation", part.name);
    }
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
