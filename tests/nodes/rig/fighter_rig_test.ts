/**
 * The rig on the built-in demo fighter, measured against its construction truth (`fighterTruth()`):
 * every panel found with the right kind and side, no decoy rigged, hinges within 0.5° and 1 % of
 * chord, panels kept in place, +10° moving each far edge the way its kind says — also with the
 * fighter turned to every frame real files use, rigged with `"auto"`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { fighterTruth, type PanelTruth } from "../../../nodes/demo/fighter_truth.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { dot, quatRotate, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import {
  axisErrorDegrees,
  distanceToLine,
  maxDisplacement,
  turnAttached,
  worldVertices,
} from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { FILE_FRAMES, rotationTo, turn } from "./turned.ts";

const truth = fighterTruth();
const source = (await runNode(demoFighter, {})).scene;
const rigged = await rig(source, { forward: "auto", up: "auto" });
const glb = await writeGlb(rigged.scene, { generator: GENERATOR });
const byPanel = new Map(rigged.report.parts.filter((p) => p.panel).map((p) => [p.panel!, p]));

// Default demo frame: −Z forward, +Y up, +X right.
const UP: Vec3 = [0, 1, 0];
const DOWN: Vec3 = [0, -1, 0];
const RIGHT: Vec3 = [1, 0, 0];

/** Which way +10° must move a panel's far edge, decided from the truth alone. */
function wantedMotion(panel: PanelTruth): Vec3 {
  switch (panel.kind) {
    case "rudder":
      return RIGHT;
    case "spoiler":
    case "air_brake": // the demo's brake is dorsal: open is up
      return UP;
    case "drag_rudder": {
      // Split halves open apart: away from the other half on the same fin.
      const partner = truth.panels.find((p) =>
        p.kind === "drag_rudder" && p.side === panel.side && p !== panel
      )!;
      return sub(panel.farEdge, partner.farEdge);
    }
    default: // trailing edges down; leading-edge flaps droop their leading edge
      return DOWN;
  }
}

Deno.test("demo fighter: every panel found with its kind and side, no decoy rigged", () => {
  const found = rigged.report.parts.filter((p) => p.found_by === "name").map((p) => p.panel).sort();
  assertEquals(found, truth.panels.map((p) => p.name).sort());
  const wrong = truth.panels.filter((t) =>
    byPanel.get(t.name)?.kind !== t.kind || byPanel.get(t.name)?.side !== t.side
  )
    .map((t) =>
      `${t.name}: ${byPanel.get(t.name)?.kind}/${byPanel.get(t.name)?.side}, want ${t.kind}/${t.side}`
    );
  assertEquals(wrong, []);
  const names = new Set(rigged.scene.getRoot().listNodes().map((n) => n.getName()));
  for (const decoy of truth.decoys) {
    assert(names.has(decoy), `decoy ${decoy} is in the scene`);
    assert(!names.has(`HINGE_auto_${decoy}`), `decoy ${decoy} rigged`);
  }
});

Deno.test("demo fighter: pre-rigged parts reported as declared, not re-rigged", () => {
  for (const name of truth.prerigged) {
    const part = rigged.report.parts.find((p) => p.name === name);
    assertEquals([part?.found_by, part?.ctrl_type], ["extras", "rotation"], name);
  }
  assertEquals(rigged.report.parts.length, truth.panels.length + truth.prerigged.length);
});

Deno.test("demo fighter: hinge axis within 0.5° and line within 1 % of chord for every panel", () => {
  const bad: string[] = [];
  for (const t of truth.panels) {
    const hinge = byPanel.get(t.name)!.hinge!.world;
    const degrees = axisErrorDegrees(hinge.axis, t.hingeAxis);
    const offset = distanceToLine(t.hingeOrigin, hinge.origin, hinge.axis) / t.chord;
    if (degrees > 0.5 || offset > 0.01) {
      bad.push(`${t.name}: ${degrees.toFixed(3)}°, ${(offset * 100).toFixed(2)} % chord`);
    }
  }
  assertEquals(bad, []);
});

Deno.test("demo fighter: panels keep their world pose, in memory and in the written file", async () => {
  const reread = await readGltf(glb);
  for (const t of truth.panels) {
    const before = worldVertices(nodeNamed(source, t.name));
    const inMemory = maxDisplacement(before, worldVertices(nodeNamed(rigged.scene, t.name)));
    const onDisk = maxDisplacement(before, worldVertices(nodeNamed(reread, t.name)));
    assert(inMemory < 1e-5 && onDisk < 1e-5, `${t.name} moved ${inMemory} / ${onDisk} m`);
  }
});

Deno.test("demo fighter: +10° on each pivot moves the far edge the way its kind says", () => {
  const bad: string[] = [];
  for (const t of truth.panels) {
    const pivot = nodeNamed(rigged.scene, `HINGE_auto_${t.name}`);
    const motion = sub(turnAttached(pivot, t.farEdge, 10), t.farEdge);
    const wanted = wantedMotion(t);
    const cos = dot(motion, wanted) / Math.hypot(...motion) / Math.hypot(...wanted);
    if (!(cos > 0.5)) bad.push(`${t.name} (${t.kind}): cos ${cos.toFixed(2)}`);
  }
  assertEquals(bad, []);
});

Deno.test("demo fighter: rigged GLB validates with 0 errors and is byte-identical across runs", async () => {
  const report = await validateGltf(glb);
  assertEquals(report.messages, []);
  assertEquals(report.errors, 0);
  const again = await rig((await runNode(demoFighter, {})).scene, { forward: "auto", up: "auto" });
  assertEquals(await writeGlb(again.scene, { generator: GENERATOR }), glb);
  assertEquals(again.report, rigged.report);
});

Deno.test("demo fighter: a wrong forward axis is warned about; the right one is not", async () => {
  const facing = (warnings: { message: string }[]) =>
    warnings.filter((w) => w.message.includes("faces the other way"));
  assertEquals(facing(rigged.ctx.warnings), []);
  const wrong = await rig((await runNode(demoFighter, {})).scene, { forward: "+Z" });
  assertEquals(facing(wrong.ctx.warnings).length, 1);
});

Deno.test('demo fighter turned to the eight file frames, rigged with "auto" and with the frame given: hinges, sides and signs hold', async () => {
  const bad: string[] = [];
  for (const [forward, up] of FILE_FRAMES) {
    const q = rotationTo(forward, up);
    const turned = turn(copyScene(source), forward, up);
    const auto = await rig(turned, { forward: "auto", up: "auto" });
    const given = await rig(turned, { forward, up });
    assertEquals([auto.report.frame.forward, auto.report.frame.up, auto.report.frame.confidence], [
      forward,
      up,
      "good",
    ]);
    // The frame found is the frame given: the same rig to the bit.
    assertEquals(auto.report.parts, given.report.parts, `${forward}/${up}`);
    const parts = new Map(auto.report.parts.filter((p) => p.panel).map((p) => [p.panel!, p]));
    for (const t of truth.panels) {
      const part = parts.get(t.name);
      const what = `${forward}/${up} ${t.name}`;
      if (!part || part.kind !== t.kind || part.side !== t.side) {
        bad.push(`${what}: found as ${part?.kind} ${part?.side}`);
        continue;
      }
      const hinge = part.hinge!.world;
      const degrees = axisErrorDegrees(hinge.axis, quatRotate(q, t.hingeAxis));
      const offset = distanceToLine(quatRotate(q, t.hingeOrigin), hinge.origin, hinge.axis) / t.chord;
      if (degrees > 0.5 || offset > 0.01) {
        bad.push(`${what}: ${degrees.toFixed(3)}°, ${(offset * 100).toFixed(2)} %`);
      }
      // +10° moves the far edge the kind's way (a rudder's to starboard) in this frame too.
      const farEdge = quatRotate(q, t.farEdge), wanted = quatRotate(q, wantedMotion(t));
      const motion = sub(turnAttached(nodeNamed(auto.scene, `HINGE_auto_${t.name}`), farEdge, 10), farEdge);
      const cos = dot(motion, wanted) / Math.hypot(...motion) / Math.hypot(...wanted);
      if (!(cos > 0.5)) bad.push(`${what} (${t.kind}): +10° moves its far edge at cos ${cos.toFixed(2)}`);
    }
  }
  assertEquals(bad, []);
});
