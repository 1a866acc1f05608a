/**
 * `forward`/`up: "auto"` finding the frame from the geometry: the demo fighter and random generated
 * aircraft (box fuselage, wing, tailplane, fin; named or not) turned into every perpendicular
 * forward × up pair, and Sketchbook's airplane (forward +Z, up +Y). The finder must give the true
 * frame or say it is unsure — never a wrong frame judged good.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { mat3, quat } from "gl-matrix";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { fighterTruth } from "../../../nodes/demo/fighter_truth.ts";
import { decodeGltf } from "../../../nodes/decode/gltf.ts";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { axisVector } from "../../../nodes/rig/frame.ts";
import { cross, type Quat, type Vec3 } from "../../../nodes/rig/transform.ts";
import { AXES, type Axis } from "../../../runtime/scene/source.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { runNode } from "../../support/context.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";
import { prng } from "../../support/prng.ts";
import { addGroup, newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";

/** Every perpendicular (forward, up) pair of scene axes. */
const FRAMES: [Axis, Axis][] = AXES.flatMap((f) =>
  AXES.filter((u) => u[1] !== f[1]).map((u): [Axis, Axis] => [f, u])
);

/** The rotation taking the design frame (−Z forward, +Y up) to `forward`/`up`. */
function rotationTo(forward: Axis, up: Axis): Quat {
  const z = axisVector(forward).map((v) => -v) as Vec3, y = axisVector(up), x = cross(y, z);
  const q = quat.fromMat3(quat.create(), mat3.fromValues(...x, ...y, ...z));
  return [...q].map((v) => Math.round(v * 1e6) / 1e6) as Quat;
}

/** Puts the scene's top-level nodes under one turned group and drops any recorded frame. */
function turn(doc: Document, forward: Axis, up: Axis): Document {
  const scene = doc.getRoot().getDefaultScene()!;
  const children = scene.listChildren();
  const group = addGroup(doc, undefined, "Turned", { rotation: rotationTo(forward, up) });
  for (const child of children) group.addChild(child);
  scene.setExtras({});
  return doc;
}

/** A box mesh node (8 corners, 12 triangles) centred at `centre`. */
function box(doc: Document, name: string, centre: Vec3, size: Vec3): void {
  const positions = new Float32Array(24);
  for (let i = 0; i < 8; i++) {
    for (let k = 0; k < 3; k++) positions[i * 3 + k] = centre[k] + ((i >> k) & 1 ? 0.5 : -0.5) * size[k];
  }
  const faces = [0, 1, 3, 2, 4, 6, 7, 5, 0, 4, 5, 1, 2, 3, 7, 6, 0, 2, 6, 4, 1, 5, 7, 3];
  const indices = new Uint32Array(36);
  for (let f = 0; f < 6; f++) {
    const [a, b, c, d] = faces.slice(f * 4, f * 4 + 4);
    indices.set([a, b, c, a, c, d], f * 6);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor(`${name}.p`, buffer).setType("VEC3").setArray(positions))
    .setIndices(doc.createAccessor(`${name}.i`, buffer).setType("SCALAR").setArray(indices));
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
  doc.getRoot().getDefaultScene()!.addChild(node);
}

/**
 * A random simple aircraft in the design frame (−Z forward, +Y up, left −X): box fuselage, wing
 * with ailerons, tailplane with elevators, fin with rudder. `named: false` names the parts
 * `Object_n`, so only the shape can tell.
 */
function simpleAircraft(seed: number, named: boolean): Document {
  const next = prng(seed);
  const between = (a: number, b: number) => a + (b - a) * next();
  const doc = newScene();
  let n = 0;
  const name = (real: string) => named ? real : `Object_${n++}`;
  const length = between(6, 14), width = between(0.8, 1.6);
  const span = between(0.8, 1.6) * length, wingZ = between(-0.25, 0.05) * length;
  const wingChord = between(0.12, 0.22) * length, wingY = between(-0.4, 0.4) * width;
  const tailSpan = between(0.25, 0.45) * span, tailChord = between(0.06, 0.1) * length;
  const tailZ = length / 2 - tailChord / 2, finHeight = between(1.2, 2.5) * width;
  box(doc, name("Fuselage"), [0, 0, 0], [width, width, length]);
  box(doc, name("Wing"), [0, wingY, wingZ], [span, 0.04 * length, wingChord]);
  for (const [side, x] of [["L", -1], ["R", 1]] as const) {
    box(doc, name(`Aileron_${side}`), [x * span * 0.35, wingY, wingZ + wingChord * 0.6], [
      span * 0.2,
      0.02 * length,
      wingChord * 0.2,
    ]);
    box(doc, name(`Elevator_${side}`), [x * tailSpan * 0.3, 0, tailZ + tailChord * 0.6], [
      tailSpan * 0.35,
      0.015 * length,
      tailChord * 0.25,
    ]);
  }
  box(doc, name("Tailplane"), [0, 0, tailZ], [tailSpan, 0.02 * length, tailChord]);
  box(doc, name("Fin"), [0, width / 2 + finHeight / 2, tailZ], [0.03 * length, finHeight, tailChord * 1.2]);
  box(doc, name("Rudder"), [0, width / 2 + finHeight / 2, tailZ + tailChord * 0.7], [
    0.02 * length,
    finHeight * 0.8,
    tailChord * 0.3,
  ]);
  return doc;
}

/** Asserts the finder gave the true frame, or said it is unsure: never wrong and judged good. */
function assertTrueOrUnsure(doc: Document, forward: Axis, up: Axis, what: string): "good" | "weak" {
  const found = detectFrame(doc);
  assert(found, `${what}: no frame found`);
  const right = found.forward === forward && found.up === up;
  assert(
    right || found.confidence === "weak",
    `${what}: found forward ${found.forward}, up ${found.up} (judged good), truth ${forward}/${up}\n` +
      found.reasons.join("\n"),
  );
  return right && found.confidence === "good" ? "good" : "weak";
}

const fighter = await runNode(demoFighter, {});

Deno.test("the demo fighter turned to every frame: found from the shape and names, judged good", () => {
  for (const [forward, up] of FRAMES) {
    const scene = turn(copyScene(fighter.scene), forward, up);
    const found = detectFrame(scene)!;
    assertEquals(
      [found.forward, found.up, found.confidence],
      [forward, up, "good"],
      `${forward}/${up}:\n${found.reasons.join("\n")}`,
    );
  }
});

Deno.test("simple aircraft, named or not, in every frame: the true frame or an unsure one", () => {
  let good = 0, total = 0;
  for (let seed = 1; seed <= 12; seed++) {
    for (const named of [true, false]) {
      for (const [forward, up] of FRAMES) {
        const result = assertTrueOrUnsure(
          turn(simpleAircraft(seed, named), forward, up),
          forward,
          up,
          `seed ${seed}`,
        );
        total++;
        if (result === "good") good++;
      }
    }
  }
  // The generated shapes are clear aircraft: nearly all are found and judged good.
  console.log(`MEASURE ${good} of ${total}`);
  assert(good >= 0.9 * total, `${good} of ${total} found and judged good`);
});

Deno.test("a shape with no aircraft cues (a cube) is reported unsure, never good", () => {
  const doc = newScene();
  box(doc, "Thing", [0, 0, 0], [1, 1, 1]);
  assertEquals(detectFrame(doc)?.confidence, "weak");
});

Deno.test('rig with "auto" on the turned fighter: the frame in the report, sides and sign as the truth', async () => {
  const truth = fighterTruth();
  for (const [forward, up] of [["+Z", "+Y"], ["+X", "+Z"], ["-Y", "-X"]] as [Axis, Axis][]) {
    const result = await rig(turn(copyScene(fighter.scene), forward, up), { forward: "auto", up: "auto" });
    assertEquals([result.report.frame.forward, result.report.frame.up], [forward, up]);
    assertEquals([result.report.frame.found_by, result.report.frame.confidence], ["geometry", "good"]);
    const sides = new Map(result.report.parts.map((p) => [p.panel, p.side]));
    for (const panel of truth.panels) assertEquals(sides.get(panel.name), panel.side, panel.name);
    assert(!result.ctx.warnings.some((w) => w.message.startsWith("frame:")), "no frame warning");
  }
});

const SKETCHBOOK = "aircraft/sketchbook_airplane.glb";

Deno.test({
  name: 'sketchbook airplane with "auto": forward +Z, up +Y found from the geometry',
  ignore: withoutCorpus(SKETCHBOOK),
  async fn() {
    const bytes = await Deno.readFile(corpusFile(SKETCHBOOK)!);
    const decoded = await runNode(decodeGltf, { bytes: { bytes, name: "sketchbook_airplane.glb" } });
    const found = detectFrame(decoded.scene)!;
    assertEquals([found.forward, found.up], ["+Z", "+Y"], found.reasons.join("\n"));
    const result = await rig(decoded.scene, { forward: "auto", up: "auto" });
    assertEquals([result.report.frame.forward, result.report.frame.up], ["+Z", "+Y"]);
    assertEquals(
      result.report.parts.map((p) => [p.panel, p.side]),
      [
        ["aileron_parent.L", "left"],
        ["aileron_parent.R", "right"],
        ["elevator_parent.L", "left"],
        ["elevator_parent.R", "right"],
        ["rudder_parent", "centre"],
      ],
    );
  },
});
