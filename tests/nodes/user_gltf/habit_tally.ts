/**
 * The command line of a habit judge (`deno run -A <judge>.ts FROM TO [habit] [-v]`): for each habit
 * (or the one named), the files of seeds FROM..TO judged and counted right / warned / silent /
 * refused, and how many drew a warning a clean twin would not; `-v` prints every file not right.
 *
 * @module
 */

/** What a judge says of one habit file, read against its clean twin. */
export interface HabitJudgement {
  readonly outcome: "right" | "warned" | "silent" | "refused";
  /** Warnings the clean twin does not give. */
  readonly said: readonly string[];
  /** Names of the parts read otherwise than their twin's. */
  readonly differ: readonly string[];
  /** Warnings on a clean file, or on the case's clean twin. */
  readonly falseWarnings: readonly string[];
  readonly why: string;
}

/** Runs the tally over `Deno.args` with a generator (`make`) and a judge of its files. */
export async function tallyHabits<H extends string, F extends { name: string; variant: string }>(
  habits: readonly H[],
  make: (habit: H, seed: number) => F | Promise<F>,
  judge: (file: F) => Promise<HabitJudgement>,
): Promise<void> {
  const [from, to] = Deno.args.slice(0, 2).map(Number);
  const verbose = Deno.args.includes("-v");
  const only = Deno.args.find((a) => (habits as readonly string[]).includes(a)) as H | undefined;
  for (const habit of only ? [only] : habits) {
    const counts: Record<string, number> = { right: 0, warned: 0, silent: 0, refused: 0, falseWarned: 0 };
    for (let seed = from; seed <= to; seed++) {
      const file = await make(habit, seed);
      const j = await judge(file);
      counts[j.outcome]++;
      if (j.falseWarnings.length) counts.falseWarned++;
      if (verbose && (j.outcome !== "right" || j.falseWarnings.length)) {
        console.log(`  ${file.name} [${file.variant}] ${j.outcome}: ${j.why.slice(0, 200)}`);
        for (const w of j.said) console.log(`    said: ${w.slice(0, 300)}`);
        for (const w of j.falseWarnings) console.log(`    false: ${w.slice(0, 300)}`);
      }
    }
    console.log(`${habit}: ${JSON.stringify(counts)}`);
  }
}
