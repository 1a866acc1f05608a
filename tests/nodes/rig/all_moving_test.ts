/**
 * All-moving tails found by geometry: an elevator with a fixed stabiliser ahead hinges on its
 * forward edge; the same elevator with nothing ahead of it (its planform reaching the fuselage) is
 * the whole tail and pivots at quarter chord on a shaft square to the plane of symmetry. The same for
 * a rudder with and without a fixed fin ahead (an all-moving fin turns on an upright shaft).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { addAircraftMesh, sheet } from "./coarse_panels.ts";
import { axisErrorDegrees, distanceToLine, newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";
import { rotatePointAboutAxis } from "../../../nodes/rig/transform.ts";

/** A closed box from `min` to `max`, aircraft coordinates. */
function box(min: number[], max: number[]) {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}

/** Fuselage, a swept elevator on the left (sections every 0.5 m), and optionally a stabiliser ahead. */
async function tail(withStabiliser: boolean) {
  const doc = newScene();
  const body = box([-4, -0.4, -0.4], [6, 0.4, 0.4]);
  addAircraftMesh(doc, "Fuselage", body.positions, body.triangles);
  const spans = [0, 0.5, 1, 1.5, 2];
  const lead = spans.map((s) => 4 + 0.5 * s);
  const elevator = sheet(spans, lead, 0.8, { z0: 0.4 });
  addAircraftMesh(doc, "Elevator_L", elevator.positions, elevator.triangles);
  if (withStabiliser) {
    const fixed = sheet(spans, lead.map((x) => x - 1), 1, { z0: 0.4 });
    addAircraftMesh(doc, "TailFixed_L", fixed.positions, fixed.triangles);
  }
  const result = await rig(doc);
  return result.report.parts.find((p) => p.panel === "Elevator_L")!;
}

Deno.test("an elevator behind a fixed stabiliser hinges on its swept forward edge", async () => {
  const part = await tail(true);
  const fit = part.fit as unknown as { rule: string };
  assertEquals(fit.rule, "forward_edge");
  // Forward edge from (aft 4, left 0.4) to (5, 2.4): world −X is left, +Z aft.
  const axis = [-2, 0, 1];
  assert(axisErrorDegrees(part.hinge!.world.axis, [axis[0], axis[1], axis[2]]) < 0.01);
  assert(distanceToLine([-0.4, 0, 4], part.hinge!.world.origin, part.hinge!.world.axis) < 1e-5);
});

Deno.test("an elevator with nothing ahead is all-moving: quarter chord, axis square to the plane of symmetry", async () => {
  const part = await tail(false);
  const fit = part.fit as unknown as { rule: string; rule_why: string };
  assertEquals(fit.rule, "all_moving");
  assert(fit.rule_why.includes("no fixed surface ahead"), fit.rule_why);
  assert(axisErrorDegrees(part.hinge!.world.axis, [1, 0, 0]) < 0.01, JSON.stringify(part.hinge));
  // Mid-span (left 1.4): leading edge at aft 4.5, quarter of 0.8 chord behind it.
  assert(distanceToLine([-1.4, 0, 4.7], part.hinge!.world.origin, part.hinge!.world.axis) < 1e-5);
  assertEquals(part.positive, "trailing_edge_down");
});

/** Fuselage and an upright swept rudder on top of it, optionally behind a fixed fin. */
async function fin(withFixedFin: boolean) {
  const doc = newScene();
  const body = box([-4, -0.4, -0.4], [6, 0.4, 0.4]);
  addAircraftMesh(doc, "Fuselage", body.positions, body.triangles);
  const heights = [0.4, 0.8, 1.2, 1.6, 2];
  // Sections every 0.4 m up, the forward edge swept 0.4 aft per metre, `shift` aft of the rudder's.
  const upright = (shift: number, chord: number) => {
    const lead = (h: number) => 4 + 0.4 * (h - 0.4) + shift;
    const quads = heights.slice(1).map((_, i) => 2 * i);
    return {
      positions: heights.flatMap((h) => [lead(h), h, 0, lead(h) + chord, h, 0]),
      triangles: quads.flatMap((a) => [a, a + 2, a + 1, a + 1, a + 2, a + 3]),
    };
  };
  const rudder = upright(0, 0.8);
  addAircraftMesh(doc, "Rudder", rudder.positions, rudder.triangles);
  if (withFixedFin) {
    const fixed = upright(-1, 1);
    addAircraftMesh(doc, "Fin", fixed.positions, fixed.triangles);
  }
  return (await rig(doc)).report.parts.find((p) => p.panel === "Rudder")!;
}

Deno.test("a rudder with no fixed fin ahead is an all-moving fin: quarter chord, upright shaft, +θ to starboard", async () => {
  const behindFin = await fin(true);
  assertEquals((behindFin.fit as unknown as { rule: string }).rule, "forward_edge");
  // Its swept forward edge: 0.4 aft per metre up (world +Z is aft).
  assert(axisErrorDegrees(behindFin.hinge!.world.axis, [0, 1, 0.4]) < 0.01, JSON.stringify(behindFin.hinge));

  const part = await fin(false);
  assertEquals((part.fit as unknown as { rule: string }).rule, "all_moving");
  const { origin, axis } = part.hinge!.world;
  assert(axisErrorDegrees(axis, [0, 1, 0]) < 0.01, JSON.stringify(part.hinge));
  // Mid-span (up 1.2): leading edge at aft 4.32, a quarter of the 0.8 chord behind it.
  assert(distanceToLine([0, 1.2, 4.52], origin, axis) < 1e-5);
  assertEquals(part.positive, "trailing_edge_right");
  // +10° moves the trailing edge to starboard (world +X: the default frame's left is −X).
  const moved = rotatePointAboutAxis([0, 1.2, 5.12], origin, axis, (10 * Math.PI) / 180);
  assert(moved[0] > 0.05, `trailing edge moved to x = ${moved[0]}`);
});
