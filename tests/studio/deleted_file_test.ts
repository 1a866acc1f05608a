/// <reference lib="dom" />
/**
 * A graph file deleted or moved on disk while the page has it open (a branch switched, a clean-up
 * script, a rename in the file manager), in chromium: Save does not silently make it again — the
 * server answers 409 `deleted` to a save with the digest the page opened, the page asks, and only a
 * yes writes it; a no keeps the edits unsaved and says why.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, statusReads } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = { studio: { editor: { select(ids: string[]): void } } };

Deno.test({
  name: "studio: Save of a graph deleted on disk while open asks before writing it again",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-deleted-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "wing.json");
  const graph = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      panels: { type: "rig.detect_panels", inputs: { scene: "fighter.scene" } },
    },
    outputs: { scene: "panels.scene" },
  };
  await Deno.writeTextFile(file, JSON.stringify(graph));
  const { studio, page, errors, close } = await openStudio(dir, false);
  const dialogs: string[] = [];
  const answers: boolean[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (answers.shift() ? dialog.accept() : dialog.dismiss());
  });
  try {
    // The server's answer to a save based on the file as opened, now gone: 409, nothing written.
    const opened = await (await fetch(`${studio.url}api/graph?path=${encodeURIComponent(file)}`)).json();
    await Deno.remove(file);
    const raw = await fetch(`${studio.url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: file, graph, base: opened.digest }),
    });
    equal(raw.status, 409);
    deepEqual(await raw.json(), {
      error: `${file} was deleted or moved on disk since this page opened it: not written again`,
      changed: true,
      deleted: true,
    });
    await Deno.stat(file).then(() => assert(false, "made again"), () => {});

    await Deno.writeTextFile(file, JSON.stringify(graph));
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await Deno.remove(file);
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["panels"]));
    await page.focus("#editor");
    await page.keyboard.press("Delete");
    answers.push(false);
    await page.click("#save");
    await statusReads(page, `${file} was deleted or moved on disk since it was opened: not written again`);
    deepEqual(dialogs, [
      `${file} was deleted or moved on disk since this page opened it: not written again. Write it again from this page?`,
    ]);
    await Deno.stat(file).then(() => assert(false, "made again though the user said no"), () => {});
    equal(await page.textContent("#crumbs"), `${file} *`, "the edit is still unsaved");

    answers.push(true);
    await page.click("#save");
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
    const saved = JSON.parse(await Deno.readTextFile(file));
    deepEqual(Object.keys(saved.nodes), ["fighter"], "written again, with the edit");
    equal(dialogs.length, 2);
    // The two 409s are the server's answers; nothing else failed.
    deepEqual(errors.filter((e) => !e.includes("status of 409")), []);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
