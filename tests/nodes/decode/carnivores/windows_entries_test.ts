/**
 * `decode.3df`'s `animations` entries as a graph made on Windows writes them — `Anims\RUN.VTL`, `\`
 * between folders, a trailing dot or space Explorer drops (`anims\run.vtl.`) — over the generated mod
 * folders of `mod_folders.ts`. Before decode.3df v17 every such entry named no file (a `.vtl` glob in a
 * `\` folder matched nothing: the clips were silently missing, or the read failed); held-out seeds
 * 101-200: see the report in the commit.
 *
 * @module
 */
import assert from "node:assert/strict";
import { decodeMod, judgeMod, type ModFolder, modFolder } from "./mod_folders.ts";
import { prng } from "../../../support/prng.ts";

/** `mod` with its entries spelled as on Windows: `\` separators, now and then a trailing dot or space. */
export function windowsSpelled(mod: ModFolder, seed: number): ModFolder {
  const next = prng(seed * 7919);
  const entries = mod.entries.map((e) => {
    const tail = next();
    return e.replaceAll("/", "\\") + (tail < 0.2 ? "." : tail < 0.3 ? " " : "");
  });
  return { ...mod, entries, label: `${mod.label} (written ${entries.join(", ")})` };
}

Deno.test("windows entries: `\\` separators and trailing dots find the clips a Windows graph names (seeds 1-40)", async () => {
  const wrong: string[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const mod = windowsSpelled(modFolder(seed), seed);
    const outcome = await decodeMod(mod);
    const { verdict, why } = judgeMod(mod, outcome);
    if (verdict !== "right") wrong.push(`${mod.label}: ${verdict} ${why}`);
    // The rewrite of each entry is said, naming the entry as written.
    for (const entry of mod.entries) {
      assert.ok(
        outcome.warnings.some((w) => w.includes(`${entry}' is read as`)),
        `${mod.label}: no word on ${entry}`,
      );
    }
  }
  assert.deepEqual(wrong, []);
});
