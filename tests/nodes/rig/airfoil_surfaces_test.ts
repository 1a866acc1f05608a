/**
 * Control surfaces shaped as modellers build real aircraft (`airfoil_panels.ts`): NACA sections with
 * a rounded nose nested in a cove of the wing ahead, modelled deflected at rest, hung on a dropped
 * hinge with its brackets in the mesh; and in files as exported from Blender — a surface split into
 * several objects under a named empty, duplicate names (`Aileron.L.001`), transforms applied (every
 * origin at the world origin). Every fit judged good must be right (axis within 1°, line within 2 %
 * of chord at both ends of the span); a dropped hinge must not be judged good.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { type AirfoilOptions, type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh, hingeError } from "./coarse_panels.ts";
import { measureSurfaces, namedBy } from "./surface_measure.ts";
import { addGroup, newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";

/** Fits `count` random surfaces, logged after `what`: the tally, the worst good fit and the silent misses. */
function measure(count: number, seed: number, options: (i: number) => AirfoilOptions, what: string) {
  const next = prng(seed);
  return measureSurfaces(count, (i) => airfoilSurface(next, options(i)), what);
}

Deno.test("200 airfoil surfaces with a rounded nose in a cove hinge at the nose's centre, not its tip", () => {
  // Before: every one judged good on the line of nose tips, 7–25 % of chord ahead of the hinge.
  const result = measure(200, 21, () => ({}), "airfoil surfaces");
  assertEquals(result.silent, []);
  assert(result.tally.good >= 190, `only ${result.tally.good} of 200 judged good`);
  assert(result.worst.degrees < 0.1 && result.worst.offset < 0.01, JSON.stringify(result.worst));
});

Deno.test("180 airfoil surfaces modelled deflected at rest (−10° … 40°) keep their hinge", () => {
  const deflections = [-10, 10, 15, 20, 30, 40];
  const result = measure(
    180,
    22,
    (i) => ({ deflection: deflections[i % deflections.length] }),
    "deflected airfoil surfaces",
  );
  assertEquals(result.silent, []);
  assert(result.tally.good >= 170, `only ${result.tally.good} of 180 judged good`);
  assert(result.worst.degrees < 0.2 && result.worst.offset < 0.015, JSON.stringify(result.worst));
});

Deno.test("400 other airfoil surfaces modelled 40° down keep their hinge where taper or sweep swings it", () => {
  // Held out from the set above (another seed, every one 40° down). A hinge swept by taper (at 80 %
  // of a chord halving along a short span it sweeps forward up to 40°) turned 40° leaves the stations
  // oblique to the planes the nose was drawn in: before the nose was cut again in those planes, 4 were
  // judged good on the circle fitted to an ellipse's tip, 2.0–3.4 % of chord off (worst good 0.34°,
  // 3.36 %). What is left is a cambered section's droop, taken for deflection (worst 1.70 %).
  const result = measure(400, 109, () => ({ deflection: 40 }), "airfoil surfaces 40° down");
  assertEquals(result.silent, []);
  assert(result.tally.good >= 390, `only ${result.tally.good} of 400 judged good`);
  assert(result.worst.degrees < 0.2 && result.worst.offset < 0.018, JSON.stringify(result.worst));
});

Deno.test("100 flaps on a dropped hinge with their brackets in the mesh, at rest or 30° down: never judged good", () => {
  // Before the brackets' hanging was measured: 96 judged good on their nose, 30–57 % of chord from
  // the brackets' pivot. Before sections were measured along their own chord line: 4 modelled 30°
  // down and swept 30–39° still judged good (a neighbouring station's lead, moved along the tilted
  // section by the sweep, lifted the brackets into the envelope).
  const result = measure(
    100,
    23,
    (i) => ({ drop: 0.1 + 0.15 * ((i % 5) / 4), deflection: i % 2 ? 0 : 30 }),
    "dropped-hinge flaps",
  );
  const named = namedBy(result, "hinge brackets");
  console.log(`${named} of 100 name the brackets; judged good: ${result.silent.join("; ") || "none"}`);
  assertEquals(result.silent, []);
  assertEquals(result.tally.good, 0);
  assert(named >= 98, `${named} of 100 name the brackets`);
});

Deno.test("400 other flaps on a dropped hinge (5–25 % of chord), modelled 10–40° down: never judged good", () => {
  // Held out from the set above (another seed, shallower and deeper drops, more deflections). Before
  // sections were measured along their own chord line, 227 of 1,000 such flaps were judged good on
  // their nose; with that and before a station that cut a bracket was placed on the fitted edge
  // lines (its lead is the bracket's foot, and its frame took the bracket for the nose), 4 were.
  const result = measure(400, 106, (i) => ({
    drop: 0.05 + 0.2 * ((i % 5) / 4),
    deflection: [10, 20, 30, 40][i % 4],
  }), "dropped-hinge flaps, deflected");
  const named = namedBy(result, "hinge brackets");
  assertEquals(result.silent, []);
  assertEquals(result.tally.good, 0);
  assert(named >= 396, `${named} of 400 name the brackets`);
});

/** Mirrors aircraft coordinates to the right side (left → −left), keeping the winding outward. */
function mirrored(positions: Float32Array, triangles: Uint32Array) {
  const p = new Float32Array(positions), t = new Uint32Array(triangles);
  for (let i = 2; i < p.length; i += 3) p[i] = -p[i];
  for (let i = 0; i < t.length; i += 3) [t[i + 1], t[i + 2]] = [t[i + 2], t[i + 1]];
  return { positions: p, triangles: t };
}

/** A small closed box (a rib or fitting) at `at`, aircraft coordinates. */
function box(at: Vec3, size: number) {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(
      at[0] + (i & 1 ? size : -size),
      at[1] + (i & 2 ? size : -size),
      at[2] + (i & 4 ? size : -size),
    );
  }
  const triangles = [
    0,
    1,
    3,
    0,
    3,
    2,
    4,
    6,
    7,
    4,
    7,
    5,
    0,
    4,
    5,
    0,
    5,
    1,
    2,
    3,
    7,
    2,
    7,
    6,
    0,
    2,
    6,
    0,
    6,
    4,
    1,
    5,
    7,
    1,
    7,
    3,
  ];
  return { positions: new Float32Array(positions), triangles: new Uint32Array(triangles) };
}

Deno.test("Blender-style files: a surface split under a named empty, duplicate names, transforms applied", async () => {
  const next = prng(24);
  for (let round = 0; round < 6; round++) {
    const doc = newScene();
    const aileron = airfoilSurface(next, { deflection: round % 2 ? 10 : 0 });
    const elevator = airfoilSurface(next, { deflection: round % 3 === 0 ? -10 : 0 });
    // Left aileron: an empty holding the skin and a rib inside it; its wing ahead.
    addAircraftMesh(doc, "Wing.L", aileron.wing.positions, aileron.wing.triangles);
    const group = addGroup(doc, undefined, "Aileron_L");
    addAircraftMesh(doc, "Aileron_L_skin", aileron.positions, aileron.triangles, group);
    const inside: Vec3 = [0, 1, 2].map((k) =>
      aileron.origin[k] + 0.3 * aileron.chord * (k === 0 ? 1 : 0)
    ) as Vec3;
    const rib = box(inside, 0.02 * aileron.chord);
    addAircraftMesh(doc, "Aileron_L_rib.001", rib.positions, rib.triangles, group);
    // Right aileron: a Blender duplicate, mirrored, its transform applied.
    const right = mirrored(aileron.positions, aileron.triangles),
      rightWing = mirrored(aileron.wing.positions, aileron.wing.triangles);
    addAircraftMesh(doc, "Wing.R", rightWing.positions, rightWing.triangles);
    addAircraftMesh(doc, "Aileron.L.001", right.positions, right.triangles);
    // An elevator behind its tailplane, duplicate-numbered, moved aft of the wing.
    const aft = (p: Float32Array) => p.map((x, i) => (i % 3 === 0 ? x + 6 : x));
    const tail = mirrored(elevator.wing.positions, elevator.wing.triangles);
    const moving = mirrored(elevator.positions, elevator.triangles);
    addAircraftMesh(doc, "Tailplane_R.002", aft(tail.positions), tail.triangles);
    addAircraftMesh(doc, "Elevator_R.002", aft(moving.positions), moving.triangles);
    const result = await rig(doc);
    const expect: [string, AirfoilSurface, string, number][] = [
      ["Aileron_L", aileron, "left", 1],
      ["Aileron.L.001", aileron, "right", -1],
      ["Elevator_R.002", elevator, "right", -1],
    ];
    for (const [name, surface, side, mirror] of expect) {
      const part = result.report.parts.find((p) => p.panel === name) as
        | (typeof result.report.parts[number] & { fit: { confidence: string; rule: string; chord: number } })
        | undefined;
      assert(part?.hinge && part.fit, `${name} rigged (round ${round})`);
      const { origin, axis } = part.hinge.aircraft;
      const truthOrigin: Vec3 = [
        surface.origin[0] + (name.startsWith("Elevator") ? 6 : 0),
        surface.origin[1],
        surface.origin[2] * mirror,
      ];
      const truth = {
        origin: truthOrigin,
        axis: [surface.axis[0], surface.axis[1], surface.axis[2] * mirror] as Vec3,
        span: surface.span,
      };
      const { degrees, offset } = hingeError(truth, { origin, axis });
      const what =
        `${name} (round ${round}): ${degrees.toFixed(3)}°, ${
          (offset / surface.chord * 100).toFixed(2)
        } % of chord, ` +
        `${part.fit.confidence}, ${part.fit.rule}, ${part.side}`;
      assert(degrees < 1 && offset < 0.02 * surface.chord, what);
      assertEquals(
        [part.kind, part.side, part.fit.confidence, part.fit.rule],
        [name.startsWith("Elevator") ? "elevator" : "aileron", side, "good", "forward_edge"],
        what,
      );
    }
    // The mirrored duplicate's name says left: its geometry overrules it, and the user is told.
    assert(
      result.ctx.warnings.some((w) =>
        w.message.includes("'Aileron.L.001' is named left but lies wholly on the right")
      ),
      "the misnamed duplicate is warned about",
    );
    // The rib is part of the aileron, not a panel of its own; the wings and tailplane are no panels.
    assertEquals(
      result.report.parts.map((p) => p.panel).sort(),
      ["Aileron.L.001", "Aileron_L", "Elevator_R.002"],
    );
  }
});
