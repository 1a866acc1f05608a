/**
 * `decode.auto` on `.car`/`.3df` files as tools and users save them (`tool_saves.ts`): renamed to
 * another extension or none, padded after their last byte, their name field rewritten — read by their
 * content, a renamed file named as such. Before, a padded file or one named `.bin`, `.dat` or nothing
 * was "unrecognised bytes", and a `.car` named `.3df` went to `decode.3df`, which refused it.
 */
import assert from "node:assert/strict";
import { type ToolSave, toolSaveOutcome } from "./tool_saves.ts";

/** Habits that leave the file's own sections whole: such a file must always be read right. */
const WHOLE: readonly ToolSave[] = [
  "renamed_extension",
  "padded_block",
  "dos_eof",
  "junk_bytes",
  "name_rewritten",
];

Deno.test("tool saves: renamed, padded and re-headed .car/.3df files are read by content and named", async () => {
  const failures: string[] = [];
  let renamed = 0;
  for (let seed = 1001; seed <= 1030; seed++) {
    const result = await toolSaveOutcome(seed);
    const { habits, name } = result.file;
    // Whatever the habits, a file is never read silently wrong.
    if (result.outcome === "wrong_silent") failures.push(`${seed} ${name}: silently wrong: ${result.detail}`);
    if (habits.every((h) => WHOLE.includes(h))) {
      if (result.outcome !== "right") {
        failures.push(`${seed} ${name} (${habits}): ${result.outcome} ${result.detail}`);
      }
      if (result.said === false) failures.push(`${seed} ${name}: renamed, not said`);
      if (result.said) renamed++;
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(renamed > 0, "the sample has renamed files");
});
