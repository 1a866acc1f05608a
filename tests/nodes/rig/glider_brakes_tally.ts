/**
 * Glider airbrakes (`glider_brakes.ts`) tallied against the construction. A Schempp-Hirth blade is
 * right when it slides (`ctrl_type: translation`, unit `m`) within 10° of the way it comes out of the
 * skin, over 0.5–1.6 of its height, out of the skin from where it was modelled (0…travel retracted,
 * −travel…0 extended); a flat spoiler plate is right when it turns within 2° and 5 % of its chord of
 * its forward edge. Each brake is counted right or wrong, by its confidence, and warned (a warning
 * names it) or silent; a brake not rigged is `missed`.
 * `deno run -A tests/nodes/rig/glider_brakes_tally.ts 31 33 40` prints seeds 31–33, 40 gliders each.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { gliderSample } from "./glider_brakes.ts";
import { rig } from "./pipeline.ts";
import { axisErrorDegrees } from "./fixtures.ts";
import { confidenceOf, countIn, hingeWithin, warnsOf } from "./hinge_verdicts.ts";

/** The families tallied: Schempp-Hirth blades named or not, and flat spoiler plates. */
export const FAMILIES = ["blades", "plates"] as const;

/** Tallies one family over `count` gliders of `seed`: counts by outcome. */
export async function tallyGliders(
  family: (typeof FAMILIES)[number],
  seed: number,
  count: number,
): Promise<Record<string, number>> {
  const next = prng(seed);
  const tally: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const sample = gliderSample(next, i, { plates: family === "plates" });
    const { report, ctx } = await rig(sample.scene);
    for (const brake of sample.brakes) {
      const part = report.parts.find((p) => p.panel === brake.name);
      const warned = warnsOf({ ctx }, brake.name);
      const naming = sample.naming === "named" ? "" : `${sample.naming} `;
      let key = `${naming}missed ${warned ? "warned" : "silent"}`;
      if (part?.hinge) {
        const truth = brake.truth;
        let right: boolean;
        if (truth.motion === "slide") {
          // Limits are in the pivot's parent's units (a centimetre file's under its 0.01 root); the
          // travel the report records beside them is in the world's.
          const min = part.min ?? 0, max = part.max ?? 0;
          const range = (part.fit as unknown as { slide?: { travel: number } }).slide?.travel ?? 0;
          right = part.ctrl_type === "translation" &&
            axisErrorDegrees(part.hinge.aircraft.axis, truth.direction) <= 10 &&
            Math.sign(part.hinge.aircraft.axis[1]) === Math.sign(truth.direction[1]) &&
            range >= 0.5 * truth.travel && range <= 1.6 * truth.travel &&
            (truth.pose === "retracted" ? min === 0 && max > 0 : max === 0 && min < 0);
        } else {
          right = part.ctrl_type === "rotation" && hingeWithin(truth, part.hinge.aircraft);
        }
        key = `${naming}${right ? "right" : "wrong"} ${confidenceOf(part)} ${warned ? "warned" : "silent"}`;
      }
      countIn(tally, key);
    }
  }
  return tally;
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 31),
    Number(Deno.args[1] ?? 33),
    Number(Deno.args[2] ?? 40),
  ];
  for (const family of FAMILIES) {
    for (let seed = from; seed <= to; seed++) {
      console.log(`${family} seed ${seed}: ${JSON.stringify(await tallyGliders(family, seed, count))}`);
    }
  }
}
