/// <reference lib="dom" />
/**
 * Ctrl+G over a file that is there, in chromium: the group file replaces a graph file only as it was
 * when the user agreed to replace it — one another tab, an editor or `git pull` changed while the
 * confirm was up is kept (save's 409, as every other save), and the name is asked for again saying
 * why; a file that is not a graph is never offered for overwriting; a hidden folder is refused
 * naming it.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog, Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import type { Graph } from "../../studio/web/types.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, statusReads } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = { studio: { editor: { select(ids: string[]): void }; current(): { graph: Graph } } };

const graphOf = async (page: Page): Promise<Graph> =>
  JSON.parse(
    await page.evaluate(() => JSON.stringify((globalThis as unknown as Studio).studio.current().graph)),
  );

Deno.test({
  name: "studio: Ctrl+G never writes over a file changed while it asked, nor over a non-graph",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-group-race-" });
  await Deno.mkdir(join(dir, "graphs", ".drafts"), { recursive: true });
  const top = join(dir, "graphs", "top.json");
  await Deno.writeTextFile(
    top,
    JSON.stringify({
      version: 1,
      nodes: {
        fighter: { type: "demo.fighter" },
        panels: { type: "rig.detect_panels", inputs: { scene: "fighter.scene" } },
      },
      outputs: { scene: "panels.scene" },
    }),
  );
  const taken = join(dir, "graphs", "taken.json");
  const theirs = JSON.stringify({ version: 1, name: "theirs", nodes: {}, outputs: {} });
  await Deno.writeTextFile(taken, theirs);
  const schema = join(dir, "graphs", "schema.json");
  const schemaText = '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}\n';
  await Deno.writeTextFile(schema, schemaText);
  const { studio, page, errors, close } = await openStudio(dir, false);
  // Each dialog is answered by the next function in the queue (which may change files first).
  const dialogs: { type: string; message: string }[] = [];
  const answers: ((dialog: Dialog) => Promise<void>)[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    const answer = answers.shift();
    void (answer ? answer(dialog) : dialog.dismiss());
  });
  const type = (text: string) => (d: Dialog) => d.accept(text);
  const yes = (d: Dialog) => d.accept();
  const no = (d: Dialog) => d.dismiss();
  const groupPanels = async () => {
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["panels"]));
    await page.focus("#editor");
    await page.keyboard.press("Control+g");
  };
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("a file changed while the confirm was up is kept, and the name asked again", async () => {
      const edited = JSON.stringify({ version: 1, name: "edited in another tab", nodes: {}, outputs: {} });
      answers.push(type("taken.json"), async (d) => {
        // Another tab saves the file while this one asks whether to overwrite it.
        await Deno.writeTextFile(taken, edited);
        await d.accept();
      }, no);
      await groupPanels();
      await statusReads(page, "Group cancelled: nothing changed");
      deepEqual(dialogs.map((d) => d.type), ["prompt", "confirm", "prompt"]);
      equal(dialogs[1].message, `${taken} exists. Overwrite it with the new group?`);
      assert(
        dialogs[2].message.startsWith(`${taken} changed on disk while you were asked: not overwritten.\n`),
        dialogs[2].message,
      );
      equal(await Deno.readTextFile(taken), edited, "the other tab's save kept");
      assert("panels" in (await graphOf(page)).nodes, "the graph not grouped");
    });

    await t.step("a non-graph file is never offered for overwriting; a graph file as asked is", async () => {
      dialogs.length = 0;
      answers.push(type("schema"), type("taken"), yes);
      await groupPanels();
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Grouped"));
      deepEqual(dialogs.map((d) => d.type), ["prompt", "prompt", "confirm"]);
      assert(
        dialogs[1].message.startsWith(`${schema} exists and is not a graph file: choose another name.\n`),
        dialogs[1].message,
      );
      equal(await Deno.readTextFile(schema), schemaText, "schema untouched");
      const group = JSON.parse(await Deno.readTextFile(taken));
      assert("panels" in group.nodes, "taken.json now holds the group");
      equal((await graphOf(page)).nodes.taken?.type, "graph");
    });

    await t.step("a hidden folder is refused, naming it; nothing is written there", async () => {
      dialogs.length = 0;
      answers.push(type(".drafts/g.json"));
      await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["fighter"]));
      await page.focus("#editor");
      await page.keyboard.press("Control+g");
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.includes(".drafts"));
      const said = (await page.textContent("#status")) ?? "";
      assert(said.includes("inside '.drafts'"), said);
      await Deno.stat(join(dir, "graphs", ".drafts", "g.json")).then(
        () => assert(false, "written"),
        () => {},
      );
    });
    // Nothing else went wrong: the only failed requests are the refusals (the raced save's 409, the
    // hidden path's 403); the non-graph and the taken name were answers.
    deepEqual(errors.filter((e) => !/status of (403|409)/.test(e)), []);
    equal(errors.length, 2, errors.join("\n"));
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
