/// <reference lib="dom" />
/**
 * A run of a large graph whose models are missing (a script's graph pointing at files not there yet),
 * in chromium: the page redraws its badges a few times a second, not once per state event — once per
 * event froze the page for a minute on 750 nodes — and the badges it ends on are every node's last
 * state, drawn as the status says the run ended.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { CULL_FROM } from "../../studio/web/editor.ts";
import { prng } from "../support/prng.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** `count` models read, decoded and copied out, as a loop in a script writes them; none exists. */
function generated(count: number, seed: number) {
  const random = prng(seed);
  const nodes: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `hull_${Math.floor(random() * 1e5)}_${i}`;
    nodes[`read_${i}`] = { type: "io.read", params: { path: `models/${name}.glb` } };
    nodes[`decode_${i}`] = { type: "decode.auto", inputs: { bytes: `read_${i}.bytes` } };
    nodes[`copy_${i}`] = {
      type: "io.write",
      params: { path: `${name}.copy.glb` },
      inputs: { bytes: `read_${i}.bytes` },
    };
  }
  return { version: 1, nodes, outputs: {} };
}

Deno.test({
  name: "studio: a 750-node run redraws badges a few times a second and ends on every node's state",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-run-large-" });
  await Deno.mkdir(join(dir, "graphs"));
  await Deno.mkdir(join(dir, "models"));
  const count = 250;
  assert(count * 3 < CULL_FROM, "every node drawn: the redraw is the whole graph's");
  const file = join(dir, "graphs", "batch.json");
  await Deno.writeTextFile(file, JSON.stringify(generated(count, 7)));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    // Count the editor's redraws, and the state events the run sends (each node reports one or more).
    await page.evaluate(() => {
      const g = globalThis as unknown as { studio: { editor: { render(): void } }; renders: number };
      const editor = g.studio.editor;
      const render = editor.render.bind(editor);
      g.renders = 0;
      editor.render = () => (g.renders++, render());
    });
    const started = performance.now();
    await page.evaluate(() => document.getElementById("run")!.click());
    await page.waitForFunction(
      () => /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!),
      null,
      { timeout: 120_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    const renders = await page.evaluate(() => (globalThis as unknown as { renders: number }).renders);
    // At most one redraw per 100 ms, plus the start's, the plan's and the end's (and a few for timers
    // that fire late on a loaded machine); one per event would be well over count * 3.
    assert(renders <= seconds * 10 + 10, `${renders} redraws in ${seconds.toFixed(1)} s`);
    assert(renders < count, `${renders} redraws for ${count * 3} nodes' events`);
    // The badges drawn as the run ended are the last states: every read failed, every copy of it was
    // skipped, and the decodes (which no output pulls) never ran.
    const states = await page.$$eval(
      "g.node[data-node]",
      (gs) => gs.map((g) => [g.getAttribute("data-node"), g.getAttribute("data-state")]),
    );
    const of = (prefix: string) => new Set(states.filter(([id]) => id!.startsWith(prefix)).map(([, s]) => s));
    equal([...of("read_")].join(), "failed");
    equal([...of("copy_")].join(), "skipped");
    equal([...of("decode_")].join(), "");
    // The status names the first failure and counts the rest (each is a line of the log).
    const said = (await page.textContent("#status")) ?? "";
    assert(
      /^Run failed: node 'read_\d+' \(io\.read\) failed: .*\(and 249 more in the log\)$/.test(said),
      said,
    );
    equal(await page.locator("#run-log li.error").count(), count);
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
