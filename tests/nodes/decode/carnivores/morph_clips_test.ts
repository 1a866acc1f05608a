/**
 * `.car` clips as morph targets: one glTF animation per clip, keyframes where the game puts them
 * (`AniTime = ⌊1000·F/KPS⌋` ms, frame k at `k·AniTime/(F−1)`), and sampling at frame k gives back
 * the stored absolute positions (÷16, mapped to glTF axes) — between frames, their linear blend.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import type { CarModel } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animatedCar, animation, framePosition, gridCar } from "./fixtures.ts";
import { faceCorners, modelNode, morphedPosition, near, summaryOf, weightsAt } from "./probe.ts";

const SCALE = 0.1;

async function decode(car: CarModel, interpolation = "linear") {
  const ctx = testContext();
  const bytes = { bytes: encodeCar(car), name: "boxes.car" };
  const { scene } = await runNode(decodeCar, { bytes }, { scale: SCALE, interpolation }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** Where the game shows point `p` at frame `k` of clip `c`, in glTF axes. */
function expectedAt(car: CarModel, c: number, k: number, p: number): number[] {
  const base = Array.from(car.points.positions.subarray(p * 3, p * 3 + 3));
  const [x, y, z] = framePosition(base, p, c, k);
  return [SCALE * x / 16, SCALE * y / 16, -SCALE * z / 16];
}

/** Checks every face corner of the mesh against `expected(point)` for the given weights. */
function assertPose(
  scene: Document,
  car: CarModel,
  weights: number[],
  expected: (p: number) => number[],
  what: string,
) {
  const mesh = modelNode(scene).getMesh()!;
  for (let f = 0; f < car.faces.count; f++) {
    faceCorners(mesh, f).forEach((corner, k) => {
      const p = car.faces.indices[f * 3 + k];
      near(
        morphedPosition(corner.primitive, corner.vertex, weights),
        expected(p),
        2e-5,
        `${what} point ${p}`,
      );
    });
  }
}

Deno.test("one animation per clip, keyframes timed like the game, frame k reproduces the stored frame", async () => {
  const car = animatedCar();
  const { scene, warnings } = await decode(car);
  assert.deepEqual(warnings, []);
  const animations = scene.getRoot().listAnimations();
  assert.deepEqual(animations.map((a) => a.getName()), ["walk", "idle"]);
  const mesh = modelNode(scene).getMesh()!;
  const frameNames = [
    ...Array.from({ length: 5 }, (_, k) => `walk[${k}]`),
    ...Array.from({ length: 3 }, (_, k) => `idle[${k}]`),
  ];
  assert.deepEqual(mesh.getExtras().targetNames, frameNames);
  // The targets carry the names too: glTF-Transform's writer takes targetNames from them.
  for (const primitive of mesh.listPrimitives()) {
    assert.deepEqual(primitive.listTargets().map((t) => t.getName()), frameNames);
  }
  assert.deepEqual(mesh.getWeights(), new Array(8).fill(0));

  car.animations.forEach((clip, c) => {
    const aniTimeMs = Math.floor((clip.frameCount * 1000) / clip.kps); // walk 500, idle 428
    const times = Array.from(
      { length: clip.frameCount },
      (_, k) => (k * aniTimeMs) / (clip.frameCount - 1) / 1000,
    );
    const sampler = animations[c].listSamplers()[0];
    assert.equal(sampler.getInterpolation(), "LINEAR");
    near(Array.from(sampler.getInput()!.getArray()!), times, 1e-6, `clip ${c} keyframe times`);
    assert.equal(animations[c].listChannels()[0].getTargetPath(), "weights");
    assert.equal(animations[c].listChannels()[0].getTargetNode(), modelNode(scene));
    times.forEach((t, k) => {
      assertPose(
        scene,
        car,
        weightsAt(animations[c], t),
        (p) => expectedAt(car, c, k, p),
        `clip ${c} frame ${k}`,
      );
    });
    // A third of the way from frame 1 to frame 2: the game blends linearly.
    const t = times[1] + (times[2] - times[1]) / 3;
    assertPose(scene, car, weightsAt(animations[c], t), (p) => {
      const [a, b] = [expectedAt(car, c, 1, p), expectedAt(car, c, 2, p)];
      return a.map((v, i) => v + (b[i] - v) / 3);
    }, `clip ${c} between frames`);
  });
  const summary = summaryOf(scene);
  assert.deepEqual(summary.animations.map((a: { sound: number | null }) => a.sound), [null, 0]);
  assert.deepEqual(summary.animations.map((a: { duration: number }) => a.duration), [0.5, 0.428]);
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("step interpolation holds each frame until the next keyframe", async () => {
  const car = animatedCar();
  const { scene } = await decode(car, "step");
  const [walk] = scene.getRoot().listAnimations();
  assert.equal(walk.listSamplers()[0].getInterpolation(), "STEP");
  assertPose(
    scene,
    car,
    weightsAt(walk, 0.2),
    (p) => expectedAt(car, 0, 1, p),
    "step between frames 1 and 2",
  );
});

Deno.test("empty clips are skipped with a warning, one-frame clips are held for AniTime, names are kept", async () => {
  const car = animatedCar();
  const clips = [
    { name: "gone", kps: 10, frameCount: 0, positions: new Int16Array(0) },
    animation("walk", 12, 1, car.points, 0),
    animation("walk", 5, 2, car.points, 1),
  ];
  const { scene, warnings } = await decode({ ...car, animations: clips });
  assert.deepEqual(warnings, ["animation 'gone' has no frames; it is skipped"]);
  const animations = scene.getRoot().listAnimations();
  assert.deepEqual(animations.map((a) => a.getName()), ["walk", "walk"]);
  assert.deepEqual(modelNode(scene).getMesh()!.getExtras().targetNames, [
    "walk[0]",
    "walk#2[0]",
    "walk#2[1]",
  ]);
  // One frame is held for the game's AniTime = ⌊1000 / 12⌋ ms.
  assert.deepEqual(Array.from(animations[0].listSamplers()[0].getInput()!.getArray()!), [
    0,
    Math.fround(0.083),
  ]);
  assertPose(scene, car, weightsAt(animations[0], 0), (p) => expectedAt(car, 0, 0, p), "one-frame clip");
  assertPose(scene, car, weightsAt(animations[1], 0.4), (p) => expectedAt(car, 1, 1, p), "renamed clip");
  assert.deepEqual(summaryOf(scene).animations.map((a: { first_target: number }) => a.first_target), [
    -1,
    0,
    1,
  ]);
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("a .car of real-game size (52–169-frame clips, several sounds, the 256-byte table) validates", async () => {
  // Measured on real files: clips of 52–169 frames, several sounds each, the table always present.
  const grid = gridCar(22, 22, 0); // 484 points, 882 faces: inside the engine limit of 1024
  const frames = [52, 169, 80, 120, 64];
  const car: CarModel = {
    ...grid,
    animations: frames.map((n, c) => animation(c === 4 ? "Walk" : `clip${c}`, 10 + c, n, grid.points, c)),
    sounds: [0, 1, 2].map((s) => ({ name: `roar${s}`, pcm: new Uint8Array(11025 * 2 + s) })),
    animSounds: Int32Array.from({ length: 64 }, (_, i) => (i < 3 ? i : -1)),
  };
  const { scene, warnings } = await decode(car);
  assert.deepEqual(warnings, [], "inside the engine's limits: no warnings");
  const mesh = modelNode(scene).getMesh()!;
  assert.equal(mesh.getWeights().length, frames.reduce((a, b) => a + b, 0), "one morph target per frame");
  assert.equal(scene.getRoot().listAnimations().length, frames.length);
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("identical frames share one morph target — a held pose, a loop's closing frame, a pose two clips share — and play as stored", async () => {
  const base = animatedCar();
  const values = base.points.count * 3;
  // walk: frames 0,1,1,2,0 (a held pose and a loop back to frame 0); idle: its frame 1 is walk's frame 2.
  const walk = animation("walk", 10, 3, base.points, 0);
  const idle = animation("idle", 7, 3, base.points, 1);
  const frameOf = (clip: typeof walk, k: number) => clip.positions.subarray(k * values, (k + 1) * values);
  const walkFrames = [0, 1, 1, 2, 0].map((k) => frameOf(walk, k));
  const looped = {
    ...walk,
    frameCount: 5,
    positions: Int16Array.from(walkFrames.flatMap((f) => Array.from(f))),
  };
  const idleFrames = [frameOf(idle, 0), frameOf(walk, 2), frameOf(idle, 2)];
  const shared = { ...idle, positions: Int16Array.from(idleFrames.flatMap((f) => Array.from(f))) };
  const car = { ...base, animations: [looped, shared] };
  const { scene, warnings } = await decode(car);
  assert.deepEqual(warnings, []);
  const mesh = modelNode(scene).getMesh()!;
  assert.deepEqual(mesh.getExtras().targetNames, ["walk[0]", "walk[1]", "walk[3]", "idle[0]", "idle[2]"]);
  assert.equal(mesh.listPrimitives()[0].listTargets().length, 5, "5 targets for 8 frames");
  const clips = summaryOf(scene).animations;
  assert.deepEqual(clips.map((c: { targets: number[] }) => c.targets), [[0, 1, 1, 2, 0], [3, 2, 4]]);
  assert.equal(summaryOf(scene).morph_targets, 5);
  // Every keyframe shows its stored frame, and between the held frames nothing moves.
  const stored = [walkFrames, idleFrames];
  scene.getRoot().listAnimations().forEach((anim, c) => {
    const times = anim.listSamplers()[0].getInput()!.getArray()!;
    assert.equal(times.length, car.animations[c].frameCount, "one keyframe per stored frame");
    const at = (t: number, k: number, what: string) =>
      assertPose(scene, car, weightsAt(anim, t), (p) => {
        const f = stored[c][k];
        return [SCALE * f[p * 3] / 16, SCALE * f[p * 3 + 1] / 16, -SCALE * f[p * 3 + 2] / 16];
      }, what);
    times.forEach((t, k) => at(t, k, `clip ${c} frame ${k}`));
    if (c === 0) at((times[1] + times[2]) / 2, 1, "held between frames 1 and 2");
  });
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("clips past max_frames in all are resampled to their share, first and last frames kept, each at its stored time", async () => {
  const grid = gridCar(2, 2, 0); // 4 points, 2 faces
  const car: CarModel = {
    ...grid,
    animations: [
      animation("idle", 10, 9, grid.points, 0),
      animation("long", 20, 5000, grid.points, 1),
      animation("walk", 10, 4087, grid.points, 2),
      animation("run", 10, 5, grid.points, 3),
    ],
  };
  const { scene, warnings } = await decode(car);
  // 9101 frames for a budget of 4096: each clip keeps ⌊F·4096/9101⌋ (at least 2) evenly spaced frames.
  assert.deepEqual(warnings, [
    "4 clip(s) resampled to fit 4096 frames in all (glTF viewers hold frames × morph targets animation " +
    "weights; the game's linear blend runs between the kept frames, each at its own time): " +
    "0 'idle' (4 of 9 frames), 1 'long' (2250 of 5000 frames), 2 'walk' (1839 of 4087 frames), " +
    "3 'run' (2 of 5 frames)",
  ]);
  const mesh = modelNode(scene).getMesh()!;
  assert.equal(mesh.getWeights().length, 4 + 2250 + 1839 + 2);
  assert.deepEqual(scene.getRoot().listAnimations().map((a) => a.getName()), ["idle", "long", "walk", "run"]);
  const clips = summaryOf(scene).animations;
  assert.deepEqual(clips[0].keyframes, [0, 3, 5, 8]);
  assert.deepEqual(clips[3].keyframes, [0, 4]);
  assert.equal(clips[2].keyframes.length, 1839);
  assert.deepEqual([clips[2].keyframes[0], clips[2].keyframes[1838]], [0, 4086]);
  // A kept frame sits at its stored time and shows its stored positions; the clip lasts as long.
  const walk = scene.getRoot().listAnimations()[2];
  const times = walk.listSamplers()[0].getInput()!.getArray()!;
  const aniTime = Math.floor((4087 * 1000) / 10) / 1000;
  const k = clips[2].keyframes[100];
  near([times[100]], [(k * aniTime) / 4086], 1e-4, "time of kept frame");
  near([times[times.length - 1]], [aniTime], 1e-4, "clip length");
  assertPose(scene, car, weightsAt(walk, times[100]), (p) => expectedAt(car, 2, k, p), `walk frame ${k}`);
  // (Frame 4086's x is past int16 and wraps in the file: compare with what is stored.)
  const stored = car.animations[2].positions.subarray(4086 * 12, 4087 * 12);
  assertPose(scene, car, weightsAt(walk, times[1838]), (p) => {
    return [SCALE * stored[p * 3] / 16, SCALE * stored[p * 3 + 1] / 16, -SCALE * stored[p * 3 + 2] / 16];
  }, "walk last frame");
});

Deno.test("max_frames: a lower budget resamples; clips that cannot keep two frames get none, with a warning", async () => {
  const car = animatedCar(); // walk 5 frames, idle 3 frames
  const ctx = testContext();
  const bytes = { bytes: encodeCar(car), name: "boxes.car" };
  const { scene } = await runNode(decodeCar, { bytes }, { scale: SCALE, max_frames: 4 }, ctx);
  const doc = scene as Document;
  // walk keeps ⌊5·4/8⌋ = 2 frames, idle ⌊3·4/8⌋ → 2: both fit exactly.
  assert.deepEqual(summaryOf(doc).animations.map((c: { keyframes: number[] }) => c.keyframes), [[0, 4], [
    0,
    2,
  ]]);
  assert.equal(modelNode(doc).getMesh()!.getWeights().length, 4);
  assert.match(ctx.warnings[0].message, /2 clip\(s\) resampled to fit 4 frames in all/);
  const walk = doc.getRoot().listAnimations()[0];
  // Halfway through, the linear blend of the kept frames 0 and 4 is stored frame 2 (walk moves linearly).
  assertPose(doc, car, weightsAt(walk, 0.25), (p) => expectedAt(car, 0, 2, p), "walk halfway");

  const tight = testContext();
  const three = { ...car, animations: [...car.animations, animation("run", 10, 6, car.points, 2)] };
  const { scene: out } = await runNode(decodeCar, { bytes: { bytes: encodeCar(three), name: "b.car" } }, {
    max_frames: 4,
  }, tight);
  assert.deepEqual((out as Document).getRoot().listAnimations().map((a) => a.getName()), ["walk", "idle"]);
  assert.equal(
    tight.warnings[1].message,
    "1 clip(s) do not fit 4 frames in all even at two frames each; they get no morph targets or animation, " +
      "their entries stay in the extras: 2 'run' (6 frames)",
  );
  assert.equal(summaryOf(out as Document).animations[2].first_target, -1);
});
