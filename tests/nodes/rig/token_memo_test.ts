/**
 * Names read without a file's words are tokenised once each (`vocabulary_tokens.ts` `plainTokens`), in
 * a memo emptied when full. The rig asks for every part's name at each step in turn; with more names
 * than the memo held (8,192: 20,000 small panels, `deno task shapes`) it was emptied before any name was
 * asked again, and every name was read afresh at every step. Counted here as reads per name over
 * three passes (no clock), at 2,000 and 20,000 panels.
 */
import { ok as assert } from "node:assert/strict";
import { plainTokens } from "../../../nodes/rig/vocabulary_tokens.ts";

const KINDS = [
  "aileron_L",
  "aileron_R",
  "elevator_L",
  "rudder",
  "drag_rudder_L_upper",
  "flap_R",
  "spoiler_L",
];

Deno.test("name tokens: each name read once however many passes ask, at 2,000 and 20,000 panels", () => {
  const perName: number[] = [];
  for (const [count, tag] of [[2000, "a"], [20000, "b"]] as const) {
    // A panel's name and its pivot's, as the hostile shape's panels and rig.insert_pivot's pivots.
    const names = Array.from({ length: count }, (_, i) => `${KINDS[i % KINDS.length]}_${tag}${i}`)
      .flatMap((name) => [name, `HINGE_auto_${name}`]);
    let reads = 0;
    const read = (name: string) => (reads++, name.toLowerCase().split(/[^a-z]+/).filter((t) => t));
    for (let pass = 0; pass < 3; pass++) for (const name of names) plainTokens(name, read);
    perName.push(reads / names.length);
  }
  assert(perName.every((n) => n === 1), `reads a name over three passes: ${perName.join(", ")}`);
});
