/**
 * Tallies the rig on {@link hiddenOwnSample} (`hidden_own.ts`) with `damage_hidden_judge.ts`'s verdict
 * (off over 5° or 2 % of the span, wrong side, or a hidden node shown), in the frame given and found by
 * `"auto"`: faults the same scene drawn with
 * its copies' damage names and nothing hidden has too are the aircraft's and not counted.
 * `deno run -A hidden_own_tally.ts 300 339` prints the tally.
 *
 * @module
 */
import { faultsOf } from "./damage_hidden_judge.ts";
import { hiddenOwnSample } from "./hidden_own.ts";

/** Counts of one layout. */
export interface HiddenOwnRow {
  scenes: number;
  judged: number;
  wrong: number;
  silent: number;
}

/** Rigs and judges seeds `from`–`to`, per layout, calling `each` with a scene's wrong lines. */
export async function tallyHiddenOwn(
  from: number,
  to: number,
  each?: (description: string, wrong: string[], silent: string[]) => void,
): Promise<Record<string, HiddenOwnRow>> {
  const rows: Record<string, HiddenOwnRow> = {};
  for (let seed = from; seed <= to; seed++) {
    const wrong: string[] = [], silent: string[] = [];
    let sample = hiddenOwnSample(seed);
    for (const frame of [{}, { forward: "auto", up: "auto" }] as Record<string, string>[]) {
      sample = hiddenOwnSample(seed);
      const faults = await faultsOf(sample.doc, sample.truths, frame);
      const before = await faultsOf(sample.plain, sample.plainTruths, frame);
      const aircraft = new Set([...before.keys()].map((name) => sample.renamed.get(name) ?? name));
      for (const [name, { said, silent: unsaid }] of faults) {
        if (aircraft.has(name)) continue;
        wrong.push(said);
        if (unsaid) silent.push(said);
      }
    }
    const row = rows[sample.layout] ??= { scenes: 0, judged: 0, wrong: 0, silent: 0 };
    row.scenes++, row.judged += 2 * sample.truths.length, row.wrong += wrong.length;
    row.silent += silent.length;
    each?.(sample.description, wrong, silent);
  }
  return rows;
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  const rows = await tallyHiddenOwn(from, to, (description, wrong, silent) => {
    if (!wrong.length) return;
    console.log(`${description}\n  ${wrong.slice(0, 6).join("\n  ")}`);
    if (silent.length) console.log(`  SILENT ${silent.length}`);
  });
  console.table(rows);
}
