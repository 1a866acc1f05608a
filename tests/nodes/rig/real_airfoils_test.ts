/**
 * Up read from real airfoil sections (`real_airfoil_wings.ts`: NACA 2412, 4415, 2415, 23012, 23015,
 * reflexed flying-wing sections; symmetric 0012 and 0009; low-poly rings of 6–10 points; taper, sweep,
 * dihedral, washout; half with a tailplane, symmetric or cambered upside down), the model facing either
 * way along its length. A lifting section may say up or nothing; a symmetric one must say nothing —
 * never down. Before (rig.fit_hinge v47's frame_camber.ts): dev seeds 1–300, 8 of 63 symmetric wings
 * set upside down by their inverted tailplane's camber, and 2 more by washout (the nose turned down)
 * once the tail was left out; held-out seeds 1001–1400, 10 of 109. Now 0 (camber read outboard of the
 * tail, the chord line's ends where each end's curve reaches furthest), and more lifting wings read
 * up (dev 119 -> 138 of 237, held-out 141 -> 149 of 291).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { sectionCamber } from "../../../nodes/rig/frame_camber.ts";
import { nacaCamber, nacaThickness } from "./airfoil_panels.ts";
import { tallyUps } from "./camber_tally.ts";

for (const [from, to, role] of [[1, 150, "development"], [1001, 1150, "held-out"]] as const) {
  Deno.test(`real airfoil wings (${role} seeds ${from}–${to}): camber says up or nothing, never down; symmetric sections say nothing`, () => {
    const { tally, wrong } = tallyUps(Array.from({ length: to - from + 1 }, (_, k) => from + k));
    console.log(`   ${JSON.stringify(tally)}`);
    assertEquals(wrong, []);
    // Most lifting wings with sections to read say up (low-poly rings of 6–10 points say nothing).
    assert(
      (tally["lifting up"] ?? 0) >= 0.4 * ((tally["lifting up"] ?? 0) + (tally["lifting nothing"] ?? 0)),
    );
  });
}

/** A NACA section of `around` points turned nose down by `degrees` about its quarter chord. */
function turnedSection(m: number, t: number, around: number, degrees: number) {
  const half = around >> 1,
    xs = Array.from({ length: half - 1 }, (_, i) => (1 - Math.cos(Math.PI * (i + 1) / half)) / 2);
  const points: [number, number][] = [[1, nacaCamber(m, 0.4, 1)]];
  for (let i = xs.length - 1; i >= 0; i--) {
    points.push([xs[i], nacaCamber(m, 0.4, xs[i]) + nacaThickness(t, xs[i])]);
  }
  points.push([0, 0]);
  for (const x of xs) points.push([x, nacaCamber(m, 0.4, x) - nacaThickness(t, x)]);
  const a = (-degrees * Math.PI) / 180, [c, s] = [Math.cos(a), Math.sin(a)];
  const pairs = points.flatMap(([x, y]) => [0.25 + (x - 0.25) * c + y * s, -(x - 0.25) * s + y * c]);
  const run = points.map((_, k) => k).sort((p, q) => pairs[2 * p] - pairs[2 * q]);
  return sectionCamber(pairs, run)!;
}

Deno.test("a symmetric section turned nose down (washout) bows neither way; a lifting one still bows up", () => {
  for (const around of [30, 44, 45, 68]) {
    for (const degrees of [-5, -1.5, 1.5, 3, 5]) {
      const flat = turnedSection(0, 0.09 + (around % 4) * 0.01, around, degrees);
      // Before: 0.2–0.3 % at 1.5–5° for 44–68 points (the forward extreme's points' mean was no end).
      assert(Math.abs(flat) < 0.0012, `${around} points, ${degrees}°: ${flat}`);
      const lifting = turnedSection(0.02, 0.12, around, degrees);
      assert(lifting > 0.005, `${around} points, ${degrees}°: ${lifting}`);
    }
  }
});
