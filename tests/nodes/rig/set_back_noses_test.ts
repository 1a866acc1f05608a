/**
 * Set-back (overhang) hinges with the nose drawn as low-poly models draw it: a rounded nose about
 * the hinge with only five to nine sides (`airfoil_panels.ts` with 12–29 vertices around the
 * section), at rest and modelled deflected, and oval noses reaching further forward than they are
 * thick. A faceted round nose hinges at its circle's centre; an oval nose's tip says nothing of
 * where it turns, so a fit along it must not be judged good.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { type AirfoilOptions, airfoilSurface } from "./airfoil_panels.ts";
import { measureSurfaces, namedBy } from "./surface_measure.ts";

/** Fits `count` surfaces, `options` giving each its shape (`own`: a second stream for the shapes). */
function measure(count: number, seed: number, options: (i: number, own: () => number) => AirfoilOptions) {
  const next = prng(seed), own = prng(seed + 1000);
  return measureSurfaces(count, (i) => airfoilSurface(next, options(i, own)));
}

const LOW_POLY = [12, 29] as const;

Deno.test("300 low-poly rounded noses (five to nine sides) at rest hinge at the circle's centre", () => {
  // rig.fit_hinge v10: 285 good, 13 weak (10 of them right), 2 failed.
  const result = measure(300, 301, () => ({ around: LOW_POLY }));
  assertEquals(result.silent, []);
  assert(result.tally.good >= 290, `only ${result.tally.good} of 300 judged good`);
  assert(result.worst.degrees < 0.5 && result.worst.offset < 0.015, JSON.stringify(result.worst));
});

Deno.test("300 low-poly rounded noses modelled deflected (−20° … 40°) keep the circle's centre", () => {
  // Turned, a faceted nose's forward-most corner lies up to half a facet from the arc's middle: the
  // circle test, which wanted the tip within a tenth of the radius of the circle's forward-most
  // point, failed at most stations, and the line went through the tips of those (rig.fit_hinge v10:
  // 239 good, 7 of them along the tips, 11–16 % of chord off; 61 weak, 18 of them off). Now the
  // tip may be a facet's corner (300 good), and a line through tips beside stations whose nose is a
  // circle behind them is weak.
  const deflections = [-20, -10, 10, 20, 30, 40];
  const result = measure(300, 302, (i) => ({ around: LOW_POLY, deflection: deflections[i % 6] }));
  assertEquals(result.silent, []);
  assert(result.tally.good >= 290, `only ${result.tally.good} of 300 judged good`);
  assert(result.worst.degrees < 0.5 && result.worst.offset < 0.015, JSON.stringify(result.worst));
});

Deno.test("200 oval noses (1.6–2 times as deep as they are thick) at rest are never judged good", () => {
  // Before (rig.fit_hinge v10), each was judged good on the circle fitted to its tip, up to 29 % of
  // chord ahead of the oval's centre. Where such a nose turns its tip does not tell: the fit is
  // weak, saying why.
  const result = measure(200, 303, (_, own) => ({ noseAspect: 1.6 + 0.4 * own() }));
  assertEquals(result.silent, []);
  assertEquals(result.tally.good, 0);
  const named = namedBy(result, "no circle about one point");
  assert(named >= 190, `${named} of 200 say the nose is no circle`);
});

Deno.test("400 oval noses (1.6–2 times as deep as thick) modelled deflected are weak, not good along a flank", () => {
  // Turned with its surface, an oval's tip is a point on its flank. rig.fit_hinge v13 judged 106 of
  // 200 turned 10–40° down and 187 of 200 turned 10–20° up good, 8–45 % of chord off: a station
  // whose nose is no clear circle kept its tip without a word, and a circle fitted to the flank
  // passed the one-sided height check. v14 counts a roughly round nose that is no circle, and
  // measures the height square to the section's own chord, both sides (4 of 400 still good and off).
  const down = measure(
    200,
    501,
    (_, own) => ({ noseAspect: 1.6 + 0.4 * own(), deflection: 10 + 30 * own() }),
  );
  const up = measure(
    200,
    502,
    (_, own) => ({ noseAspect: 1.6 + 0.4 * own(), deflection: -(10 + 10 * own()) }),
  );
  console.log(`good and off past 2° or 5 %: ${down.farOff.length} down, ${up.farOff.length} up`);
  assert(down.farOff.length <= 2, down.farOff.join("; "));
  assert(up.farOff.length <= 2, up.farOff.join("; "));
  assert(down.tally.weak >= 198 && up.tally.weak >= 198, JSON.stringify([down.tally, up.tally]));
});

Deno.test("200 mildly oval noses (1.1–1.3 times as deep as thick) at rest: about the oval's centre, good", () => {
  // v13: 188 good, 45 of them 5–8.3 % of chord ahead of the oval's centre (its tip circle is a
  // little smaller than the section there, inside the 10 % the height check allowed). v14 wanted the
  // section within 5 % outside the circle's radius: 169 weak, 22 still good 2–4.5 % off. v19 fits the
  // nose's ellipse: 199 good and right, 1 good 2.6 % off (a 30-point section, whose ellipse is no
  // clearer than a circle: its tip circle is used as before).
  const result = measure(200, 503, (_, own) => ({ noseAspect: 1.1 + 0.2 * own() }));
  assertEquals(result.farOff, []);
  assert(result.silent.length <= 1, result.silent.join("; "));
  assert(result.worst.offset < 0.03, JSON.stringify(result.worst));
  assert(result.tally.good >= 195, JSON.stringify(result.tally));
});

Deno.test("200 oval noses 1.1–1.6 times as deep, modelled deflected, and 200 low-poly ones at rest: right or weak", () => {
  // v13: 101 and 62 of 200 good and off past 2° or 5 % of chord (worst 29 and 36 %); v14: 13 and 23,
  // the rest right or weak. The low-poly ones' flat front between two facets has too few distinct
  // points above or below for a roughly round nose; the section growing more than 15 % past that
  // tip's circle now counts it as oval all the same: 3 (20 more weak, every one 14–36 % off). v19
  // fits the dense noses' ellipses: none good and off past the bar (oval_noses_test.ts), and the
  // low-poly ones whose ellipse is clear come out right (21 more good, all right; the 14 good and
  // off are the same as before, 3 of them past 2° or 5 %).
  const deflected = measure(200, 505, (_, own) => ({
    noseAspect: 1.1 + 0.5 * own(),
    deflection: [-20, -10, 10, 20, 30, 40][Math.floor(own() * 6)],
  }));
  const lowPoly = measure(200, 506, (_, own) => ({ around: LOW_POLY, noseAspect: 1.1 + 0.9 * own() }));
  console.log(`good and off: ${deflected.farOff.length} deflected, ${lowPoly.farOff.length} low-poly`);
  assertEquals(deflected.farOff, []);
  assert(deflected.silent.length <= 1, deflected.silent.join("; "));
  assert(lowPoly.farOff.length <= 3, `${lowPoly.farOff.length} of 200 good and off`);
  assert(lowPoly.silent.length <= 14, lowPoly.silent.join("; "));
});
