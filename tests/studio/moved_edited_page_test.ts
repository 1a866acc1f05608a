/// <reference lib="dom" />
/**
 * A graph moved and edited on disk while open, in chromium: Save asks whether the file that looks
 * like it (same name, most nodes alike) is where it went, and OK opens it in a new tab to compare —
 * nothing is written, neither there nor at the old path, and the page keeps its edit unsaved. Before,
 * Save only asked whether to write the old path again.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { wiredLayout } from "./wired_layouts.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: Save of a graph moved and edited on disk offers to open its look-alike, writing nothing",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-moved-edited-page-" });
  await Deno.mkdir(join(dir, "graphs", "archive"), { recursive: true });
  const file = join(dir, "graphs", "wing.json");
  const graph = wiredLayout("edited", 77);
  await Deno.writeTextFile(file, JSON.stringify(graph));
  // A look-alike from the same template that is not it.
  await Deno.writeTextFile(join(dir, "graphs", "tail.json"), JSON.stringify(wiredLayout("edited", 78)));
  const { studio, page, browser, errors, close } = await openStudio(dir, false);
  const dialogs: string[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.focus("#editor");
    await page.keyboard.press("Shift+L"); // an edit of the page's own: Arrange
    // `git mv graphs/wing.json graphs/archive/wing.json`, then an edit there.
    const moved = join(dir, "graphs", "archive", "wing.json");
    const edited = { ...graph, nodes: { ...graph.nodes, extra: { type: "rig.report" } } };
    await Deno.remove(file);
    await Deno.writeTextFile(moved, JSON.stringify(edited, null, 4));
    const text = await Deno.readTextFile(moved);
    const popup = browser.waitForEvent("page");
    await page.click("#save");
    const opened = await popup;
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.includes("to compare"));
    equal(dialogs.length, 1);
    assert(dialogs[0].includes("graphs/archive/wing.json looks like it (same name"), dialogs[0]);
    assert(opened.url().includes(encodeURIComponent("graphs/archive/wing.json")), opened.url());
    equal(await Deno.readTextFile(moved), text, "nothing written there");
    await Deno.stat(file).then(() => assert(false, "the old path is not written again"), () => {});
    assert((await page.textContent("#crumbs"))!.includes("*"), "the page keeps its edit, unsaved");
    await opened.close();
    equal(errors.filter((e) => !e.includes("status of 409")).join("\n"), "");
  } finally {
    await close();
  }
});
