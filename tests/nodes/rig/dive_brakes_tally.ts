/**
 * Dive brakes drawn open (`dive_brakes.ts`) tallied against the construction: right when the brake
 * turns (`ctrl_type: rotation`) within 2° and 5 % of its chord of its forward edge, the one in the skin;
 * a brake slid (`ctrl_type: translation`) or turned about another line is wrong. Each is counted by its
 * confidence and warned (a warning names it) or silent; one not rigged is `missed`.
 * `deno run -A tests/nodes/rig/dive_brakes_tally.ts 71 73 24` prints seeds 71–73, 24 aircraft each;
 * a fourth argument `arms` draws the plates hung on arms.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { hingeError } from "./coarse_panels.ts";
import { diveBomber } from "./dive_brakes.ts";
import { rig } from "./pipeline.ts";

/** Tallies `count` dive bombers of `seed`: counts by outcome (`slid` for a brake made to slide). */
export async function tallyDiveBrakes(
  seed: number,
  count: number,
  options: { arms?: boolean } = {},
): Promise<Record<string, number>> {
  const next = prng(seed);
  const tally: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const sample = diveBomber(next, i, undefined, options);
    const { report, ctx } = await rig(sample.scene);
    for (const brake of sample.brakes) {
      const part = report.parts.find((p) => p.panel === brake.name);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${brake.name}'`)) ? "warned" : "silent";
      let key = `missed ${warned}`;
      if (part?.hinge) {
        const confidence = (part.fit as unknown as { confidence: string }).confidence;
        const { degrees, offset } = hingeError(brake.truth, part.hinge.aircraft);
        const right = part.ctrl_type === "rotation" && degrees <= 2 && offset <= 0.05 * brake.truth.chord;
        key = `${
          part.ctrl_type === "translation" ? "slid" : right ? "right" : "wrong"
        } ${confidence} ${warned}`;
      }
      tally[key] = (tally[key] ?? 0) + 1;
    }
  }
  return tally;
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 71),
    Number(Deno.args[1] ?? 73),
    Number(Deno.args[2] ?? 24),
  ];
  for (let seed = from; seed <= to; seed++) {
    const arms = Deno.args[3] === "arms";
    console.log(
      `dive brakes seed ${seed}${arms ? " (arms)" : ""}: ${
        JSON.stringify(await tallyDiveBrakes(seed, count, { arms }))
      }`,
    );
  }
}
