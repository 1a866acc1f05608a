/// <reference lib="dom" />
/**
 * A graph's inputs authored in chromium as a new user copies `graphs/gltf.json` by hand: an input
 * added on Group Input, described (errors and generated docs show it; there was no way to write one
 * in the studio), a parameter bound to it, saved — the file has the declaration as hand-written graphs
 * do; undo takes the description away and a blank one removes it; the input's type shows the
 * description as its tooltip as soon as it is typed.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, createRegistry } from "../../mod.ts";
import { browserMissing } from "../../studio/chromium.ts";
import { formatGraph } from "../../studio/format.ts";
import { tempDir } from "../support/temp.ts";
import { checked, openStudio, statusReads } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a graph input added, described and bound, saved as hand-written graphs declare it",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-inputs-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "copy.json");
  await Deno.writeTextFile(file, JSON.stringify({ version: 1, nodes: { read: { type: "io.read" } } }));
  const { studio, page, errors, close } = await openStudio(dir);
  const about = '#params [data-input="model"] input.description';
  const tooltip = () => page.getAttribute('#params [data-input="model"] .type', "title");
  const text = "Path of the model to read.";
  const declared = () =>
    page.evaluate(() =>
      (globalThis as unknown as { studio: { current(): { graph: { inputs?: Record<string, unknown> } } } })
        .studio.current().graph.inputs
    );
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "1 issue(s)");
    await page.click('g.node[data-node="@inputs"] .title');
    await page.fill("#params .add-input input", "model");
    await page.click("#params .add-input button");
    await page.fill(about, text);
    await page.press(about, "Enter");
    deepEqual(await declared(), { model: { type: "string", description: text } });
    // The row is not rebuilt (the focus stays): its type's tooltip shows the new description at once.
    equal(await tooltip(), text);
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    await statusReads(page, "Undone: describe graph input model");
    deepEqual(await declared(), { model: { type: "string" } });
    await page.keyboard.press("Control+Shift+z");
    await statusReads(page, "Redone: describe graph input model");
    await page.click('g.node[data-node="read"] .title');
    await page.selectOption('#params [data-param="path"] select.bind', "input:model");
    await page.waitForSelector('#params [data-param="path"] button');
    await page.click("#save");
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
    const saved = JSON.parse(await Deno.readTextFile(file));
    deepEqual(saved.inputs, { model: { type: "string", description: text } });
    deepEqual(saved.nodes.read.params, { path: { $input: "model" } });
    equal(await Deno.readTextFile(file), formatGraph(saved));
    // The runtime shows the description in its issue for the missing input.
    const [issue] = await checkGraph(file, { registry: createRegistry() });
    equal(issue.message, `graph input 'model' (string) has no default and no value was given — ${text}`);
    // A blank description is none.
    await page.click('g.node[data-node="@inputs"] .title');
    await page.fill(about, "Where the model is.");
    await page.press(about, "Enter");
    equal(await tooltip(), "Where the model is.");
    await page.fill(about, " ");
    await page.press(about, "Enter");
    deepEqual(await declared(), { model: { type: "string" } });
    equal(await tooltip(), "");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
