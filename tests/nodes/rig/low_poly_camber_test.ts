/**
 * Up read from low-poly wings (game models): sections of 4–10 points round, placed where a modeller
 * clicks them (unevenly along the chord, the upper and lower points on the same loop cuts), NACA 2412 and
 * 4415, drawn whole or with a flat bottom (Clark Y style: the lower surface straight from nose to tail),
 * turned by washout. Before (rig.fit_hinge v50, frame_camber.ts), such sections gave no camber vote: a
 * ring's few points left the slices empty, and gaps between them parted it into runs whose ends held too
 * few points to measure. `real_airfoil_wings.ts` low-poly wings, development seeds 1–300: lifting up
 * 0 → 61 of 75; held-out seeds 2001–2400: 0 → 89 of 113; symmetric ones say nothing (17 and 30), none
 * says down, and wings of 30–80 points round read as before.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { sectionCamber } from "../../../nodes/rig/frame_camber.ts";
import { prng } from "../../support/prng.ts";
import { nacaCamber, nacaThickness } from "./airfoil_panels.ts";
import { airfoilWing } from "./real_airfoil_wings.ts";
import { tallyUps } from "./camber_tally.ts";

/**
 * A low-poly ring of `around` points of NACA `m`/`p`/`t` (flat-bottomed: its lower surface on the chord
 * line), loop cuts at uneven stations from `next`, turned nose down by `degrees` about the quarter chord,
 * as (along, up) pairs and their order along.
 */
function lowPolyRing(
  m: number,
  p: number,
  t: number,
  around: number,
  flat: boolean,
  degrees: number,
  next: () => number,
) {
  const cuts = Math.max(1, (around - 2) >> 1);
  const xs = Array.from({ length: cuts }, (_, i) => (i + 0.5 + (next() - 0.5) * 0.6) / cuts).sort((a, b) =>
    a - b
  );
  const points: [number, number][] = [[0, 0], [1, flat ? 0 : nacaCamber(m, p, 1)]];
  for (const x of xs) {
    const mean = nacaCamber(m, p, x), half = nacaThickness(t, x);
    points.push(flat ? [x, mean + half - (mean - half)] : [x, mean + half]);
    points.push(flat ? [x, 0] : [x, mean - half]);
  }
  const a = (-degrees * Math.PI) / 180, [c, s] = [Math.cos(a), Math.sin(a)];
  const pairs = points.flatMap(([x, y]) => [0.25 + (x - 0.25) * c + y * s, -(x - 0.25) * s + y * c]);
  const run = points.map((_, k) => k).sort((q, r) => pairs[2 * q] - pairs[2 * r]);
  return { pairs, run };
}

Deno.test("a low-poly lifting section (4–10 points, whole or flat-bottomed) bows up; a symmetric one neither way", () => {
  const next = prng(7);
  for (const around of [4, 6, 8, 10]) {
    for (const degrees of [-3, 0, 2, 4]) {
      for (const [m, p, t] of [[0.02, 0.4, 0.12], [0.04, 0.4, 0.15]]) {
        for (const flat of [false, true]) {
          const { pairs, run } = lowPolyRing(m, p, t, around, flat, degrees, next);
          const bow = sectionCamber(pairs, run);
          assert(
            bow !== undefined && bow > 0.004,
            `${m} ${t} ${flat ? "flat " : ""}${around}, ${degrees}°: ${bow}`,
          );
          // Upside down, it bows down.
          const down = pairs.map((v, i) => i % 2 ? -v : v);
          assert(sectionCamber(down, run)! < -0.004, `${around} points inverted`);
        }
      }
      const flat = lowPolyRing(0, 0.4, 0.12, around, false, degrees, next);
      const bow = sectionCamber(flat.pairs, flat.run);
      assert(bow === undefined || Math.abs(bow) < 0.001, `NACA 0012, ${around} points, ${degrees}°: ${bow}`);
    }
  }
});

Deno.test("low-poly wings (seeds 1–150): camber says up for most lifting wings, never down; symmetric ones say nothing", () => {
  const seeds = Array.from({ length: 150 }, (_, k) => k + 1);
  const { tally, wrong } = tallyUps(seeds.filter((seed) => /low-poly/.test(airfoilWing(seed).description)));
  console.log(`   ${JSON.stringify(tally)}`);
  assertEquals(wrong, []);
  assert((tally["lifting up"] ?? 0) >= 0.6 * ((tally["lifting up"] ?? 0) + (tally["lifting nothing"] ?? 0)));
  assert((tally["symmetric nothing"] ?? 0) > 0);
});
