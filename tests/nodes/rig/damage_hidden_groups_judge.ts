/**
 * Judges `damage_hidden_groups.ts` scenes as `damage_hidden_judge.ts` judges its own, with the frame
 * given and found by `"auto"`: a hidden copy is wrong when not rigged on its intact surface's hinge or
 * no longer hidden (shrunk, or under its display group); an intact surface when not rigged, off its hinge
 * or on the wrong side. Faults the same scene with its copies shown (`plainSample`) has too are the
 * aircraft's and are not counted. `deno run -A damage_hidden_groups_judge.ts 1 30` prints the tally.
 *
 * @module
 */
import { faultsOf, type HiddenVerdict } from "./damage_hidden_judge.ts";
import { plainSample } from "./damage_hidden.ts";
import { groupSample, shownHinge, stillGroupHidden } from "./damage_hidden_groups.ts";

/** Rigs the scene of `seed` in both frames and judges each surface and hidden copy. */
export async function judgeGroups(seed: number, scattered = false): Promise<HiddenVerdict> {
  const wrong: string[] = [], silent: string[] = [];
  let judged = 0, description = "";
  for (const frame of [{}, { forward: "auto", up: "auto" }] as Record<string, string>[]) {
    const sample = groupSample(seed, scattered), plain = plainSample(seed);
    description = sample.description;
    judged += sample.truths.length;
    const faults = await faultsOf(sample.doc, sample.truths, frame, stillGroupHidden, shownHinge);
    const before = await faultsOf(plain.doc, plain.truths, frame);
    for (const [name, { said, silent: unsaid }] of faults) {
      const truth = sample.truths.find((t) => t.name === name)!;
      if (before.has(truth.shownAs ?? name)) continue;
      wrong.push(said);
      if (unsaid) silent.push(said);
    }
  }
  return { description, judged, wrong, silent };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number), scattered = Deno.args.includes("--scattered");
  const rows: Record<string, { scenes: number; judged: number; wrong: number; silent: number }> = {};
  for (let seed = from; seed <= to; seed++) {
    const v = await judgeGroups(seed, scattered);
    const key = v.description.replace(/.*copies (\S+) \(.*/, "$1");
    const row = rows[key] ??= { scenes: 0, judged: 0, wrong: 0, silent: 0 };
    row.scenes++, row.judged += v.judged, row.wrong += v.wrong.length, row.silent += v.silent.length;
    if (v.wrong.length) console.log(`${v.description}\n  ${v.wrong.slice(0, 6).join("\n  ")}`);
  }
  console.table(rows);
}
