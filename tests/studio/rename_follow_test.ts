/// <reference lib="dom" />
/**
 * What knows a node by its id follows its rename, in chromium: the last run's badge stays on the
 * renamed node (dimmed, as the graph is no longer the one that ran) and goes back with Undo
 * (undimmed); a renamed group node keeps its badge and its inner nodes theirs, and the group file's
 * tab, entered through it with Tab, still opens the group inside its parent.
 */
import { equal } from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, openStudio, statusReads, tabOut } from "./page_helpers.ts";
import { runTop, tabIn, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** The class of node `id`'s run badge (null: no badge). */
const badge = (page: Page, id: string) =>
  page.locator(`g.node[data-node="${id}"] text.badge`).getAttribute("class", { timeout: 2000 })
    .catch(() => null);

/** Renames the node `from` of the graph shown to `to` with F2. */
async function renameWithF2(page: Page, from: string, to: string): Promise<void> {
  await page.click(`g.node[data-node="${from}"] .title`);
  await page.keyboard.press("F2");
  await page.keyboard.type(to);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`g.node[data-node="${to}"]`);
}

Deno.test({
  name: "studio: a renamed node keeps its run badge, and a renamed group node its file tab's way in",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-rename-follow-" });
  const { top, inner } = await writeGroupGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    const { badge: ran } = await runTop(page, studio.url);
    equal(ran, "badge state-done");
    equal(await badge(page, "group"), "badge state-done");

    await t.step("the badge follows the node's id, dimmed; undo and redo take it along", async () => {
      await renameWithF2(page, "export", "glb_export");
      equal(await badge(page, "glb_export"), "badge state-done stale");
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: rename export to glb_export");
      await page.waitForSelector('g.node[data-node="export"]');
      equal(await badge(page, "export"), "badge state-done", "the graph that ran again: not dimmed");
      await page.keyboard.press("Control+Shift+z");
      await statusReads(page, "Redone: rename export to glb_export");
      equal(await badge(page, "glb_export"), "badge state-done stale");
      await checked(page, "valid");
    });

    await t.step("a renamed group node: its badge, its inner nodes' and its file's tab", async () => {
      await tabIn(page);
      await tabOut(page);
      await renameWithF2(page, "group", "parts");
      equal(await badge(page, "parts"), "badge state-done stale");
      await checked(page, "valid");
      // The tab goes back in through the renamed node, not to the group file as a top graph.
      await page.click(`.file-tab[data-path="${inner}"]`);
      await page.waitForFunction((i) => document.getElementById("crumbs")!.textContent!.endsWith(i), inner);
      equal(await page.textContent("#crumbs"), `${top} *  ›  ${inner}`);
      equal(await badge(page, "fighter"), "badge state-done stale", "the inner node's badge stays");
      // Undone (in the top graph), the tab goes in through the old name again.
      await tabOut(page);
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: rename group to parts");
      await page.click(`.file-tab[data-path="${inner}"]`);
      await page.waitForFunction((i) => document.getElementById("crumbs")!.textContent!.endsWith(i), inner);
      equal(await page.textContent("#crumbs"), `${top} *  ›  ${inner}`);
    });

    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
  }
});
