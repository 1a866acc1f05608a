/**
 * Surfaces in pieces sided by the file's own letters (`lettered_pieces.ts`): a butterfly or inverted V
 * tail whose surfaces meet at the centre line, each in two pieces, named `…_L`/`…_P` (Polish) or
 * `…_P`/`…_S` (port, starboard). The right surface's pieces must not join the left's as pieces of one
 * surface: read alone, `P` states no side, so nothing kept them apart (rig.fit_hinge v63 reads them
 * with the file's words, `surface_pieces.ts`). Every piece must rig right: kind, side, hinge within 2°
 * and 5 % of chord.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { heldOut } from "../../support/heldout.ts";
import { LETTERS } from "./lettered_pieces.ts";
import { type LetteredTally, tallyLettered } from "./lettered_pieces_tally.ts";

Deno.test("V tails in pieces sided by the file's letters: no piece joins the other side's surface", async () => {
  // Seeds 1-3 (each of the three words: Ruddervator, Ster_wysokosci, Elevator; each piece naming) in
  // the suite, 1-6 under `deno task heldout`. With surface_pieces.ts reading sides without the file's
  // words (13cd73b3 undone), seeds 1-6: 16 of 96 right (the rest joined across the centre line, up to
  // 70° and 4.7 chords off); with Polish `ster wysokosci` read as no kind word by the pairing
  // (vocabulary_pairs.ts before), 72 of 96 (its P unpaired: both sides one surface).
  for (const layout of ["butterfly", "inverted"] as const) {
    for (const letters of LETTERS) {
      const tally: LetteredTally = { right: 0, warned: 0, silent: 0, wrong: [] };
      const seeds = heldOut([1, 2, 3, 4, 5, 6], (seed) => seed <= 3);
      for (const seed of seeds) await tallyLettered(seed, layout, letters, tally);
      assertEquals({ layout, letters, wrong: tally.wrong }, { layout, letters, wrong: [] });
    }
  }
});
