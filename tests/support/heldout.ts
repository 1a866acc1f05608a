/**
 * Long held-out sweeps, sampled in the suite. A test that sweeps hundreds of generated cases keeps in
 * `deno task test` a sample chosen to still fail before each fix the sweep guards (every naming, layout,
 * frame… at least once), and runs every case under `deno task heldout` (`scripts/heldout.ts` runs the
 * test modules that import this one, with `-- --heldout`). The suite stays well under ten minutes on
 * two cores; the full sweeps stay one command away.
 *
 * @module
 */

/** True under `deno task heldout` (the test process was given `-- --heldout`): run every case. */
export const HELD_OUT: boolean = Deno.args.includes("--heldout");

/**
 * All cases under `deno task heldout`; in the suite, those `inSuite` keeps.
 *
 * @example
 * ```ts
 * const seeds = heldOut([201, 202, 203, 204], (_, i) => i < 2); // [201, 202] in the suite
 * ```
 */
export function heldOut<T>(all: readonly T[], inSuite: (item: T, index: number) => boolean): T[] {
  return HELD_OUT ? [...all] : all.filter(inSuite);
}

/** A count (of fuzz iterations, generated cases…): `full` under `deno task heldout`, `suite` in the suite. */
export function heldOutCount(full: number, suite: number): number {
  return HELD_OUT ? full : suite;
}
