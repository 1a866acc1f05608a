/**
 * Fit confidence through `rig.fit_hinge`: a weak or failed fit is warned about by panel name with
 * its reasons and lands in the extras and the report; `strict: true` makes a failed fit an error.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { HingeFitFailedError } from "../../../nodes/rig/fit_hinge_run.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addAircraftMesh, sheet } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";

/** A straight aileron, a flap whose forward edge steps back halfway, one whose edge zig-zags. */
function scene() {
  const doc = newScene();
  const straight = sheet([0, 1, 2], [0, 0.1, 0.2], 0.5, { z0: 1 });
  addAircraftMesh(doc, "Aileron_L", straight.positions, straight.triangles);
  const stepped = sheet([0, 0.999, 1.001, 2], [0, 0, 0.2, 0.2], 0.5, { z0: -3 });
  addAircraftMesh(doc, "Flap_R", stepped.positions, stepped.triangles);
  const zigzag = sheet([0, 0.33, 0.67, 1, 1.33, 1.67, 2], [0, 0.45, 0.09, 0.63, 0.18, 0.36, 0.03], 0.9, {
    z0: 1,
    y: 2,
  });
  addAircraftMesh(doc, "Rudder_Trim_Flap", zigzag.positions, zigzag.triangles);
  return doc;
}

Deno.test("weak and failed fits are warned about by name, with reasons, in extras and report", async () => {
  const { report, ctx } = await rig(scene());
  const byName = new Map(report.parts.map((p) => [p.panel, p]));
  const confidence = (name: string) =>
    (byName.get(name)!.fit as unknown as { confidence: string }).confidence;
  assertEquals(confidence("Aileron_L"), "good");
  assertEquals(confidence("Flap_R"), "weak");
  assertEquals(confidence("Rudder_Trim_Flap"), "failed");
  const warnings = ctx.warnings.map((w) => w.message);
  const about = (name: string) =>
    warnings.filter((m) => m.includes(`'${name}'`) && m.includes("hinge fit is"));
  assertEquals(about("Aileron_L"), []);
  assert(/weak — the edge is straight along only 50 %/.test(about("Flap_R")[0]), about("Flap_R")[0]);
  assert(/failed — .*straight along only/.test(about("Rudder_Trim_Flap")[0]), about("Rudder_Trim_Flap")[0]);
  const reasons = (byName.get("Flap_R")!.fit as unknown as { reasons: string[] }).reasons;
  // Its other half is a second straight run as long as the first: which one it turns on, the edge
  // cannot tell (rig.fit_hinge v10 says so too).
  assert(reasons.length === 2 && reasons[0].includes("50 %"), JSON.stringify(reasons));
  assert(
    reasons[1].startsWith("its edge runs along a second straight line over 50 % of the span"),
    reasons[1],
  );
});

Deno.test("strict: a failed fit is an error naming the panel; weak fits still pass", async () => {
  const detected = (await runNode(rigDetectPanels, { scene: scene() })).scene;
  await rejects(
    runNode(rigFitHinge, { scene: detected }, { strict: true }, testContext()),
    (error: Error) => error instanceof HingeFitFailedError && error.message.includes("'Rudder_Trim_Flap'"),
  );
  const weakOnly = scene();
  weakOnly.getRoot().listNodes().find((n) => n.getName() === "Rudder_Trim_Flap")!.dispose();
  const ok = await runNode(rigFitHinge, {
    scene: (await runNode(rigDetectPanels, { scene: weakOnly })).scene,
  }, {
    strict: true,
  });
  assert(ok.scene);
});

/** Swept sheet ailerons, left and right mirror images; `horn` pushes the right's outer 55 % forward. */
function pair(horn: number, rightName = "Aileron_R") {
  const doc = newScene();
  const spans = [0, 0.9, 0.901, 2];
  const lead = (s: number) => 0.2 * s;
  const left = sheet(spans, spans.map(lead), 0.5, { z0: 1 });
  addAircraftMesh(doc, "Aileron_L", left.positions, left.triangles);
  // The right panel runs from z = −1 outward to z = −3: spans negated, so its sections go inboard-out.
  const right = sheet(spans.map((s) => -s), spans.map((s) => lead(s) - (s > 0.9 ? horn : 0)), 0.5, {
    z0: -1,
  });
  addAircraftMesh(doc, rightName, right.positions, right.triangles);
  return doc;
}

Deno.test("mirror partners: a right panel whose own fit disagrees takes the left's hinge, mirrored", async () => {
  for (const name of ["Aileron_R", "Aileron.001"]) { // paired by name, then by mirrored position
    const { report, ctx } = await rig(pair(0.15, name));
    const left = report.parts.find((p) => p.panel === "Aileron_L")!;
    const right = report.parts.find((p) => p.panel === name)!;
    const fit = right.fit as unknown as { mirrored_from?: string; reasons: string[]; confidence: string };
    assertEquals(fit.mirrored_from, "Aileron_L", name);
    assert(fit.reasons[0].startsWith("hinge mirrored from 'Aileron_L'"), fit.reasons[0]);
    assert(ctx.warnings.some((w) => w.message.includes(`'${name}'`) && w.message.includes("mirrored from")));
    // Truth: the right's real hinge is the left's mirrored (scene X is the aircraft's right).
    const [l, r] = [left.hinge!.world, right.hinge!.world];
    assert(
      Math.abs(Math.abs(l.axis[0] * -r.axis[0] + l.axis[1] * r.axis[1] + l.axis[2] * r.axis[2]) - 1) < 1e-9,
    );
    assert(Math.abs(l.origin[0] + r.origin[0]) < 1e-6 && Math.abs(l.origin[2] - r.origin[2]) < 1e-6);
  }
});

Deno.test("mirror partners that agree are left as fitted", async () => {
  const { report, ctx } = await rig(pair(0));
  for (const part of report.parts) {
    const fit = part.fit as unknown as { mirrored_from?: string; confidence: string };
    assertEquals([fit.mirrored_from, fit.confidence], [undefined, "good"]);
  }
  assertEquals(ctx.warnings.filter((w) => w.message.includes("mirror")), []);
});
