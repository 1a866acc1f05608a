/**
 * Fowler flaps (`fowler_flaps.ts`) tallied against the construction: each flap's hinge right (within
 * 2° and 5 % of its chord of its forward edge) or wrong, its confidence, and whether a warning names it
 * as a Fowler flap whose travel aft is not modelled (`fowler warned`) or nothing says so (`silent`); a
 * plain flap so warned is a false alarm. `deno run -A tests/nodes/rig/fowler_flaps_tally.ts 31 33 24`.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { type FlapFamily, fowlerAircraft } from "./fowler_flaps.ts";
import { rig } from "./pipeline.ts";
import { confidenceOf, countIn, hingeWithin } from "./hinge_verdicts.ts";

/** The families tallied. */
export const FAMILIES: readonly FlapFamily[] = ["airliner", "bizjet", "plain"];

/** Tallies one family over `count` aircraft of `seed`. */
export async function tallyFowler(
  family: FlapFamily,
  seed: number,
  count: number,
): Promise<Record<string, number>> {
  const next = prng(seed);
  const tally: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const sample = fowlerAircraft(next, i, family);
    const { report, ctx } = await rig(sample.scene);
    for (const flap of sample.flaps) {
      const part = report.parts.find((p) => p.panel === flap.name);
      const said = ctx.warnings.some((w) => w.message.includes(`'${flap.name}'`) && /Fowler/.test(w.message));
      const what = `${flap.fowler ? "fowler" : "plain"}${flap.named ? " named" : ""} tracks ${flap.tracks}`;
      countIn(
        tally,
        part?.hinge
          ? `${what}: ${hingeWithin(flap.truth, part.hinge.aircraft) ? "right" : "wrong"} ${
            confidenceOf(part)
          } ${said ? "fowler warned" : "silent"}`
          : `${what}: missed`,
      );
    }
  }
  return tally;
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 31),
    Number(Deno.args[1] ?? 33),
    Number(Deno.args[2] ?? 24),
  ];
  for (const family of FAMILIES) {
    for (let seed = from; seed <= to; seed++) {
      console.log(`${family} seed ${seed}: ${JSON.stringify(await tallyFowler(family, seed, count))}`);
    }
  }
}
