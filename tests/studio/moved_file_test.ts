/// <reference lib="dom" />
/**
 * A graph file renamed or moved on disk while the page has it open (`git mv`, a file manager), in
 * chromium. Before, Save knew only that the old path was gone and offered to write it there again
 * (a second copy, the rename undone by hand). Now the server names the files with the bytes the page
 * opened (`movedTo`; a file of other bytes is not one), the page asks to save there, and goes on with
 * the graph at its new path; Cancel falls back to the old question, and no to both writes nothing.
 * Coming back to the page (its window's focus) already says the file is gone, before any Save. A node
 * group's file moved: saved at its new path, and the open graphs that run it re-pointed there (unsaved,
 * one undo step), those not open named.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import type { Page } from "playwright-core";
import { openStudio } from "./page_helpers.ts";
import { tabIn, TOP, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** Waits until the status bar's text includes `text`. */
const statusHas = (page: Page, text: string) =>
  page.waitForFunction((t) => document.getElementById("status")!.textContent!.includes(t), text);

type Studio = { studio: { editor: { select(ids: string[]): void } } };

Deno.test({
  name: "studio: Save of a graph moved on disk while open offers its new path, and goes on there",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-moved-" });
  await Deno.mkdir(join(dir, "graphs", "old"), { recursive: true });
  const file = join(dir, "graphs", "wing.json");
  const graph = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      panels: { type: "rig.detect_panels", inputs: { scene: "fighter.scene" } },
    },
    outputs: { scene: "panels.scene" },
  };
  // As a Windows editor wrote it: a BOM, indented, CRLF line ends (the digest is of these bytes).
  const text = `\uFEFF${JSON.stringify(graph, null, 4).replaceAll("\n", "\r\n")}`;
  const { studio, page, errors, close } = await openStudio(dir, false);
  const dialogs: string[] = [];
  const answers: boolean[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (answers.shift() ? dialog.accept() : dialog.dismiss());
  });
  try {
    // The server: the file renamed, a decoy of other bytes beside it — only the renamed one is named.
    await Deno.writeTextFile(file, text);
    const opened = await (await fetch(`${studio.url}api/graph?path=${encodeURIComponent(file)}`)).json();
    const moved = join(dir, "graphs", "old", "wing_v1.json");
    await Deno.rename(file, moved);
    await Deno.writeTextFile(join(dir, "graphs", "wing_copy.json"), JSON.stringify(graph));
    const raw = await fetch(`${studio.url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: file, graph, base: opened.digest }),
    });
    equal(raw.status, 409);
    const answer = await raw.json();
    equal(answer.deleted, true);
    const shown =
      (await (await fetch(`${studio.url}api/exists?path=${encodeURIComponent(moved)}`)).json()).path;
    deepEqual(answer.movedTo, [shown]);
    await Deno.stat(file).then(() => assert(false, "made again"), () => {});

    // The page: opened, then the file renamed under it, then edited and saved.
    await Deno.rename(moved, file);
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await Deno.rename(file, moved);
    // Back to the page (after the rename in a terminal or a file manager): said before any Save.
    await page.evaluate(() => dispatchEvent(new Event("focus")));
    await statusHas(
      page,
      `${opened.path} is no longer on disk (renamed, moved or deleted outside the studio)`,
    );
    assert(await page.$eval("#status", (s) => s.classList.contains("refused")));
    // Revert has no file to re-read: said so (it was an error about a failed read).
    await page.click("#revert");
    await statusHas(
      page,
      `${opened.path} is no longer on disk (renamed, moved or deleted outside the studio): nothing to revert to`,
    );
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["panels"]));
    await page.focus("#editor");
    await page.keyboard.press("Delete");
    // No to the new path, then no to the old: nothing written anywhere.
    answers.push(false, false);
    await page.click("#save");
    await statusHas(page, "was deleted or moved on disk since it was opened: not written again");
    equal(dialogs.length, 2);
    assert(dialogs[0].includes(`is now at ${shown}`), dialogs[0]);
    assert(dialogs[1].endsWith("Write it again from this page?"), dialogs[1]);
    await Deno.stat(file).then(() => assert(false, "made again though the user said no"), () => {});
    equal(await Deno.readTextFile(moved), text, "the moved file is as it was");

    // Yes: saved at the new path, the page goes on there; the old path stays gone.
    answers.push(true);
    await page.click("#save");
    await statusHas(page, `where ${opened.path} was moved on disk`);
    equal(dialogs.length, 3);
    deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(moved)).nodes), ["fighter"], "the edit");
    await Deno.stat(file).then(() => assert(false, "old path made again"), () => {});
    await page.waitForFunction((path) => document.getElementById("crumbs")!.textContent === path, shown);
    assert(decodeURIComponent(page.url()).includes(shown), page.url());
    // Saved: nothing left to save, and no question asked.
    await page.click("#save");
    await statusHas(page, "Nothing to save");
    equal(dialogs.length, 3);
    deepEqual(errors.filter((e) => !e.includes("status of 409")), []);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "studio: a node group's file moved on disk while open and edited: saved there, its users follow",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-moved-group-" });
  const { top, inner } = await writeGroupGraphs(dir);
  // Another graph that runs the group, not open in the page: named, not changed unasked.
  const other = join(dir, "graphs", "other.json");
  await Deno.writeTextFile(other, JSON.stringify({ ...TOP, outputs: {} }));
  const { studio, page, errors, close } = await openStudio(dir, false);
  const dialogs: string[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await tabIn(page);
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["fighter_hi"]));
    await page.focus("#editor");
    await page.keyboard.press("Delete");
    // `git mv graphs/inner.json graphs/parts/wing.json`, then Save.
    await Deno.mkdir(join(dir, "graphs", "parts"));
    const moved = join(dir, "graphs", "parts", "wing.json");
    await Deno.rename(inner, moved);
    await page.click("#save");
    await statusHas(page, "now run it from");
    equal(dialogs.length, 1);
    assert(dialogs[0].includes("parts/wing.json"), dialogs[0]);
    deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(moved)).nodes), ["fighter"], "the group's edit");
    await Deno.stat(inner).then(() => assert(false, "old path made again"), () => {});
    const said = (await page.textContent("#status"))!;
    assert(said.includes("other.json still name"), said);
    // The page shows the top graph, its group node re-pointed (unsaved); other.json is as it was.
    const node = await page.evaluate(() =>
      (globalThis as unknown as { studio: { editor: { model: { graph: typeof TOP } } } }).studio.editor.model
        .graph.nodes.group
    );
    equal(node.graph, "parts/wing.json");
    equal(JSON.parse(await Deno.readTextFile(other)).nodes.group.graph, "inner.json");
    await page.click("#save");
    // The first Save's status said "Saved" already: wait for this one's, which names top.json.
    await statusHas(page, "top.json (");
    equal(JSON.parse(await Deno.readTextFile(top)).nodes.group.graph, "parts/wing.json");
    // Entered again: the group is read from its new path, with the edit.
    await tabIn(page);
    const crumbs = (await page.textContent("#crumbs"))!;
    assert(crumbs.includes("wing.json"), crumbs);
    equal(await page.locator('g.node[data-node="fighter_hi"]').count(), 0);
    equal(dialogs.length, 1);
    deepEqual(errors.filter((e) => !e.includes("status of 409")), []);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
