/**
 * The second wave of mod-tool and hand-edit habits (`mod_tools_wave2.ts`) through
 * `graphs/freelancer.json`, judged by `mod_tools_judge.ts` against each file's truth. The seeds here
 * are not those the decoder was measured on while it was changed (1–10).
 */
import assert from "node:assert/strict";
import { type Habit, HABITS, modToolFile2 } from "./mod_tools_wave2.ts";
import { judge } from "./mod_tools_judge.ts";

const SEEDS = [301, 302, 303, 304];

/** Habits the game and every reader take alike: nothing to say. */
const SILENT: readonly Habit[] = ["single_level", "cons_case", "root_not_first", "sur_beside"];

for (const habit of HABITS) {
  Deno.test(`mod tools wave 2, ${habit}: geometry, hardpoints and joint ranges as written, named when odd`, async () => {
    for (const seed of SEEDS) {
      const file = modToolFile2(habit, seed);
      const { outcome, problems, warnings } = await judge(file);
      const label = `${habit} seed ${seed}: ${outcome} ${problems.join("; ")}\n${warnings.join("\n")}`;
      assert.ok(outcome === "right" || outcome === "right-warned", label);
      if (SILENT.includes(habit)) assert.deepEqual(warnings, [], label);
      if (habit === "mirrored_sphere" || habit === "mirrored_cyl") {
        // The mirrored copy's reversed limits are the original's negated: read without a word.
        assert.ok(!warnings.some((w) => w.includes("limits stored as")), label);
      }
      if (habit === "fix_skewed" && file.truth.named?.length) {
        // A sheared matrix: the shear is lost on the mesh, the hardpoints sit where the game puts them.
        assert.ok(
          warnings.some((w) =>
            /shear is lost on its mesh.*hardpoint\(s\) below it are placed where the stored matrices/.test(w)
          ),
          label,
        );
      }
      if (habit === "two_refs") {
        assert.equal(warnings.filter((w) => /Librelancer refuses the part/.test(w)).length, 1, label);
      }
    }
  });
}
