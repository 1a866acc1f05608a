/**
 * Property test over random low-poly panels (`coarse_panels.ts`): every fit is either right — axis
 * within 1°, line within 2 % of chord at both ends of the span — or judged weak/failed with its
 * reasons. A silent miss (judged good, yet wrong) fails the test.
 */
import { ok as assert } from "node:assert/strict";
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit } from "../../../nodes/rig/fit_confidence.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { type CoarsePanel, coarsePanel } from "./coarse_panels.ts";
import { axisErrorDegrees, distanceToLine } from "./fixtures.ts";

/** Axis error (degrees) and the worse of the line's distances from the truth at root and tip. */
function measure(panel: CoarsePanel, edge: "forward" | "quarter") {
  const fit = fitHinge(
    panel.positions,
    panel.positions.length / 3,
    { ...HINGE_FIT_DEFAULTS, edge },
    panel.triangles,
  );
  const ends = [-0.5, 0.5].map((f) =>
    [0, 1, 2].map((k) => panel.origin[k] + panel.axis[k] * f * panel.span) as Vec3
  );
  const offset = Math.max(...ends.map((end) => {
    const along = [0, 1, 2].reduce((sum, k) => sum + (end[k] - fit.origin[k]) * fit.axis[k], 0);
    const onFit = [0, 1, 2].map((k) => fit.origin[k] + fit.axis[k] * along) as Vec3;
    return distanceToLine(onFit, panel.origin, panel.axis);
  }));
  return { fit, judgement: judgeFit(fit), degrees: axisErrorDegrees(fit.axis, panel.axis), offset };
}

for (const edge of ["forward", "quarter"] as const) {
  const count = edge === "forward" ? 600 : 200;
  Deno.test(`${count} random coarse panels (${edge} hinge): right, or flagged weak/failed — never silent`, () => {
    const next = prng(edge === "forward" ? 11 : 12);
    const silent: string[] = [];
    const tally = { good: 0, weak: 0, failed: 0, flaggedRight: 0 };
    let worstGood = { degrees: 0, offset: 0 };
    for (let i = 0; i < count; i++) {
      const panel = coarsePanel(next, edge);
      const { judgement, degrees, offset } = measure(panel, edge);
      const right = degrees <= 1 && offset <= 0.02 * panel.chord;
      tally[judgement.confidence]++;
      if (judgement.confidence === "good") {
        worstGood = {
          degrees: Math.max(worstGood.degrees, degrees),
          offset: Math.max(worstGood.offset, offset / panel.chord),
        };
        if (!right) {
          silent.push(
            `#${i} ${panel.description}: ${degrees.toFixed(2)}°, ${
              (offset / panel.chord * 100).toFixed(1)
            } % of chord`,
          );
        }
      } else if (right) tally.flaggedRight++;
    }
    console.log(
      `${edge}: ${JSON.stringify(tally)}; worst good fit ${worstGood.degrees.toFixed(3)}°, ${
        (worstGood.offset * 100).toFixed(2)
      } % of chord`,
    );
    assert(silent.length === 0, `silent misses:\n${silent.join("\n")}`);
    // Flagging everything would pass the line above: most panels must be fitted and trusted.
    assert(tally.good >= 0.75 * count, `only ${tally.good} of ${count} judged good`);
  });
}
