/// <reference lib="dom" />
/**
 * The page on projects as users have them, in chromium: no `graphs/` folder (a folder of models, a
 * fresh checkout), a `graphs/` whose every file is broken (a merge's conflict markers, a half-written
 * file, `nodes` as an array), and a broken graph asked for by `?graph=` beside good ones. The page is
 * always ready and usable, says why each graph did not open, never tries one twice, and a new graph's
 * first Save makes its folder.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A graph file as `git merge` leaves it when two branches added a node at the same place. */
function conflicted(ours: string, theirs: string): string {
  const node = (id: string) => `    "${id}": { "type": "demo.fighter" }`;
  return `{\n  "version": 1,\n  "nodes": {\n<<<<<<< HEAD\n${node(ours)}\n=======\n${
    node(theirs)
  }\n>>>>>>> feature/${theirs}\n  }\n}\n`;
}

/** Opens the studio on `dir` (its project) at `query`, waits until ready and returns the status. */
async function startOn(
  dir: string,
  query: string,
  fn: (page: import("playwright-core").Page, stopServer: () => Promise<void>) => Promise<void>,
  allowWrite?: readonly string[],
) {
  // The studio's project is the working folder it starts in.
  const opened = await openStudio(dir, false, [], allowWrite ? { allowWrite } : true);
  try {
    await opened.page.goto(`${opened.studio.url}${query}`);
    // The page's state, with no clock of its own: a 15 s limit here was the only one in the studio's
    // tests tighter than Playwright's default, and a first open in a cold child studio can take long.
    await opened.page.waitForSelector("body[data-ready=true]");
    await fn(opened.page, () => opened.studio.close());
    // Only the failed reads of broken files (HTTP 422), a refused save (403) and requests to a
    // stopped server reach the console.
    deepEqual(opened.errors.filter((e) => !/status of (422|403)\b|ERR_CONNECTION_REFUSED/.test(e)), []);
  } finally {
    await opened.close();
  }
}

Deno.test({
  name: "studio: a project without graphs/, with only broken graphs, or asked for a broken one, opens usable",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await t.step("no graphs/ folder: a new graph, and its first Save makes the folder", async () => {
    const dir = await tempDir({ prefix: "studio-start-empty-" });
    await Deno.mkdir(join(dir, "models"));
    await startOn(dir, "", async (page) => {
      equal(
        await page.textContent("#status"),
        "No graph files in graphs/ here: a new graph graphs/graph.json, written when you Save (Open takes a path)",
      );
      // The new graph draws its Group Input and Output: the node added is a third one.
      const drawn = await page.locator("g.node").count();
      await page.fill("#node-search", "demo.fighter");
      await page.press("#node-search", "Enter");
      await page.waitForFunction((n) => document.querySelectorAll("g.node").length === n, drawn + 1);
      await page.click("#save");
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
      const saved = JSON.parse(await Deno.readTextFile(join(dir, "graphs", "graph.json")));
      deepEqual(Object.values(saved.nodes).map((n) => (n as { type: string }).type), ["demo.fighter"]);
    });
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("every graph broken: each reason counted, a new graph under a free name", async () => {
    const dir = await tempDir({ prefix: "studio-start-broken-" });
    await Deno.mkdir(join(dir, "graphs"));
    await Deno.writeTextFile(join(dir, "graphs", "graph.json"), conflicted("wing", "tail"));
    await Deno.writeTextFile(join(dir, "graphs", "half.json"), '{"version": 1, "nodes": {"a": {"ty');
    await Deno.writeTextFile(join(dir, "graphs", "list.json"), '{"version": 1, "nodes": []}');
    await startOn(dir, "", async (page) => {
      const said = (await page.textContent("#status")) ?? "";
      assert(
        said.startsWith(
          "'graphs/graph.json' has merge-conflict markers (a merge is half done: 1 conflict; <<<<<<< at line 4",
        ),
        said,
      );
      assert(
        said.endsWith(
          " (2 more graph file(s) in graphs/ did not open either); a new graph graphs/graph_2.json, " +
            "written when you Save (Open takes a path)",
        ),
        said,
      );
      equal(await page.locator("#status.refused").count(), 1);
      equal(await page.locator("g.node").count(), 2, "the new graph's Group Input and Output");
    });
    for (const f of ["graph.json", "half.json", "list.json"]) {
      assert((await Deno.readTextFile(join(dir, "graphs", f))).includes("nodes"), `${f} left as it was`);
    }
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("a broken graph asked for: the first good one opens instead, saying why", async () => {
    const dir = await tempDir({ prefix: "studio-start-asked-" });
    await Deno.mkdir(join(dir, "graphs"));
    await Deno.writeTextFile(join(dir, "graphs", "a.json"), conflicted("nose", "gear"));
    await Deno.writeTextFile(
      join(dir, "graphs", "b.json"),
      '{"version": 1, "nodes": {"f": {"type": "demo.fighter"}}}',
    );
    const asked = join(dir, "graphs", "a.json");
    await startOn(dir, `?graph=${encodeURIComponent(asked)}`, async (page) => {
      const said = (await page.textContent("#status")) ?? "";
      assert(said.startsWith(`'${asked}' has merge-conflict markers (a merge is half done: `), said);
      assert(said.endsWith("; opened graphs/b.json instead"), said);
      equal(await page.locator('g.node[data-node="f"]').count(), 1);
      // Picked again from the picker: still not opened, and the picker names the graph shown (it went
      // on naming a.json over b.json's nodes, and the status bar did not say which was shown).
      await page.selectOption("#graph-picker", "graphs/a.json");
      await page.waitForFunction((was) => document.getElementById("status")!.textContent !== was, said);
      equal(await page.inputValue("#graph-picker"), "graphs/b.json");
      assert((await page.textContent("#status"))!.endsWith("; still showing graphs/b.json"));
      equal(await page.locator('g.node[data-node="f"]').count(), 1);
    });
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("a save the studio may not write: said so, the other files saved, edits kept", async () => {
    const dir = await tempDir({ prefix: "studio-start-locked-" });
    await Deno.mkdir(join(dir, "graphs"));
    await Deno.mkdir(join(dir, "models"));
    const fighter = '{"version": 1, "nodes": {"f": {"type": "demo.fighter"}}}';
    await Deno.writeTextFile(join(dir, "graphs", "a.json"), fighter);
    await Deno.writeTextFile(join(dir, "models", "b.json"), fighter);
    // As `deno task studio` starts it: it may write in graphs/ (and its outputs), not in models/.
    await startOn(dir, "", async (page, stopServer) => {
      const addTo = async (path: string) => {
        await page.fill("#graph-path", path);
        await page.click("#open-path");
        await page.waitForFunction(
          (p) => document.querySelector("#graph-picker option:checked")!.textContent === p,
          path,
        );
        const before = await page.locator("g.node").count();
        await page.fill("#node-search", "demo.fighter");
        await page.press("#node-search", "Enter");
        await page.waitForFunction((n) => document.querySelectorAll("g.node").length === n, before + 1);
      };
      await addTo("models/b.json");
      // The page marks its live check due or on its way (what the wait before stopping relies on).
      await page.evaluate(() =>
        new MutationObserver(() => {
          if (document.body.dataset.checking) (globalThis as { checkingSeen?: boolean }).checkingSeen = true;
        }).observe(document.body, { attributes: true, attributeFilter: ["data-checking"] })
      );
      await addTo("graphs/a.json");
      await page.click("#save");
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
      const said = (await page.textContent("#status"))!;
      assert(said.startsWith("Saved graphs/a.json ("), said);
      assert(
        said.endsWith(
          "; cannot save models/b.json: the studio was started without write access to models/ (start it " +
            "with --allow-write=models too, or Open a path under graphs/ and Save there); the edits stay " +
            "in this page, unsaved",
        ),
        said,
      );
      equal(await page.locator("#status.refused").count(), 1);
      assert((await page.textContent("#files"))!.includes("b.json *"), "b.json still unsaved");
      // The server stopped (its terminal closed): Save and a preview say so, not "Failed to fetch".
      // Stopped only once the page has heard all it asked: the live check of the last edit (due 150 ms
      // after it, then posted) failed when still due, and its own "does not answer" raced Save's.
      await page.waitForSelector("body:not([data-checking])", { state: "attached" });
      equal(await page.evaluate(() => (globalThis as { checkingSeen?: boolean }).checkingSeen), true);
      await stopServer();
      await page.click("#save");
      await page.waitForFunction(() =>
        document.getElementById("status")!.textContent!.startsWith("models/b.json")
      );
      equal(
        await page.textContent("#status"),
        "models/b.json not saved: the studio server does not answer (stopped, or its terminal closed): " +
          "start partgraph studio again in the same folder, then try again; this page keeps its unsaved " +
          "edits until then (reloading it now would lose them)",
      );
      await page.click("#tab-preview");
      await page.fill("#model-path", "models/plane.glb");
      // Waited for as settled (shown, failed or superseded): the status already had "answer" in it.
      const settled = Number(await page.evaluate(() => document.body.dataset.previewSettled ?? 0));
      await page.click("#preview-open");
      await page.waitForFunction((n) => Number(document.body.dataset.previewSettled ?? 0) > n, settled);
      assert((await page.textContent("#status"))!.startsWith("the studio server does not answer"));
    }, ["graphs", "out"]);
    equal(await Deno.readTextFile(join(dir, "models", "b.json")), fighter, "models/b.json as it was");
    const saved = JSON.parse(await Deno.readTextFile(join(dir, "graphs", "a.json")));
    equal(Object.keys(saved.nodes).length, 2, "graphs/a.json saved with its new node");
    await Deno.remove(dir, { recursive: true });
  });
});
