/**
 * A trim tab inset in a surface's trailing edge and modelled in the surface's own mesh
 * (`airfoil_panels.ts` with `tab`): the surface is cut back over the tab's span and the tab, its own
 * closed piece with a rounded nose, fills the cut-out, turned at rest as the model was saved. The
 * surface's hinge is its own nose's: the tab must neither move it nor, turned, make it weak.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { measureSurfaces } from "./surface_measure.ts";

Deno.test("300 surfaces with an inset trim tab in their mesh (turned −20° … 20°, the surface −15° … 40°): good on their hinge", () => {
  const next = prng(207), own = prng(1207);
  const tabTurns = [0, -20, -10, 10, 20], turns = [0, -15, 20, 40];
  const result = measureSurfaces(300, (i) => {
    const from = 0.05 + 0.5 * own(), width = 0.15 + 0.3 * own();
    const tab = {
      from,
      to: Math.min(0.95, from + width),
      chord: 0.15 + 0.2 * own(),
      deflection: tabTurns[i % 5],
    };
    return airfoilSurface(next, {
      tab,
      deflection: turns[i % 4],
      around: i % 2 ? [12, 29] : undefined, // half of them low-poly
    });
  });
  assertEquals(result.silent, []);
  assert(result.tally.good >= 295, `only ${result.tally.good} of 300 judged good`);
  assert(result.worst.degrees < 0.5 && result.worst.offset < 0.015, JSON.stringify(result.worst));
});
