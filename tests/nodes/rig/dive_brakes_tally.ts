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
import { diveBomber, type DiveSample } from "./dive_brakes.ts";
import { confidenceOf, countIn, hingeWithin, warnsOf } from "./hinge_verdicts.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** One brake of a rigged dive bomber, judged against its construction. */
export interface DiveVerdict {
  /** The aircraft's index in its seed's run. */
  readonly index: number;
  readonly description: string;
  readonly brake: DiveSample["brakes"][number];
  /** Its part in the rig report; undefined when not rigged. */
  readonly part: ReportPart | undefined;
  readonly confidence: string | undefined;
  /** A warning names it. */
  readonly warned: boolean;
  /** Turned (not slid) within 2° and 5 % of its chord of its forward edge, the one in the skin. */
  readonly right: boolean;
}

/** Every brake of `count` dive bombers of `seed` (`options` as `diveBomber`'s), rigged and judged. */
export async function judgeDiveBrakes(
  seed: number,
  count: number,
  options: { arms?: boolean } = {},
): Promise<DiveVerdict[]> {
  const next = prng(seed);
  const verdicts: DiveVerdict[] = [];
  for (let index = 0; index < count; index++) {
    const sample = diveBomber(next, index, undefined, options);
    const result = await rig(sample.scene);
    for (const brake of sample.brakes) {
      const part = result.report.parts.find((p) => p.panel === brake.name);
      verdicts.push({
        index,
        description: sample.description,
        brake,
        part,
        confidence: confidenceOf(part),
        warned: warnsOf(result, brake.name),
        right: part?.ctrl_type === "rotation" && !!part.hinge &&
          hingeWithin(brake.truth, part.hinge.aircraft),
      });
    }
  }
  return verdicts;
}

/** Tallies `count` dive bombers of `seed`: counts by outcome (`slid` for a brake made to slide). */
export async function tallyDiveBrakes(
  seed: number,
  count: number,
  options: { arms?: boolean } = {},
): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  for (const { part, confidence, warned, right } of await judgeDiveBrakes(seed, count, options)) {
    const said = warned ? "warned" : "silent";
    countIn(
      tally,
      part?.hinge
        ? `${part.ctrl_type === "translation" ? "slid" : right ? "right" : "wrong"} ${confidence} ${said}`
        : `missed ${said}`,
    );
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
