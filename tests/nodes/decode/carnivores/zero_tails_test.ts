/**
 * `.car` files with zeros where the parser may look for clips (`zero_tails.ts`): a tail of zeros after
 * the file, clips a tool wrote without data, a clip count raised over the zeros, a tail exactly as long
 * as a repair that reads one more frame a clip needs. Before, the count repairs took zero bytes for
 * clip headers of no name, KPS 0 and 0 frames (44 "clips" of zeros, 150 warnings for one file) or for
 * frames of the last clip; now a blank header where no stored count puts a clip is no clip, frames of
 * zeros are no evidence, and clips that share a fault are one warning.
 */
import assert from "node:assert/strict";
import { parseCar } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { NOISY_WARNINGS, type ZeroTail, zeroTailOutcome } from "./zero_tails.ts";

/**
 * Habits whose clips the file tells apart from the zeros. `zero_tail_rsc_counts` is not among them
 * when its clips are blank: frames of zeros whose counts are all one short read exactly as zeros.
 */
const TOLD: readonly ZeroTail[] = [
  "zero_tail",
  "zero_tail_blank_clips",
  "zero_tail_count_raised",
  "zero_tail_headers",
];

Deno.test("zero tails: no clip is read from zeros, and a file's warnings stay few", () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    for (const habit of TOLD) {
      const result = zeroTailOutcome(seed, parseCar, habit);
      if (result.outcome !== "right") failures.push(`${seed} ${habit}: ${result.outcome} ${result.detail}`);
      if (result.warnings > NOISY_WARNINGS) failures.push(`${seed} ${habit}: ${result.warnings} warnings`);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("zero tails: clips all stored one short over a tail of zeros are never read silently wrong", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const result = zeroTailOutcome(seed, parseCar, "zero_tail_rsc_counts");
    assert.notEqual(result.outcome, "wrong_silent", `${seed}: ${result.detail}`);
    assert.ok(result.warnings <= NOISY_WARNINGS, `${seed}: ${result.warnings} warnings`);
  }
});

Deno.test("zero tails: clips with frames all stored one short over a tail of zeros are read right, never refused", () => {
  // Seed 7021 (3 named clips, 47 KB of zeros) was refused: a single corrected count read frame data as
  // the next clips' headers, ending in the zeros, which kept the every-clip correction from being
  // tried. Headers a corrected reading reads as clips must hold names when the first does; with clips
  // of no name (60595) the last pass goes on past readings the file does not vouch for; a count is not
  // raised over a frame of zeros even with a real frame before it (50523: a tail one frame long).
  const failures: string[] = [];
  let told = 0;
  for (const seed of [...Array.from({ length: 40 }, (_, i) => 7001 + i), 50523, 60595]) {
    const result = zeroTailOutcome(seed, parseCar, "zero_tail_rsc_counts");
    if (result.file.blank) continue;
    told++;
    if (result.outcome !== "right") failures.push(`${seed}: ${result.outcome} ${result.detail}`);
  }
  assert.ok(told >= 20, `${told} files with frames`);
  assert.deepEqual(failures, []);
});
