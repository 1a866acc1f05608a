/// <reference lib="dom" />
/**
 * A user's session on a script's graph, in chromium: 300 nodes without positions (a gate the test
 * holds feeding chains of echoes), run; a parameter edited while it runs, undone while it still runs;
 * the run ends; the tab closed with a value typed and not yet entered (the page did not ask, and the
 * value was lost: the field sends its change only with Enter or on leaving it). Each step is checked
 * as the user sees it.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { hold, MODULE } from "./gated_fixtures.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** 300 nodes as a script's loop writes them: the gate, then echoes, each fed by the one before in its chain. */
function sessionGraph(count: number) {
  const nodes: Record<string, unknown> = { gate: { type: "qa.gate" } };
  const outputs: Record<string, string> = {};
  for (let i = 1; i < count; i++) {
    const from = i % 10 === 1 ? "gate" : `echo_${i - 1}`;
    nodes[`echo_${i}`] = { type: "qa.echo", params: { value: `v${i}` }, inputs: { value: `${from}.value` } };
    if (i % 10 === 0) outputs[`chain_${i / 10}`] = `echo_${i}.value`;
  }
  return { version: 1, modules: ["./qa.ts"], nodes, outputs };
}

type Studio = {
  studio: {
    editor: { select(ids: string[]): void; model: { graph: { nodes: Record<string, { params?: object }> } } };
  };
};
const params = (page: Page, id: string) =>
  page.evaluate(
    (id) => JSON.stringify((globalThis as unknown as Studio).studio.editor.model.graph.nodes[id].params),
    id,
  );
/** Selects node `id` as a click would (the graph is framed zoomed out: some nodes lie under the header). */
const pick = (page: Page, id: string) =>
  page.evaluate((id) => (globalThis as unknown as Studio).studio.editor.select([id]), id);
const state = (page: Page, id: string) => page.getAttribute(`g.node[data-node="${id}"]`, "data-state");

Deno.test({
  name: "studio: a 300-node script graph run, edited and undone while it runs, closed unsaved",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-session-" });
  await Deno.mkdir(join(dir, "graphs"));
  await Deno.writeTextFile(join(dir, "graphs", "qa.ts"), MODULE);
  const file = join(dir, "graphs", "script.json");
  const text = JSON.stringify(sessionGraph(300));
  await Deno.writeTextFile(file, text);
  const { studio, page, errors, close } = await openStudio(dir);
  const open = hold();
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    equal(
      await page.locator("g.node[data-node]").count(),
      302,
      "every node drawn, Group Input and Output too",
    );
    assert(!(await page.textContent("#crumbs"))!.includes("*"), "laid out, not edited");

    await t.step("run: the gate holds it", async () => {
      await page.click("#run");
      await page.waitForSelector('g.node[data-node="gate"][data-state="running"]');
    });

    await t.step("a parameter edited while it runs, then undone while it still runs", async () => {
      await pick(page, "echo_5");
      const field = page.locator('#params [data-param="value"] input').first();
      await field.fill("changed");
      await field.press("Enter");
      await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("*"));
      equal(await params(page, "echo_5"), '{"value":"changed"}');
      equal(await state(page, "gate"), "running", "the run goes on");
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("*"));
      equal(await params(page, "echo_5"), '{"value":"v5"}');
      equal(
        await page.inputValue('#params [data-param="value"] input'),
        "v5",
        "the panel shows the undone value",
      );
    });

    await t.step(
      "an edit kept while it runs: the run ends, its badges dimmed; undone, they are current",
      async () => {
        await pick(page, "echo_6");
        const field = page.locator('#params [data-param="value"] input').first();
        await field.fill("kept");
        await field.press("Enter");
        await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("*"));
        equal(await state(page, "gate"), "running", "the run goes on");
        open();
        await page.waitForFunction(
          () => /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!),
          null,
          { timeout: 60_000 },
        );
        equal(await state(page, "echo_290"), "done");
        assert(await page.locator("text.badge.stale").count() > 0, "the graph changed since it ran: dimmed");
        await page.focus("#editor");
        await page.keyboard.press("Control+z");
        await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("*"));
        equal(await params(page, "echo_6"), '{"value":"v6"}');
        equal(await page.locator("text.badge.stale").count(), 0, "the graph is as it ran: nothing dimmed");
      },
    );

    await t.step(
      "closing the tab with a value typed but not yet entered asks first; the file is as it was",
      async () => {
        await pick(page, "echo_7");
        // Typed, the field still focused: no change event yet (Enter or leaving the field sends it).
        await page.locator('#params [data-param="value"] input').first().fill("typed");
        const asked = new Promise<string>((resolve) => {
          page.once("dialog", (d) => (resolve(d.type()), d.dismiss()));
          setTimeout(() => resolve("no question in 5 s"), 5000);
        });
        await page.close({ runBeforeUnload: true });
        equal(await asked, "beforeunload");
        // Staying on the page: the typed value is an unsaved edit, kept.
        equal(await params(page, "echo_7"), '{"value":"typed"}');
        equal(await Deno.readTextFile(file), text);
      },
    );
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    open();
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
