/**
 * The sixth wave of tool habits (`mod_tools_wave6.ts`) through `graphs/freelancer.json`, judged by
 * `mod_tools_judge.ts`: each habit alone and several at once, on seeds not used while writing it
 * (development 1–6 and 1–60 for mixes; the held-out sweep 601–620).
 */
import assert from "node:assert/strict";
import { prng } from "../../../support/prng.ts";
import { HABITS6, modToolFile6 } from "./mod_tools_wave6.ts";
import { judge } from "./mod_tools_judge.ts";

Deno.test("Cmpnd and fragment layouts as UTF editors and converters leave them are read right or named", async () => {
  for (const habit of HABITS6) {
    for (let seed = 701; seed <= 702; seed++) {
      const { outcome, problems, warnings } = await judge(modToolFile6(habit, seed));
      assert.ok(
        outcome === "right" || outcome === "right-warned",
        `${habit} seed ${seed}: ${outcome} ${problems.join("; ")}\n${warnings.join("\n")}`,
      );
    }
  }
});

Deno.test("a file passed through several tools (two to four habits at once) is read right or named", async () => {
  for (let seed = 711; seed <= 716; seed++) {
    const random = prng(seed * 31 + 1);
    const habits = [...HABITS6].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 3));
    const { outcome, problems, warnings } = await judge(modToolFile6(habits, seed));
    assert.ok(
      outcome === "right" || outcome === "right-warned",
      `${habits.join("+")} seed ${seed}: ${outcome} ${problems.join("; ")}\n${warnings.join("\n")}`,
    );
  }
});
