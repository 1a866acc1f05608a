/**
 * A trim tab inset in a surface's trailing edge and modelled in the surface's own mesh
 * (`airfoil_panels.ts` with `tab`): the surface is cut back over the tab's span and the tab, its own
 * closed piece with a rounded nose, fills the cut-out, turned at rest as the model was saved. The
 * surface's hinge is its own nose's: the tab must neither move it nor, turned, make it weak.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit } from "../../../nodes/rig/fit_confidence.ts";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { hingeError } from "./coarse_panels.ts";

Deno.test("300 surfaces with an inset trim tab in their mesh (turned −20° … 20°, the surface −15° … 40°): good on their hinge", () => {
  const next = prng(207), own = prng(1207);
  const tabTurns = [0, -20, -10, 10, 20], turns = [0, -15, 20, 40];
  const tally = { good: 0, weak: 0, failed: 0 };
  const worst = { degrees: 0, offset: 0 };
  const off: string[] = [];
  for (let i = 0; i < 300; i++) {
    const from = 0.05 + 0.5 * own(), width = 0.15 + 0.3 * own();
    const tab = {
      from,
      to: Math.min(0.95, from + width),
      chord: 0.15 + 0.2 * own(),
      deflection: tabTurns[i % 5],
    };
    const surface = airfoilSurface(next, {
      tab,
      deflection: turns[i % 4],
      around: i % 2 ? [12, 29] : undefined, // half of them low-poly
    });
    const fit = fitHinge(
      surface.positions,
      surface.positions.length / 3,
      { ...HINGE_FIT_DEFAULTS, edge: "forward" },
      surface.triangles,
    );
    const judgement = judgeFit(fit);
    const { degrees, offset } = hingeError(surface, fit);
    tally[judgement.confidence]++;
    if (judgement.confidence !== "good") continue;
    worst.degrees = Math.max(worst.degrees, degrees);
    worst.offset = Math.max(worst.offset, offset / surface.chord);
    if (degrees > 1 || offset > 0.02 * surface.chord) off.push(`#${i} ${surface.description}`);
  }
  console.log(
    `${JSON.stringify(tally)}; worst good fit ${worst.degrees.toFixed(3)}°, ${
      (worst.offset * 100).toFixed(2)
    } %`,
  );
  assertEquals(off, []);
  assert(tally.good >= 295, `only ${tally.good} of 300 judged good`);
  assert(worst.degrees < 0.5 && worst.offset < 0.015, JSON.stringify(worst));
});
