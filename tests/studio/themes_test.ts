/**
 * The studio's tests run as a few themes (`themes/*.ts`), each importing the test modules of one theme
 * into one isolate, as `deno task test` runs them. Run a module each, every module paid to evaluate
 * the runtime (about 1.3 CPU-s), to open its first page in the shared chromium (2.5–3.5 CPU-s) and to
 * connect to that chromium, ~40 times a run; a theme pays it once, its modules sharing the kept page
 * (`page_helpers.ts`). Its tests run one after another in the order the theme imports them, under their
 * own names; `deno test tests/studio/x_test.ts` still runs any module on its own.
 *
 * A test module no theme imports would never run in CI, and one two themes import would run twice:
 * this test requires every `*_test.ts` here to be imported by exactly one theme, and the test task to
 * run the themes (not the folder, which would run every module again on its own).
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL("./", import.meta.url));
const DENO_JSON = fileURLToPath(new URL("../../deno.json", import.meta.url));

/** A theme's imports of test modules beside it (`import "../x_test.ts";`). */
const IMPORT = /^import\s+"\.\.\/([^"/]+)";/gm;

Deno.test("studio themes: every studio test module runs in exactly one theme, and the test task runs the themes", async () => {
  const modules = [...Deno.readDirSync(HERE)]
    .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
    .map((e) => e.name)
    .sort();
  const themes = [...Deno.readDirSync(`${HERE}themes`)]
    .filter((e) => e.isFile && e.name.endsWith(".ts"))
    .map((e) => e.name)
    .sort();
  const importedBy = new Map<string, string[]>();
  for (const theme of themes) {
    const text = await Deno.readTextFile(`${HERE}themes/${theme}`);
    for (const [, module] of text.matchAll(IMPORT)) {
      importedBy.set(module, [...importedBy.get(module) ?? [], theme]);
    }
  }
  const wrong = [
    ...modules.filter((m) => importedBy.get(m)?.length !== 1)
      .map((m) => `${m}: imported by ${JSON.stringify(importedBy.get(m) ?? [])}`),
    ...[...importedBy.keys()].filter((m) => !modules.includes(m)).map((m) => `${m}: imported, not here`),
  ];
  deepEqual(wrong, [], "each studio test module in exactly one theme");

  const task: string = JSON.parse(await Deno.readTextFile(DENO_JSON)).tasks.test;
  const studioRuns = task.split(/&&|&|;/).filter((part) => part.includes("tests/studio"));
  deepEqual(
    studioRuns.map((run) => run.trim().split(/\s+/).filter((arg) => arg.startsWith("tests/studio"))),
    [["tests/studio/themes/*.ts"]],
    "the test task runs the studio's themes, once",
  );
});
