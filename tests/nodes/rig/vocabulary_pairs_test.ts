/**
 * `kindPairedLetters` on a file of very many names of one kind (a game rip's 40,000 numbered aileron
 * pieces): it grew each kind's list by copying it per name, quadratic — 40,000 names took ~20 s. Now
 * linear, and each kind's letters are still those its names pair on their own (`pairedLetters`).
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

Deno.test("kindPairedLetters reads 40,000 names of one kind in linear time, each kind's own letters", () => {
  for (const seed of [31, 32]) {
    const names = manyNames(seed, 40_000);
    const start = performance.now();
    const byKind = kindPairedLetters(names);
    const seconds = (performance.now() - start) / 1000;
    // Quadratic, this took ~20 s on the development machine; linear, ~0.2 s.
    assert(seconds < 4, `kindPairedLetters took ${seconds.toFixed(2)} s on 40,000 names`);
    const ailerons = names.filter((n) => n.startsWith("Aileron_"));
    assertEquals(byKind.get("aileron"), pairedLetters(ailerons));
    assert(byKind.size > 0);
  }
});
