/**
 * V-tails whose ruddervators are objects of their own meeting across the centre plane
 * (`v_tail_noise.ts`) are rigged right and not warned that they are one piece left uncut or that a
 * side-named surface sits on the centre line: each is one side of a mirrored pair, its partner the
 * other (`mirror_image.ts`). Held-out seeds 41000–41299: of 120 right surfaces, 107 warned → 20 (the
 * weak fits of V-tails under 60° with a horn below, by design).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { tallyVTailNoise } from "./v_tail_noise.ts";

Deno.test("V-tails meeting across the centre plane: right, and no one-piece or centre-line false alarm", async () => {
  const lines: string[] = [];
  const counts = await tallyVTailNoise(42000, 42099, (line) => lines.push(line));
  console.log(JSON.stringify(counts));
  assertEquals(
    {
      right: counts.right,
      wrong: counts.wrong,
      notCut: counts["not cut"] ?? 0,
      centred: counts["sits on the centre line"] ?? 0,
    },
    { right: counts.surfaces, wrong: 0, notCut: 0, centred: 0 },
    lines.join("\n"),
  );
});
