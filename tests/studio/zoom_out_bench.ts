/// <reference lib="dom" />
/**
 * The draw work of zooming out of graphs of many thousands of nodes, in headless chromium: how many
 * elements each wheel step adds to the editor and how many it holds, counted (a MutationObserver),
 * not timed. Run with
 *
 * ```sh
 * deno run --frozen --unstable-bundle -A tests/studio/zoom_out_bench.ts [count] [seed]
 * ```
 *
 * Each generated graph (`big_graphs.ts`) is opened, the view put at 1:1 on its middle, and zoomed out
 * a wheel step at a time, about the middle of the editor, to the least zoom.
 *
 * @module
 */
import { join } from "node:path";
import { BIG_STYLES, bigGraph } from "./big_graphs.ts";
import { openStudio } from "./page_helpers.ts";

const count = Number(Deno.args[0] ?? 20_000);
const seed = Number(Deno.args[1] ?? 7);
const dir = await Deno.makeTempDir({ prefix: "studio-zoom-" });
await Deno.mkdir(join(dir, "graphs"));
const { studio, page, close } = await openStudio(dir, false);
/** The page's editor and the counts this bench keeps on the page. */
type Hooked = {
  studio: {
    editor: {
      view: { x: number; y: number; scale: number };
      render(): void;
      model: { ids(): string[]; position(id: string): [number, number] };
    };
  };
  added: number;
  renders: number;
};
try {
  for (const style of BIG_STYLES) {
    const file = join(dir, "graphs", `${style}.json`);
    await Deno.writeTextFile(file, JSON.stringify(bigGraph(style, count, seed)));
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 600_000 });
    const box = (await page.locator("#editor").boundingBox())!;
    await page.evaluate(([width, height]) => {
      const hooked = globalThis as unknown as Hooked;
      const ed = hooked.studio.editor;
      hooked.added = hooked.renders = 0;
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const n of change.addedNodes) {
            if (n instanceof Element) hooked.added += 1 + n.querySelectorAll("*").length;
          }
        }
      }).observe(document.getElementById("editor")!, { childList: true, subtree: true });
      const render = ed.render.bind(ed);
      ed.render = () => (hooked.renders++, render());
      // 1:1 on the middle of the nodes' positions (the median: a scattered graph's heap).
      const at = ed.model.ids().map((id) => ed.model.position(id));
      const mid = (i: 0 | 1) => at.map((p) => p[i]).sort((a, b) => a - b)[Math.floor(at.length / 2)];
      ed.view = { x: mid(0) - width / 2, y: mid(1) - height / 2, scale: 1 };
      ed.render();
    }, [box.width, box.height]);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    let added = 0, renders = 0, most = 0;
    for (let step = 0; step < 21; step++) {
      await page.evaluate(() => {
        const hooked = globalThis as unknown as Hooked;
        hooked.added = hooked.renders = 0;
      });
      await page.mouse.wheel(0, 100);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      const [a, r] = await page.evaluate(() => {
        const hooked = globalThis as unknown as Hooked;
        return [hooked.added, hooked.renders];
      });
      added += a;
      renders += r;
      most = Math.max(most, a);
    }
    const [scale, nodes, elements] = await page.evaluate(() => [
      (globalThis as unknown as Hooked).studio.editor.view.scale,
      document.querySelectorAll("#editor g.node").length,
      document.querySelectorAll("#editor *").length,
    ]);
    console.log(
      `${style.padEnd(8)} ${count} nodes, 1:1 → ${scale.toFixed(2)} in 21 steps: ${renders} redraws, ` +
        `${added} elements added (most in one step ${most}); at the end ${nodes} nodes drawn in ` +
        `${elements} elements (${(elements / Math.max(1, nodes)).toFixed(1)} per node)`,
    );
  }
} finally {
  await close();
  await Deno.remove(dir, { recursive: true });
}
// The shared chromium (studio/chromium.ts) is killed as the process unloads, which a script whose
// browser connection is still open never reaches by itself.
Deno.exit(0);
