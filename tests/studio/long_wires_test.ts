/// <reference lib="dom" />
/**
 * A script's graph of 5,000 nodes whose 1,666 outputs name a socket the export node no longer has
 * (written for an older version): every output wire is reported (red, dashed) and runs from its row
 * to Group Output, up to 280,000 canvas units away. The page opens it drawing only the parts of those
 * wires around the view (it froze for a minute per frame drawing them whole), and a pan draws the
 * parts it brings in.
 */
import { ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, panOneViewDown } from "./page_helpers.ts";
import { scriptGraph } from "./script_graphs.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** The longest drawn wire, and the editor's view size, in canvas units. */
const measure = () => {
  type Editor = { view: { scale: number } };
  const editor = (globalThis as unknown as { studio: { editor: Editor } }).studio.editor;
  const svg = document.getElementById("editor")!.getBoundingClientRect();
  const wires = [...document.querySelectorAll<SVGPathElement>("path.wire")];
  return {
    bad: document.querySelectorAll("path.wire.bad").length,
    longest: Math.max(...wires.map((w) => w.getTotalLength())),
    view: Math.max(svg.width, svg.height) / editor.view.scale,
  };
};

Deno.test({
  name: "studio: a 5,000-node graph's long reported wires are drawn around the view only",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-long-wires-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "generated.json");
  await Deno.writeTextFile(file, JSON.stringify(scriptGraph(5000, 7, "glb")));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    const t0 = performance.now();
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.waitForFunction(() => document.getElementById("issue-count")!.textContent !== "");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    console.log(`opened and drawn in ${(performance.now() - t0).toFixed(0)} ms`);
    const first = await page.evaluate(measure);
    assert(first.bad > 0, "the outputs' wires are reported");
    // The drawn box is the view and half a view around it: no drawn wire is much longer than that.
    assert(first.longest < 6 * first.view, `longest wire ${first.longest} for a view of ${first.view}`);
    await panOneViewDown(page);
    const panned = await page.evaluate(measure);
    assert(panned.bad > 0 && panned.longest < 6 * panned.view, JSON.stringify(panned));
    assert(errors.length === 0, errors.join("\n"));
  } finally {
    await close();
  }
});
