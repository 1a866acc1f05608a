/**
 * Warnings on V-tails that are rigged right, tallied: the V-tail scenes of `fin_horns.ts` (each
 * ruddervator its own object named with its side, canted 35–65°, roots meeting across the centre
 * plane as real V-tails' do, horns or none) rigged, and each right surface's warnings counted by kind.
 * Right: rigged, its side right, its hinge within 2° and 5 % of its chord of the construction's.
 * `deno run -A v_tail_noise.ts 40000 40199` prints it (V-tail seeds are those ≡ 4 mod 5).
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { FIN_LAYOUTS, finHornSample } from "./fin_horns.ts";
import { rig } from "./pipeline.ts";

/** Warning kinds told apart by their words. */
const KINDS: [string, RegExp][] = [
  ["not cut", /one connected piece spanning both sides/],
  ["sits on the centre line", /sits on the centre line/],
  ["weak fit", /hinge fit is weak/],
];

/** Counts over the V-tail seeds in `from`–`to`: surfaces, right ones, right ones warned, by kind. */
export async function tallyVTailNoise(
  from: number,
  to: number,
  each?: (line: string) => void,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = { surfaces: 0, right: 0, wrong: 0, rightWarned: 0 };
  for (let seed = from; seed <= to; seed++) {
    if (FIN_LAYOUTS[seed % FIN_LAYOUTS.length] !== "v_tail") continue;
    const sample = finHornSample(seed);
    const { report, ctx } = await rig(sample.doc);
    for (const truth of sample.truths) {
      counts.surfaces++;
      const part = report.parts.find((p) => p.panel === truth.name);
      const error = part?.hinge && hingeError(truth, part.hinge.world);
      const right = !!error && part?.side === truth.side && error.degrees <= 2 &&
        error.offset <= 0.05 * truth.chord;
      if (!right) {
        counts.wrong++;
        continue;
      }
      counts.right++;
      const said = ctx.warnings.filter((w) => w.message.includes(`'${truth.name}'`)).map((w) => w.message);
      if (said.length) counts.rightWarned++;
      for (const [kind, words] of KINDS) {
        if (said.some((m) => words.test(m))) counts[kind] = (counts[kind] ?? 0) + 1;
      }
      if (said.length) each?.(`seed ${seed} ${truth.name}: ${said.map((m) => m.slice(0, 90)).join(" | ")}`);
    }
  }
  return counts;
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  console.log(await tallyVTailNoise(from, to, (line) => console.log(line)));
}
