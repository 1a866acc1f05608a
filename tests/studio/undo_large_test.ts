/// <reference lib="dom" />
/**
 * Undo and redo on the graphs a script writes (hundreds to thousands of wired nodes, no positions):
 * each step gives back exactly the graph before (after) the edit, and is timed in the page (the time
 * is printed, not asserted: machines differ).
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, statusReads } from "./page_helpers.ts";
import { scriptGraph } from "./script_graphs.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = {
  studio: {
    editor: { history(d: "undo" | "redo"): void; select(ids: string[]): void; selection: string[] };
    current(): { graph: { nodes: Record<string, unknown> } };
  };
};

/** Runs undo (redo) in the page; returns the milliseconds until the next frame is laid out. */
function timed(page: Page, direction: "undo" | "redo"): Promise<number> {
  return page.evaluate(async (d) => {
    const t0 = performance.now();
    (globalThis as unknown as Studio).studio.editor.history(d);
    document.getElementById("editor")!.getBoundingClientRect();
    await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - t0;
  }, direction);
}

/** The node ids of the graph shown, as the page has them. */
const nodeIds = (page: Page) =>
  page.evaluate(() => Object.keys((globalThis as unknown as Studio).studio.current().graph.nodes));

for (const count of [750, 5000]) {
  Deno.test({
    name: `studio: undo and redo on a script's ${count}-node graph give back the graph (timed)`,
    ignore: !!missing,
    sanitizeOps: false,
    sanitizeResources: false,
  }, async () => {
    const dir = await tempDir({ prefix: "studio-undo-large-" });
    await Deno.mkdir(join(dir, "graphs"));
    const file = join(dir, "graphs", "generated.json");
    const graph = scriptGraph(count, count);
    await Deno.writeTextFile(file, JSON.stringify(graph));
    const { studio, page, errors, close } = await openStudio(dir, false);
    try {
      await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
      await page.waitForSelector("body[data-ready=true]");
      const before = await nodeIds(page);
      const [victim] = before;
      await page.evaluate((id) => (globalThis as unknown as Studio).studio.editor.select([id]), victim);
      await page.focus("#editor");
      await page.keyboard.press("Delete");
      await statusReads(page, `Deleted ${victim}`).catch(() => {});
      const afterDelete = await nodeIds(page);
      equal(afterDelete.length, before.length - 1, "the delete took");
      const times: Record<string, number[]> = { undo: [], redo: [] };
      for (let round = 0; round < 3; round++) {
        times.undo.push(await timed(page, "undo"));
        deepEqual(await nodeIds(page), before, "undo gives back the graph before the delete");
        times.redo.push(await timed(page, "redo"));
        deepEqual(await nodeIds(page), afterDelete, "redo deletes it again");
      }
      const ms = (list: number[]) => list.map((t) => t.toFixed(0)).join(", ");
      console.log(`${count} nodes: undo ${ms(times.undo)} ms; redo ${ms(times.redo)} ms`);
      assert(await page.locator("#status").textContent().then((t) => t!.startsWith("Redone: delete")));
      deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
