/**
 * Tallies of aircraft touching each other (`hangar_scenes.ts`: a touching pair among aircraft parked
 * clear, two pairs, a whole row wing over wing, a showcase line-up, and two modellers' aircraft whose
 * names barely overlap), where names cannot tell whose an object is: per panel, wrong (side, or hinge
 * off by more than 2° or 5 % of chord), wrong yet judged good (the worst: silent), and right yet judged
 * weak (needlessly). `deno run -A touching_tally.ts 201 202 [--verbose]` prints them for any seeds.
 *
 * @module
 */
import {
  BARELY_OVERLAPPING,
  HANGAR_FRAMES,
  hangarPart,
  hangarSample,
  LINE_UP,
  PARTLY_TOUCHING,
} from "./hangar_scenes.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";

/** Namings where names cannot tell whose an object is, and the layouts where aircraft touch. */
const CASES = [
  ...["shuffled_names", "mixed_conventions"].flatMap((naming) =>
    [...PARTLY_TOUCHING, "touching", LINE_UP].map((layout) => ({ naming, layout }))
  ),
  ...["pair_plus_one", "touching"].map((layout) => ({ naming: BARELY_OVERLAPPING, layout })),
] as const;

/** One tally: panels of touching aircraft only. */
export interface TouchingTally {
  panels: number;
  wrong: number;
  wrongGood: number;
  needlesslyWeak: number;
}

/**
 * The tally over `seeds`, every case and frame, with each wrong-and-good panel described (`verbose`:
 * every panel wrong or weak printed).
 */
export async function tallyTouching(seeds: readonly number[], verbose = false) {
  const tally: TouchingTally = { panels: 0, wrong: 0, wrongGood: 0, needlesslyWeak: 0 };
  const wrongGood: string[] = [];
  for (const seed of seeds) {
    for (const { naming, layout } of CASES) {
      for (const frame of HANGAR_FRAMES) {
        // deno-lint-ignore no-explicit-any
        const sample = hangarSample(seed, naming as any, layout as any);
        const { report } = await rig(sample.doc, frame);
        for (const panel of sample.panels) {
          if (!sample.touching!.has(panel.copy)) continue;
          const part = hangarPart(report.parts, panel);
          const good = (part?.fit as { confidence?: string } | undefined)?.confidence === "good";
          const error = part?.hinge && hingeError(panel.truth!, part.hinge.aircraft);
          const right = part?.side === panel.side && !!error && error.degrees <= 2 &&
            error.offset <= 0.05 * panel.truth!.chord;
          tally.panels++;
          if (!right) tally.wrong++;
          if (!right && good) {
            tally.wrongGood++;
            wrongGood.push(`${sample.description}: ${panel.name} ${part?.side} (${panel.side})`);
          }
          if (right && !good) tally.needlesslyWeak++;
          if (verbose && (!right || !good)) {
            console.log(
              `${sample.description} ${"forward" in frame ? "auto" : "given"}: ${panel.name} ` +
                `${part?.side} (${panel.side}) ${error?.degrees.toFixed(1)}° ${good ? "good" : "weak"}`,
            );
          }
        }
      }
    }
  }
  return { tally, wrongGood };
}

if (import.meta.main) {
  const verbose = Deno.args.includes("--verbose");
  const { tally, wrongGood } = await tallyTouching(
    Deno.args.filter((a) => a !== "--verbose").map(Number),
    verbose,
  );
  console.log(JSON.stringify(tally));
  console.log(wrongGood.slice(0, 20).join("\n"));
}
