/**
 * A part that slides, under a mirroring ancestor: `rig.insert_pivot` and `rig.report` give the axis it
 * moves along as drawn. A mirror flips a turn's sense (a positive local angle is a negative world one),
 * not a slide's: before, a declared `ctrl_type: translation` part under a group scaled −1 reported the
 * opposite of the way it slides.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { runNode } from "../../support/context.ts";
import { addGroup, newScene, worldVertices } from "./fixtures.ts";
import { prng } from "../../support/prng.ts";
import { gliderSample } from "./glider_brakes.ts";
import { nodeNamed, type ReportPart, rig } from "./pipeline.ts";

Deno.test("a declared slide under a mirrored group reports the way it slides", async () => {
  const doc = newScene();
  const group = addGroup(doc, undefined, "Gear_R", { scale: [-1, 1, 1], translation: [2, 0, 0] });
  const strut = doc.createNode("Oleo_R").setExtras({ ctrl_type: "translation", min: 0, max: 0.3 });
  group.addChild(strut);
  const frame = { forward: "-Z", up: "+Y" };
  const parts = (await runNode(rigParts, { scene: doc })).scene;
  const report = (await runNode(rigReport, { scene: parts }, frame)).report;
  const part = (report.parts as ReportPart[]).find((p) => p.name === "Oleo_R")!;
  // +1 along its local X moves it to world −X, under the group's −1 scale.
  assertEquals([part.ctrl_type, part.hinge!.world.axis], ["translation", [-1, 0, 0]]);
});

Deno.test("a glider's airbrake under a mirrored wing group slides up, as reported", async () => {
  const sample = gliderSample(prng(11), 0);
  const scene = sample.scene;
  const [left, right] = sample.brakes.filter((b) => b.truth.motion === "slide");
  // The right brake drawn as the left one's mesh under a group scaled −1 across the span.
  const l = nodeNamed(scene, left.name), r = nodeNamed(scene, right.name);
  const wing = addGroup(scene, undefined, "Wing_R_mirror", { scale: [-1, 1, 1] });
  const mirrored = scene.createNode(right.name).setMesh(l.getMesh()).setTranslation(l.getTranslation());
  wing.addChild(mirrored);
  r.dispose();
  const { report, scene: rigged } = await rig(scene);
  const part = report.parts.find((p) => p.panel === right.name)!;
  assertEquals(part.ctrl_type, "translation");
  assert(part.hinge!.world.axis[1] > 0.99, JSON.stringify(part.hinge));
  // Sliding its pivot by its travel moves the blade up in the world.
  const pivot = nodeNamed(rigged, part.name), panel = nodeNamed(rigged, right.name);
  const before = worldVertices(panel), t = pivot.getTranslation(), q = pivot.getRotation();
  const x = [
    1 - 2 * (q[1] * q[1] + q[2] * q[2]),
    2 * (q[0] * q[1] + q[2] * q[3]),
    2 * (q[0] * q[2] - q[1] * q[3]),
  ];
  const d = part.max!;
  pivot.setTranslation([t[0] + x[0] * d, t[1] + x[1] * d, t[2] + x[2] * d]);
  const after = worldVertices(panel);
  assert(after[1] - before[1] > 0.99 * d, `moved ${after[1] - before[1]} up of ${d}`);
});
