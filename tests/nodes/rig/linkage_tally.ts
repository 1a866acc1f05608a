/**
 * Tallies the rig on {@link linkageSample} (`linkage_habits.ts`) by habit, as `rough_tally.ts` does:
 * `deno run -A linkage_tally.ts 5000 5199 [habit]` prints wrong, wrong and judged good, silently
 * wrong and right-but-not-good surfaces.
 *
 * @module
 */
import { LINKAGE_HABITS, type LinkageHabit, linkageSample } from "./linkage_habits.ts";
import { judgeSample, type RoughVerdict } from "./rough_tally.ts";

/** Counts per habit over seeds `from`–`to`. */
export interface LinkageRow {
  scenes: number;
  panels: number;
  wrong: number;
  wrongGood: number;
  silent: number;
  alarms: number;
}

/** Rigs and judges seeds `from`–`to` (only `only`'s habit when given), calling `each` per scene. */
export async function tallyLinkages(
  from: number,
  to: number,
  only?: LinkageHabit,
  each?: (verdict: RoughVerdict) => void,
): Promise<Record<string, LinkageRow>> {
  const rows: Record<string, LinkageRow> = {};
  for (let seed = from; seed <= to; seed++) {
    const habit = LINKAGE_HABITS[seed % LINKAGE_HABITS.length];
    if (only && habit !== only) continue;
    const v = await judgeSample(linkageSample(seed));
    const row = rows[habit] ??= { scenes: 0, panels: 0, wrong: 0, wrongGood: 0, silent: 0, alarms: 0 };
    row.scenes++, row.panels += v.panels, row.wrong += v.wrong.length, row.wrongGood += v.wrongGood.length;
    row.silent += v.silent.length, row.alarms += v.alarms.length;
    each?.(v);
  }
  return rows;
}

if (import.meta.main) {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const rows = await tallyLinkages(from, to, Deno.args[2] as LinkageHabit | undefined, (v) => {
    if (v.wrong.length || v.alarms.length) console.log(v.description);
    if (v.wrong.length) console.log(`  wrong ${v.wrong.join("; ")}`);
    if (v.silent.length) console.log(`  SILENT ${v.silent.join("; ")}`);
    if (v.alarms.length) console.log(`  alarm ${v.alarms.join("; ")}`);
  });
  console.table(rows);
}
