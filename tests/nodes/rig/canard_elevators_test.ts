/**
 * Fixed foreplanes carrying elevators (VariEze, Long-EZ, Beech Starship): the foreplane is named
 * `Canard` but does not move; its elevators hinge on its trailing edge. Before rig.detect_panels v7
 * the foreplane was rigged as an all-moving canard pivoting at quarter chord (100 of 200 generated
 * scenes' foreplanes), and its elevators, with no fixed surface left ahead, as all-moving too (14 of
 * them good and off past 2° or 5 % of chord).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { hingeError } from "./coarse_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import { canardAircraft, classScene, FUSELAGE } from "./surface_classes.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { newScene } from "./fixtures.ts";
import { heldOutCount } from "../../support/heldout.ts";

// canardAircraft's period is four (elevators on every other scene, on a foreplane named `Canard` on
// every fourth): the suite's first 40 scenes hold ten of each kind; `deno task heldout` rigs all 200.
const SCENES = heldOutCount(200, 40);

Deno.test("canard aircraft: fixed foreplanes carrying elevators are no canards; every panel right", async () => {
  const next = prng(7001);
  const tally = { right: 0, off: 0, notGood: 0, wrongKind: 0, extra: 0, missing: 0, foreplaneWarnings: 0 };
  const misses: string[] = [];
  for (let i = 0; i < SCENES; i++) {
    const sample = canardAircraft(next, i);
    const { report, ctx } = await rig(classScene(sample));
    const names = new Set(sample.panels.map((p) => p.name));
    tally.extra += report.parts.filter((p) => !names.has(p.panel ?? "")).length;
    tally.foreplaneWarnings += ctx.warnings.filter((w) => w.message.includes("fixed foreplane")).length;
    for (const panel of sample.panels) {
      const part = report.parts.find((p) => p.panel === panel.name);
      if (!part?.hinge || !part.fit) {
        tally.missing++;
        continue;
      }
      if (part.kind !== panel.kind) tally.wrongKind++;
      if ((part.fit as { confidence?: string }).confidence !== "good") tally.notGood++;
      else if (panel.truth) {
        const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
        if (degrees > 2 || offset > 0.05 * panel.truth.chord) {
          tally.off++;
          misses.push(
            `#${i} ${panel.name}: ${degrees.toFixed(2)}°, ${(offset / panel.truth.chord * 100).toFixed(1)} %`,
          );
        } else tally.right++;
      }
    }
  }
  // Of 200 scenes, 100 have elevators (200 panels); 50 of them hang on a foreplane named `Canard_L`/`_R`:
  // 600 panels right, 100 foreplane warnings (three panels and half a warning a scene).
  assertEquals({ tally, misses }, {
    tally: {
      right: 3 * SCENES,
      off: 0,
      notGood: 0,
      wrongKind: 0,
      extra: 0,
      missing: 0,
      foreplaneWarnings: SCENES / 2,
    },
    misses: [],
  });
});

Deno.test("canard: an elevator nested in it makes it fixed; canards far from tail elevators stay canards", async () => {
  const next = prng(7002);
  const fore = airfoilSurface(next, { sweep: [0, 10] }), tail = airfoilSurface(next, { sweep: [0, 10] });
  // Nested: Canard_L holds its elevator as a child (one object per surface, parented in Blender).
  const nested = newScene();
  addAircraftMesh(nested, "Fuselage", FUSELAGE.mesh.positions, FUSELAGE.mesh.triangles);
  const canard = addAircraftMesh(nested, "Canard_L", fore.wing.positions, fore.wing.triangles);
  addAircraftMesh(nested, "Elevator_L", fore.positions, fore.triangles, canard);
  const a = await rig(nested);
  assertEquals(a.report.parts.map((p) => [p.panel, p.kind, p.fit?.authored_pivot ? "fit" : "none"]), [
    ["Elevator_L", "elevator", "fit"],
  ]);
  const elevator = a.report.parts[0];
  const { degrees, offset } = hingeError(fore, elevator.hinge!.aircraft);
  assert(degrees < 1 && offset < 0.02 * fore.chord, `${degrees}°, ${offset / fore.chord}`);
  assert(
    a.ctx.warnings.some((w) =>
      w.message.includes("'Canard_L' is named a canard but carries the elevator 'Elevator_L'")
    ),
  );
  // Su-30-like: all-moving canards at the nose, elevators on the tail 8 units aft of them.
  const apart = newScene();
  addAircraftMesh(apart, "Fuselage", FUSELAGE.mesh.positions, FUSELAGE.mesh.triangles);
  const place = (s: typeof fore, x: number, name: string) => {
    const p = Array.from(s.positions, (v, k) => k % 3 === 0 ? v - s.origin[0] + x : v);
    addAircraftMesh(apart, name, p, s.triangles);
  };
  place(fore, -2, "Canard_L");
  place(tail, 8, "Elevator_L");
  const b = await rig(apart);
  assertEquals(b.report.parts.map((p) => [p.panel, p.kind]), [["Canard_L", "canard"], [
    "Elevator_L",
    "elevator",
  ]]);
});

Deno.test('frame "auto" on canard aircraft: elevators alone never make a reversed frame good', async () => {
  // No fin, rudder or nose part: names of elevators ahead of the wing are all the tail has to go by.
  // Before rig.fit_hinge v16, 94 of these 200 frames came out reversed (+Z, −Y) and judged good;
  // before v18, 102 reversed and 98 right, all weak. The wing sections' sharp trailing edges now give
  // the tail: all-moving canards' frames are good, elevators named ahead of the wing keep theirs weak.
  const next = prng(7001);
  const frames: Record<string, number> = {};
  for (let i = 0; i < SCENES; i++) {
    const { report } = await rig(classScene(canardAircraft(next, i)), { forward: "auto", up: "auto" });
    const frame = report.frame as { forward: string; up: string; confidence: string };
    const key = `${frame.forward === "-Z" && frame.up === "+Y" ? "right" : "reversed"} ${frame.confidence}`;
    frames[key] = (frames[key] ?? 0) + 1;
  }
  // All 200: 100 right and good, 100 right and weak (the elevators' half).
  assertEquals(frames, { "right good": SCENES / 2, "right weak": SCENES / 2 });
});
