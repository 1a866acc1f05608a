/**
 * A compound's animation scripts become glTF animations that three.js plays as Freelancer composes
 * its joints — revolute `T(t)·Q(axis, θ)·R`, prismatic `T(t + axis·d)·R`, sphere `T(t)·q·R`, each
 * key linear, computed here from the constraint records with gl-matrix and nothing of the decoder —
 * with explicit and fixed-interval key times, full and both compressed quaternion forms, and a value
 * past the joint's limit kept as the file has it. Maps the game's data does not settle, or that do
 * not fit their joint, are skipped with a warning naming the script and the part.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { AnimationChannel, Document } from "@gltf-transform/core";
import { mat4, quat, vec3 } from "gl-matrix";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { animationTree } from "../../../support/freelancer/encode_model.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { describeScene } from "../../../../runtime/inspect.ts";
import { buildCompound, CONSTRAINTS } from "./fixtures.ts";
import { PACKED_TURN, RADAR_TURN, SCALED_TURN, SCRIPTS } from "./scripts.ts";
import { heldOut } from "../../../support/heldout.ts";

/** The rows of R (p_parent = R·p_child + t) as a gl-matrix column-major rotation. */
function fromRows(rows: readonly number[]): mat4 {
  const m = mat4.create();
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[c * 4 + r] = rows[r * 3 + c];
  return m;
}

/** A channel's value at `time`: linear between keys, held before the first and after the last. */
function sample(times: readonly number[], values: readonly number[], time: number): number {
  if (time <= times[0]) return values[0];
  for (let i = 1; i < times.length; i++) {
    if (time <= times[i]) {
      const f = (time - times[i - 1]) / (times[i] - times[i - 1]);
      return values[i - 1] + f * (values[i] - values[i - 1]);
    }
  }
  return values[values.length - 1];
}

/** Freelancer's local transform of a joint's child at `time` of `script` (rest where it is not driven). */
function freelancerLocal(child: string, script: string, time: number): mat4 {
  const record = CONSTRAINTS.find((c) => c.child.toLowerCase() === child.toLowerCase())!;
  const t = vec3.fromValues(...(record.translation as [number, number, number]));
  const r = fromRows(record.rotation);
  const map = SCRIPTS[script].find((m) => m.child?.toLowerCase() === child.toLowerCase());
  const translate = (v: vec3) => mat4.fromTranslation(mat4.create(), v);
  if (!map) return mat4.multiply(mat4.create(), translate(t), r);
  const times = map.keys.map((k, i) => k.time ?? i * map.interval);
  const axis = vec3.fromValues(...(record.axis as [number, number, number] ?? [1, 0, 0]));
  if (record.kind === "rev") {
    const turn = mat4.fromRotation(mat4.create(), sample(times, map.keys.map((k) => k.angle!), time), axis);
    return mat4.multiply(mat4.create(), mat4.multiply(mat4.create(), translate(t), turn), r);
  }
  if (record.kind === "pris") {
    const d = sample(times, map.keys.map((k) => k.angle!), time);
    return mat4.multiply(mat4.create(), translate(vec3.scaleAndAdd(vec3.create(), t, axis, d)), r);
  }
  // Sphere: the rotation slerped between keys (glTF's linear rotation), on the left of R.
  const wanted: Record<string, quat[]> = {
    Sc_open: [quat.create(), RADAR_TURN],
    Sc_packed: [quat.create(), PACKED_TURN],
    Sc_scaled: [quat.create(), SCALED_TURN],
  };
  const [q0, q1] = wanted[script];
  const q = quat.slerp(quat.create(), q0, q1, Math.min(1, Math.max(0, time / times[1])));
  return mat4.multiply(
    mat4.create(),
    mat4.multiply(mat4.create(), translate(t), mat4.fromQuat(mat4.create(), q)),
    r,
  );
}

async function loadInThree(glb: Uint8Array) {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return await new Promise<{ scene: THREE.Object3D; animations: THREE.AnimationClip[] }>((resolve, reject) =>
    new GLTFLoader().parse(buffer, "", resolve, reject)
  );
}

/** `bytes` through `decode.cmp` (no libraries) and `constraints.resolve`: the resolved scene. */
async function resolvedScene(bytes: Uint8Array, name: string, ctx = testContext()): Promise<Document> {
  const decoded = await runNode(decodeCmp, { bytes: { bytes, name } }, { libraries: "none" }, ctx);
  return (await runNode(constraintsResolve, { scene: decoded.scene }, {}, ctx)).scene;
}

/** Plays every clip of `glb` in three.js: how far the parts get from Freelancer's composition. */
async function playedOffGame(glb: Uint8Array) {
  const gltf = await loadInThree(glb);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const world = (name: string) => gltf.scene.getObjectByName(name)!.matrixWorld.elements;
  let worst = 0, compared = 0;
  for (const clip of gltf.animations) {
    mixer.stopAllAction();
    // Played once and held at its end, as the game leaves a finished script.
    mixer.clipAction(clip).setLoop(THREE.LoopOnce, 1).play().clampWhenFinished = true;
    for (let time = 0; time <= clip.duration + 1e-9; time += clip.duration / 16) {
      mixer.setTime(time);
      gltf.scene.updateMatrixWorld(true);
      const turret = freelancerLocal("TURRET", clip.name, time);
      const expected: Record<string, mat4> = {
        Turret: turret,
        Barrel: mat4.multiply(mat4.create(), turret, freelancerLocal("Barrel", clip.name, time)),
        Radar: freelancerLocal("Radar", clip.name, time),
      };
      for (const [name, want] of Object.entries(expected)) {
        world(name).forEach((v, k) => worst = Math.max(worst, Math.abs(v - want[k])));
        compared++;
      }
    }
  }
  return { clips: gltf.animations.map((a) => a.name), worst, compared };
}

Deno.test("Freelancer animation scripts play in three.js as the game composes its joints", async () => {
  const { bytes } = buildCompound({ extra: [animationTree(SCRIPTS)] });
  const ctx = testContext();
  const scene = await resolvedScene(bytes, "animated.cmp", ctx);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const { clips, worst, compared } = await playedOffGame(glb);
  assertEquals(clips, ["Sc_open", "Sc_packed", "Sc_scaled"]);
  assert(compared === 3 * 3 * 17, `${compared} poses compared`);
  assert(worst < 2e-4, `a part is ${worst} off Freelancer's composition`);
  // inspect lists each clip: channels, and how long it runs.
  assertEquals(describeScene(scene).animations, [
    { name: "Sc_open", channels: 3, seconds: 2 },
    { name: "Sc_packed", channels: 1, seconds: 1 },
    { name: "Sc_scaled", channels: 1, seconds: 1 },
  ]);
  // The raw keys do not travel into the output once played.
  assertEquals(
    (scene.getRoot().getDefaultScene()!.getExtras().partgraph as { animations?: unknown } | undefined)
      ?.animations,
    undefined,
  );
  const report = await validateGltf(glb);
  assertEquals(report.messages, []);
  // Every map it could not convert is named, once.
  const skipped = ctx.warnings.map((w) => w.message).filter((m) => m.startsWith("animation 'Sc_unsettled'"));
  for (
    const part of [
      "Piston': cylinder joints",
      "Cargo': loose joints",
      "Wing': a fix joint",
      "Root': object maps",
      "Nothing': no joint joins",
      "TURRET': a rev joint takes angle keys",
    ]
  ) {
    assertEquals(skipped.filter((m) => m.includes(`map of '${part}`)).length, 1, part);
  }
  for (const why of ["Frames of 5 keys", "a time after 1 s", "an event stream"]) {
    assertEquals(skipped.filter((m) => m.includes(why) && m.endsWith("skipped")).length, 1, why);
  }
  assertEquals(skipped.length, 9);
});

Deno.test("pivots: false plays the scripts on the parts themselves, as the game composes its joints", async () => {
  const { bytes } = buildCompound({ extra: [animationTree(SCRIPTS)] });
  const ctx = testContext();
  const decoded = await runNode(
    decodeCmp,
    { bytes: { bytes, name: "animated.cmp" } },
    { libraries: "none" },
    ctx,
  );
  const scene = (await runNode(constraintsResolve, { scene: decoded.scene }, { pivots: false }, ctx))
    .scene as Document;
  assert(!scene.getRoot().listNodes().some((n) => /_joint(_[xyz])?$|_slide$/.test(n.getName())));
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  // Before (resolver v18 as first written): no animation at all without pivots.
  const { clips, worst, compared } = await playedOffGame(glb);
  assertEquals(clips, ["Sc_open", "Sc_packed", "Sc_scaled"]);
  assert(compared === 3 * 3 * 17, `${compared} poses compared`);
  assert(worst < 2e-4, `a part is ${worst} off Freelancer's composition`);
  // Each channel drives a part by name: what LancerEdit's importer maps back to a joint.
  const targets = scene.getRoot().listAnimations().flatMap((a) =>
    a.listChannels().map((c) => c.getTargetNode()!.getName())
  );
  assertEquals([...new Set(targets)].sort(), ["Barrel", "Radar", "Turret"]);
  assertEquals((await validateGltf(glb)).messages, []);
});

Deno.test("a compound without scripts gets no animation and no animation extras", async () => {
  const { bytes } = buildCompound();
  const decoded = await runNode(decodeCmp, { bytes: { bytes, name: "plain.cmp" } }, { libraries: "none" });
  assertEquals(decoded.scene.getRoot().getDefaultScene()!.getExtras().partgraph?.animations, undefined);
  const resolved = await runNode(constraintsResolve, { scene: decoded.scene }, {});
  assertEquals(resolved.scene.getRoot().listAnimations(), []);
});

Deno.test("damaged scripts: every 32-bit word of the file set to 0xFFFFFFFF or NaN decodes or is a DecodeError, and any clip is sound", async () => {
  const { bytes } = buildCompound({
    constraints: CONSTRAINTS.filter((c) => ["TURRET", "Barrel", "Radar"].includes(c.child)),
    extra: [animationTree({ Sc_open: SCRIPTS.Sc_open, Sc_packed: SCRIPTS.Sc_packed })],
  });
  let clips = 0, errors = 0;
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    // Both words are a NaN as a float and a count past any file as an integer: the suite sets each word
    // to one of them in turn, `deno task heldout` to both.
    for (const word of heldOut([0xffffffff, 0x7fc00000], (_, i) => i === (at / 4) % 2)) {
      const damaged = bytes.slice();
      new DataView(damaged.buffer).setUint32(at, word, true);
      let scene;
      try {
        // As in a graph, constraints.resolve owns the scene the decode handed it (and works on it,
        // not on a copy): the path a user's run takes, and a third of each case's time.
        const owning = testContext();
        owning.owns = () => true;
        scene = await resolvedScene(damaged, "d.cmp", owning);
      } catch (error) {
        assert(error instanceof DecodeError, `word at ${at}: ${error}`);
        errors++;
        continue;
      }
      for (const animation of scene.getRoot().listAnimations()) {
        for (const sampler of animation.listSamplers()) {
          const times = [...sampler.getInput()!.getArray()!], values = [...sampler.getOutput()!.getArray()!];
          assert(times.every((t, i) => Number.isFinite(t) && (i === 0 || t > times[i - 1])), `word at ${at}`);
          assert(values.every(Number.isFinite), `word at ${at}: finite outputs`);
        }
        clips++;
      }
    }
  }
  assert(clips > 100 && errors > 100, `${clips} clips, ${errors} errors`);
});

Deno.test("a script with two maps on one joint keeps the later one, as the game applies them in order, and says so", async () => {
  const turret = (angle: number) => ({
    parent: "Root",
    child: "Turret",
    type: 0x01,
    interval: 1,
    keys: [{ angle: 0 }, { angle }],
  });
  const { bytes } = buildCompound({
    constraints: CONSTRAINTS.filter((c) => ["TURRET", "Barrel"].includes(c.child)),
    extra: [animationTree({ Sc_twice: [turret(1), SCRIPTS.Sc_open[1], turret(-0.5)] })],
  });
  const ctx = testContext();
  const scene = await resolvedScene(bytes, "twice.cmp", ctx);
  const [animation] = scene.getRoot().listAnimations();
  const targets = animation.listChannels().map((c: AnimationChannel) => c.getTargetNode()!.getName());
  assertEquals(targets.length, 2, "Turret once, Barrel once");
  assertEquals(new Set(targets).size, 2);
  // The Turret's last key is the later map's -0.5 rad about the joint's axis.
  // The Turret is the one revolute joint here (the Barrel slides).
  const turretChannel = animation.listChannels().find((c: AnimationChannel) =>
    c.getTargetPath() === "rotation"
  )!;
  const rotations = turretChannel.getSampler()!.getOutput()!.getArray()!;
  const first = quat.fromValues(rotations[0], rotations[1], rotations[2], rotations[3]);
  const lastKey = quat.fromValues(rotations[4], rotations[5], rotations[6], rotations[7]);
  const angle = quat.getAngle(first, lastKey);
  assert(Math.abs(angle - 0.5) < 1e-5, `turned ${angle} rad between the keys, not 0.5`);
  const skipped = ctx.warnings.map((w) => w.message).filter((m) =>
    m.includes("a later map of the script drives the same joint")
  );
  assertEquals(skipped.length, 1);
  assert(skipped[0].includes("'Sc_twice'") && skipped[0].includes("'Turret'"), skipped[0]);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  assertEquals((await validateGltf(glb)).errors, 0);
});
