/// <reference lib="dom" />
/**
 * Arrange in the page: Shift+L in the editor lays out a scattered graph (`wired_layouts.ts`) so that
 * no drawn node covers another, one Ctrl+Z puts every node back, and the toolbar's Arrange does the
 * same for the selected nodes only; Save writes positions only.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, statusReads } from "./page_helpers.ts";
import { wiredLayout } from "./wired_layouts.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** Each drawn node's position (its transform), by id. */
const positions = (page: Page) =>
  page.$$eval(
    "g.node",
    (gs) => Object.fromEntries(gs.map((g) => [g.getAttribute("data-node"), g.getAttribute("transform")])),
  );

/** Pairs of drawn nodes whose boxes on screen overlap. */
const overlapping = (page: Page) =>
  page.$$eval("g.node rect.body", (rects) => {
    const boxes = rects.map((r) => r.getBoundingClientRect());
    let pairs = 0;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        if (
          a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5
        ) {
          pairs++;
        }
      }
    }
    return pairs;
  });

Deno.test({
  name: "studio page: Shift+L arranges the graph (one undo step), the Arrange button the selection",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-arrange-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "tangle.json");
  const graph = wiredLayout("scatter", 211);
  await Deno.writeTextFile(file, JSON.stringify(graph));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    const opened = await positions(page);
    const before = await overlapping(page);
    assert(before > 0, `the scatter draws nodes over each other (${before} pairs)`);
    await page.focus("#editor");
    await page.keyboard.press("Shift+L");
    await page.waitForFunction(() =>
      document.getElementById("status")!.textContent!.startsWith("Arranged the graph")
    );
    equal(await overlapping(page), 0, "no node over another once arranged");
    assert(
      await page.evaluate(() => document.getElementById("crumbs")!.textContent!.includes("*")),
      "unsaved",
    );
    await page.keyboard.press("Control+z");
    await page.waitForFunction(() =>
      document.getElementById("status")!.textContent!.startsWith("Undone: arrange")
    );
    deepEqual(await positions(page), opened, "one undo puts every node back");
    // Two nodes selected: the button arranges them only.
    const ids = Object.keys(graph.nodes).slice(0, 2);
    await page.evaluate(
      (ids) =>
        (globalThis as unknown as { studio: { editor: { select(ids: string[]): void } } }).studio.editor
          .select(ids),
      ids,
    );
    await page.click("#arrange");
    await statusReads(page, "Arranged the 2 selected nodes: 2 node(s) moved (Ctrl+Z undoes)").catch(
      async () => {
        // Already where Arrange puts them: said so.
        await statusReads(page, "Arrange: the 2 selected nodes already arranged");
      },
    );
    const now = await positions(page);
    for (const [id, at] of Object.entries(opened)) {
      if (!ids.includes(id!)) equal(now[id], at, `${id} stays`);
    }
    await page.click("#save");
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    const saved = JSON.parse(await Deno.readTextFile(file));
    deepEqual(saved.nodes, graph.nodes, "Save wrote positions only");
    equal(errors.join("\n"), "");
  } finally {
    await close();
  }
});
