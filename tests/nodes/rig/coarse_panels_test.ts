/**
 * Property test over random low-poly panels (`coarse_panels.ts`): every fit is either right — axis
 * within 1°, line within 2 % of chord at both ends of the span — or judged weak/failed with its
 * reasons. A silent miss (judged good, yet wrong) fails the test. The same panels as skin bones
 * (`skinned_panel.ts`) are fitted from the bone's skinned surface and held to the same rule.
 */
import { ok as assert } from "node:assert/strict";
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit } from "../../../nodes/rig/fit_confidence.ts";
import { gatherBonePositions } from "../../../nodes/rig/bone_geometry.ts";
import { aircraftMatrix, resolveFrame } from "../../../nodes/rig/frame.ts";
import { prng } from "../../support/prng.ts";
import { type CoarsePanel, coarsePanel, hingeError } from "./coarse_panels.ts";
import { skinnedPanel } from "./skinned_panel.ts";

/** A panel's fit from its mesh (or, `skinned`, from its bone's skinned surface), judged and measured. */
function measure(panel: CoarsePanel, edge: "forward" | "quarter", next: () => number, skinned: boolean) {
  const options = { ...HINGE_FIT_DEFAULTS, edge };
  let fit;
  if (skinned) {
    const { doc, bone } = skinnedPanel(panel, next);
    const toAircraft = aircraftMatrix(resolveFrame(doc, "-Z", "+Y"));
    const { positions, count, triangles } = gatherBonePositions(doc, bone, toAircraft, { triangles: true });
    assert(count === panel.positions.length / 3, `the bone's ${count} vertices are the panel's`);
    fit = fitHinge(positions, count, options, triangles);
    assert(fit.fromSurface, "a skin bone is fitted from its surface");
  } else {
    fit = fitHinge(panel.positions, panel.positions.length / 3, options, panel.triangles);
  }
  return { fit, judgement: judgeFit(fit), ...hingeError(panel, fit) };
}

const CASES = [
  { edge: "forward", count: 600, seed: 11, skinned: false },
  { edge: "quarter", count: 200, seed: 12, skinned: false },
  { edge: "forward", count: 500, seed: 13, skinned: true },
] as const;

for (const { edge, count, seed, skinned } of CASES) {
  const what = `random coarse ${skinned ? "skin-bone " : ""}panels (${edge} hinge)`;
  Deno.test(`${count} ${what}: right, or flagged weak/failed — never silent`, () => {
    const next = prng(seed);
    const silent: string[] = [];
    const tally = { good: 0, weak: 0, failed: 0, flaggedRight: 0 };
    let worstGood = { degrees: 0, offset: 0 };
    for (let i = 0; i < count; i++) {
      const panel = coarsePanel(next, edge);
      const { judgement, degrees, offset } = measure(panel, edge, next, skinned);
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
      `${what}: ${JSON.stringify(tally)}; worst good fit ${worstGood.degrees.toFixed(3)}°, ${
        (worstGood.offset * 100).toFixed(2)
      } % of chord`,
    );
    assert(silent.length === 0, `silent misses:\n${silent.join("\n")}`);
    // Flagging everything would pass the line above: most panels must be fitted and trusted.
    assert(tally.good >= 0.75 * count, `only ${tally.good} of ${count} judged good`);
  });
}
