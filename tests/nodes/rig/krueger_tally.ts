/**
 * Airliner leading and trailing-edge habits (`krueger_flaps.ts`) tallied against the construction:
 * Krueger flaps named so (`named`) or named as leading-edge flaps (`generic`), spoilers on the wing's
 * top (`spoilers`) and ailerons carrying trim tabs drawn as their children (`tabs`). A hinge is right
 * within 2° and 5 % of the part's chord at both ends of its span; each part is counted right or wrong,
 * by its confidence, and warned (a warning names it) or silent; a part not rigged is `missed`.
 * `deno run -A tests/nodes/rig/krueger_tally.ts 11 13 48` prints seeds 11–13, 48 aircraft each.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { hingeError } from "./coarse_panels.ts";
import { kruegerAircraft } from "./krueger_flaps.ts";
import { rig } from "./pipeline.ts";

/** The habit families tallied. */
export const FAMILIES = ["named", "generic", "spoilers", "tabs"] as const;

/** Tallies one family over `count` aircraft of `seed`: counts by outcome, and the worst right hinge. */
export async function tallyFamily(
  family: (typeof FAMILIES)[number],
  seed: number,
  count: number,
): Promise<{ tally: Record<string, number>; worst: { degrees: number; offset: number } }> {
  const next = prng(seed);
  const tally: Record<string, number> = {}, worst = { degrees: 0, offset: 0 };
  for (let i = 0; i < count; i++) {
    const sample = kruegerAircraft(next, i, {
      generic: family === "generic",
      spoilers: family === "spoilers",
      tabs: family === "tabs",
    });
    const { report, ctx } = await rig(sample.scene);
    const parts = family === "spoilers" ? sample.spoilers! : family === "tabs" ? sample.tabs! : sample.panels;
    for (const panel of parts) {
      const part = report.parts.find((p) => p.panel === panel.name);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${panel.name}'`));
      let key = `missed ${warned ? "warned" : "silent"}`;
      if (part?.hinge) {
        const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
        const right = degrees <= 2 && offset <= 0.05 * panel.truth.chord;
        const confidence = (part.fit as unknown as { confidence: string }).confidence;
        key = `${right ? "right" : "wrong"} ${confidence} ${warned ? "warned" : "silent"}`;
        if (right) {
          worst.degrees = Math.max(worst.degrees, degrees);
          worst.offset = Math.max(worst.offset, offset / panel.truth.chord);
        }
      }
      tally[key] = (tally[key] ?? 0) + 1;
    }
  }
  return { tally, worst };
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 11),
    Number(Deno.args[1] ?? 13),
    Number(Deno.args[2] ?? 48),
  ];
  for (const family of FAMILIES) {
    for (let seed = from; seed <= to; seed++) {
      const { tally, worst } = await tallyFamily(family, seed, count);
      console.log(
        `${family} seed ${seed}: ${JSON.stringify(tally)}; worst right ${worst.degrees.toFixed(3)}°, ${
          (worst.offset * 100).toFixed(2)
        } % of chord`,
      );
    }
  }
}
