/// <reference lib="dom" />
/**
 * A graph file whose every node is at `[0, 0]` (an exporter's default), opened in chromium: every
 * node shows a spot the mouse reaches, a click there selects it, the status bar says what was laid
 * out, and the file stays as it was (no `*`) until a Save.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { unstackedNotice } from "../../studio/web/navigation.ts";
import { tempDir } from "../support/temp.ts";
import { messyLayout } from "./messy_layouts.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: nodes a file stacks on one spot are each in reach of the mouse, the file unchanged",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-stacked-" });
  const file = join(dir, "stacked.json");
  const { graph } = messyLayout("zeros", 10, 41);
  const text = JSON.stringify(graph, null, 2);
  await Deno.writeTextFile(file, text);
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    // Group Input, the ten nodes and Group Output were all at [0, 0]: all but the top one covered.
    equal(await page.textContent("#status"), unstackedNotice(11));
    // Each node: a point of it where the topmost element is the node's own (the mouse reaches it).
    const ids = await page.$$eval(
      "g.node[data-node]",
      (nodes) => nodes.map((n) => n.getAttribute("data-node")!),
    );
    equal(ids.length, 12);
    for (const id of ids) {
      const point = await page.$eval(`g.node[data-node="${id}"]`, (node) => {
        const box = node.getBoundingClientRect();
        for (let i = 1; i < 10; i++) {
          for (let j = 1; j < 10; j++) {
            const [x, y] = [box.left + box.width * i / 10, box.top + box.height * j / 10];
            if (document.elementFromPoint(x, y)?.closest("g.node") === node) return [x, y];
          }
        }
        return undefined;
      });
      assert(point, `${id}: no point of it the mouse reaches`);
      await page.mouse.click(point[0], point[1]);
      equal(
        await page.evaluate(() => (globalThis as unknown as StudioGlobal).studio.editor.selection.join()),
        id,
      );
    }
    assert(!(await page.textContent("#crumbs"))!.includes("*"), "not an unsaved edit");
    equal(await Deno.readTextFile(file), text, "the file is as it was");
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** The page's handle the tests read the editor through. */
type StudioGlobal = { studio: { editor: { selection: string[] } } };
