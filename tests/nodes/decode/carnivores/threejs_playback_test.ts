/**
 * three.js plays `.car` clips as the game does when frames share morph targets and when a clip is
 * resampled: GLTFLoader + AnimationMixer, sampled at keyframes and between them, against the stored
 * positions (÷16, glTF axes) — the decoder's output read by a real client, not by our own probe.
 */
import assert from "node:assert/strict";
import * as THREE from "three";
import { load } from "../../../support/threejs_client.ts";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import type { CarAnimation, CarModel } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animatedCar, animation } from "./fixtures.ts";

async function play(car: CarModel, params: Record<string, unknown>) {
  const { scene } = await runNode(decodeCar, { bytes: { bytes: encodeCar(car), name: "c.car" } }, {
    scale: 1,
    ...params,
  }, testContext());
  const glb = await writeGlb(scene as Document, { generator: GENERATOR });
  return await load(glb);
}

/** Every vertex of every mesh with its morphs applied, keyed by its rest position's point. */
function pointsAt(root: THREE.Object3D, car: CarModel): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const v = new THREE.Vector3();
  root.traverse((o: THREE.Object3D) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    const rest = mesh.geometry.getAttribute("position");
    for (let i = 0; i < rest.count; i++) {
      // The rest position names the point: every point of these fixtures is distinct.
      const p = Array.from({ length: car.points.count }, (_, q) => q).find((q) =>
        Math.abs(car.points.positions[q * 3] - rest.getX(i)) < 1e-4 &&
        Math.abs(car.points.positions[q * 3 + 1] - rest.getY(i)) < 1e-4 &&
        Math.abs(-car.points.positions[q * 3 + 2] - rest.getZ(i)) < 1e-4
      )!;
      mesh.getVertexPosition(i, v);
      out.set(p, [v.x, v.y, v.z]);
    }
  });
  return out;
}

function stored(clip: CarAnimation, points: number, k: number, p: number): number[] {
  const at = (k * points + p) * 3;
  return [clip.positions[at] / 16, clip.positions[at + 1] / 16, -clip.positions[at + 2] / 16];
}

function assertNear(actual: Map<number, number[]>, expected: (p: number) => number[], what: string) {
  assert.ok(actual.size > 0, `${what}: no vertices`);
  for (const [p, position] of actual) {
    const e = expected(p);
    assert.ok(position.every((x, i) => Math.abs(x - e[i]) < 1e-4), `${what} point ${p}: ${position} vs ${e}`);
  }
}

Deno.test("three.js: a clip whose frames share targets (held pose, loop back to frame 0) plays every stored frame and the blends between", async () => {
  const base = animatedCar();
  const values = base.points.count * 3;
  const src = animation("walk", 10, 3, base.points, 0);
  const order = [0, 1, 1, 2, 0];
  const positions = Int16Array.from(
    order.flatMap((k) => Array.from(src.positions.subarray(k * values, (k + 1) * values))),
  );
  const clip: CarAnimation = { name: "walk", kps: 10, frameCount: order.length, positions };
  const car = { ...base, animations: [clip] };
  const gltf = await play(car, {});
  const [mesh] = (() => {
    const found: THREE.Mesh[] = [];
    gltf.scene.traverse((o: THREE.Object3D) => (o as THREE.Mesh).isMesh && found.push(o as THREE.Mesh));
    return found;
  })();
  assert.deepEqual(Object.keys(mesh.morphTargetDictionary!), ["walk[0]", "walk[1]", "walk[3]"]);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations[0]).play();
  const duration = 0.5; // ⌊1000·5/10⌋ ms
  for (let k = 0; k < order.length; k++) {
    mixer.setTime((k * duration) / 4);
    assertNear(pointsAt(gltf.scene, car), (p) => stored(clip, base.points.count, k, p), `frame ${k}`);
  }
  // A quarter of the way from frame 3 to frame 4 (the loop back): the game's linear blend.
  mixer.setTime(3.25 * duration / 4);
  assertNear(pointsAt(gltf.scene, car), (p) => {
    const [a, b] = [stored(clip, base.points.count, 3, p), stored(clip, base.points.count, 4, p)];
    return a.map((x, i) => x + (b[i] - x) / 4);
  }, "between frames 3 and 4");
});

Deno.test("three.js: a resampled clip shows its kept frames at their stored times and lasts as long", async () => {
  const base = animatedCar();
  const clip = animation("walk", 10, 9, base.points, 1);
  const car = { ...base, animations: [clip] };
  const gltf = await play(car, { max_frames: 3 });
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations[0]).play();
  assert.ok(Math.abs(gltf.animations[0].duration - 0.9) < 1e-6, "⌊1000·9/10⌋ ms");
  // Kept frames 0, 4, 8; fixture frames move linearly, so frame 2 is their blend too.
  for (const k of [0, 2, 4, 8]) {
    mixer.setTime(Math.min((k * 0.9) / 8, 0.9 - 1e-6));
    assertNear(pointsAt(gltf.scene, car), (p) => stored(clip, base.points.count, k, p), `frame ${k}`);
  }
});
