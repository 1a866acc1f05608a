/// <reference lib="dom" />
/**
 * The page with the keyboard only: Tab leaves the node editor when there is no group to open or go
 * back from (it trapped the focus), and an issue, a search result or a file tab is reached with Tab
 * and taken with Enter, as a click takes it.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** Presses Tab until the focused element matches `selector` (at most 100 times); returns its text. */
async function tabTo(page: Page, selector: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    await page.keyboard.press("Tab");
    const hit = await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
    if (hit) return await page.evaluate(() => document.activeElement!.textContent ?? "");
  }
  throw new Error(`Tab never reached ${selector}`);
}

const selection = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { studio: { editor: { selection: string[] } } }).studio.editor.selection
  );

Deno.test({
  name: "studio page: keyboard only — Tab leaves the editor; issues, search results and file tabs take Enter",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-keys-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "ship.json");
  // A decode whose bytes are not wired: the check reports it.
  await Deno.writeTextFile(file, JSON.stringify({ version: 1, nodes: { decode: { type: "decode.auto" } } }));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.waitForSelector("#issues li");
    await page.focus("#editor");
    await page.keyboard.press("Tab");
    assert(await page.evaluate(() => document.activeElement?.id !== "editor"), "Tab left the editor");
    const issue = await tabTo(page, "#issues li");
    assert(issue.includes("/nodes/decode"), issue);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelector("g.node.selected")?.getAttribute("data-node") === "decode"
    );
    deepEqual(await selection(page), ["decode"]);
    // A search result other than the first, taken with Enter.
    await page.focus("#node-search");
    await page.keyboard.type("export");
    const result = await tabTo(page, "#node-results li");
    await page.keyboard.press("Enter");
    await page.waitForSelector(`g.node[data-node="${result.split(".").pop()}"]`);
    // A file tab: the page shows the file (here the one open), and Enter on it keeps the page usable.
    const tab = await tabTo(page, "#files .file-tab");
    equal(tab.replace(" *", ""), "ship.json");
    await page.keyboard.press("Enter");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
