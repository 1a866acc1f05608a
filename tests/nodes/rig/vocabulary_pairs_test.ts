/**
 * `kindPairedLetters` on a file of very many names of one kind (a game rip's numbered aileron pieces):
 * each kind's letters are those its names pair on their own (`pairedLetters`). It grew each kind's list
 * by copying it per name (40,000 names ~20 s); now it appends in place (~0.2 s).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { kindPairedLetters, pairedLetters } from "../../../nodes/rig/vocabulary_pairs.ts";

/** Seeded names: mostly one kind, numbered, sides in several habits (port/starboard, D/G, none). */
function manyNames(seed: number, count: number): string[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const kinds = ["Aileron", "Flap", "Elevator", "Rudder", "Lotka", "Querruder"];
  const sides = ["_L", "_R", "_P", "_S", ".l", "Left", "_D", "_G", ""];
  return Array.from(
    { length: count },
    () => `${rnd() < 0.8 ? "Aileron" : pick(kinds)}_${Math.floor(rnd() * 1e6)}${pick(sides)}`,
  );
}

Deno.test("kindPairedLetters on 4,000 names mostly of one kind gives each kind its own names' letters", () => {
  // Its speed (40,000 names: ~20 s quadratic before, ~0.2 s now) is a bench matter, not a timed assertion.
  for (const seed of [31, 32]) {
    const names = manyNames(seed, 4_000);
    const byKind = kindPairedLetters(names);
    const ailerons = names.filter((n) => n.startsWith("Aileron_"));
    assertEquals(byKind.get("aileron"), pairedLetters(ailerons));
    assert(byKind.size > 0);
  }
});
