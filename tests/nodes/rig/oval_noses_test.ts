/**
 * Rounded noses drawn on an ellipse about the hinge (`airfoil_panels.ts`, `noseAspect`: 1.05–1.6
 * times as deep along the chord as they are thick), dense (30–80 points around the section), at rest
 * and modelled deflected −20…40°. Before `rig.fit_hinge` v19 the hinge went through the centre of
 * the circle fitted to the nose's tip — on a turned oval a point of its flank — and many were judged
 * good while off; the nose's ellipse, fitted to its whole front half, gives the centre it turns about.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit } from "../../../nodes/rig/fit_confidence.ts";
import { hingeError } from "./coarse_panels.ts";
import { measureSurfaces } from "./surface_measure.ts";

const DEFLECTIONS = [-20, -10, 10, 20, 30, 40];

/** The surface's forward-edge fit, its error against the true hinge, and a line saying both. */
function forwardFit(surface: ReturnType<typeof airfoilSurface>) {
  const fit = fitHinge(
    surface.positions,
    surface.positions.length / 3,
    { ...HINGE_FIT_DEFAULTS, edge: "forward" },
    surface.triangles,
  );
  const { degrees, offset } = hingeError(surface, fit);
  const what = `${surface.description}: ${degrees.toFixed(3)}°, ${
    (offset / surface.chord * 100).toFixed(2)
  } %`;
  return { fit, degrees, offset, what };
}

Deno.test("400 dense oval noses (1.05–1.6 times as deep) modelled deflected: none good and off past the bar", () => {
  // rig.fit_hinge v18: 92 good, 56 of them off (16 past 2° or 5 % of chord, the worst 11 %), 304 weak
  // and off, 4 weak and right. v19: 215 good, 3 of them 2.0–2.6 % off (none past 5 %), 185 weak and
  // right (the ovals over 1.35 times as deep, whose centre is a guess), none weak and off past the bar.
  const next = prng(605), own = prng(1605);
  const result = measureSurfaces(400, () =>
    airfoilSurface(next, {
      noseAspect: 1.05 + 0.55 * own(),
      deflection: DEFLECTIONS[Math.floor(own() * 6)],
    }), "oval noses, deflected");
  assertEquals(result.farOff, []);
  assert(result.silent.length <= 3, result.silent.join("; "));
  assert(result.worst.offset < 0.03, JSON.stringify(result.worst));
  assert(result.tally.good >= 200, JSON.stringify(result.tally));
  assert(result.tally.weakRight >= 180, JSON.stringify(result.tally));
});

Deno.test("an oval nose 1.2 times as deep turned 20° up hinges at the oval's centre, not its flank's circle", () => {
  // rig.fit_hinge v18 judged it good 5.2 % of its chord off (0.17°): the circle fitted at the turned
  // oval's tip passed every circle check. Twelve seeds: v18 8 good 2.3–5.2 % off, 4 weak 2.8–6 % off;
  // v19 all 12 good within 0.2 %.
  const surface = airfoilSurface(prng(4), { noseAspect: 1.2, deflection: -20 });
  const { fit, degrees, offset, what } = forwardFit(surface);
  assert(degrees < 0.1 && offset < 0.005 * surface.chord, what);
  assertEquals(judgeFit(fit).confidence, "good", what);
});

Deno.test("a nose 1.5 times as deep turned 30° down: about the oval's centre, and weak (where it turns is a guess)", () => {
  const surface = airfoilSurface(prng(4), { noseAspect: 1.5, deflection: 30 });
  const { fit, degrees, offset, what } = forwardFit(surface);
  assert(degrees < 0.5 && offset < 0.01 * surface.chord, what);
  const judgement = judgeFit(fit);
  assertEquals(judgement.confidence, "weak", what);
  assert(
    judgement.reasons.some((r) => r.includes("no circle about one point")),
    judgement.reasons.join("; "),
  );
});
