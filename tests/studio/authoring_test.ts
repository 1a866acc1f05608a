/// <reference lib="dom" />
/**
 * A pipeline authored from an empty graph, in chromium, as a first-time user builds one: nodes added
 * from the search box one after another each land in view and clear of every other node (they used
 * to land on top of each other at the view's centre, the last hiding the rest and their sockets);
 * wired, given a path and run, the file written is the demo fighter's GLB exported directly. A graph
 * path that does not exist, opened, starts a new graph there (after a confirm), written by Save.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { answering, boxOf, checked, drag, openStudio, socket, statusReads } from "./page_helpers.ts";
import { formatGraph } from "../../studio/format.ts";
import { fighterGlb } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a pipeline authored from an empty graph: added nodes in view, apart; wired, run",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-authoring-" });
  await Deno.mkdir(join(dir, "graphs"));
  const path = join(dir, "graphs", "new.json");
  await Deno.writeTextFile(path, JSON.stringify({ version: 1, nodes: {} }));
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(path)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    for (const type of ["demo.fighter", "export.gltf", "io.write"]) {
      await page.fill("#node-search", type);
      await page.press("#node-search", "Enter");
      await page.waitForFunction(
        (t) => document.getElementById("status")!.textContent!.endsWith(`(${t})`),
        type,
      );
    }
    const ids = ["@inputs", "fighter", "gltf", "write", "@outputs"];
    deepEqual(await page.$$eval("g.node", (gs) => gs.map((g) => g.getAttribute("data-node"))), ids);

    // Each added node is inside the editor's box, and no two nodes overlap.
    const pane = await boxOf(page, "#editor");
    const boxes = await Promise.all(ids.map((id) => boxOf(page, `g.node[data-node="${id}"] rect.body`)));
    for (const [i, id] of ["fighter", "gltf", "write"].entries()) {
      const b = boxes[i + 1];
      assert(
        b.x >= pane.x && b.y >= pane.y && b.x + b.width <= pane.x + pane.width &&
          b.y + b.height <= pane.y + pane.height,
        `${id} at ${JSON.stringify(b)} is in the editor ${JSON.stringify(pane)}`,
      );
    }
    for (const [i, a] of boxes.entries()) {
      for (const [j, b] of boxes.entries()) {
        if (j <= i) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        assert(apart, `${ids[i]} ${JSON.stringify(a)} overlaps ${ids[j]} ${JSON.stringify(b)}`);
      }
    }

    // Wired and given a path, it is valid and runs: the file is the fighter's GLB exported directly.
    await drag(page, socket("fighter", "scene", "out"), socket("gltf", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="fighter.scene->gltf.scene"]', { state: "attached" });
    await drag(page, socket("gltf", "bytes", "out"), socket("write", "bytes", "in"));
    await page.waitForSelector('path.wire[data-wire="gltf.bytes->write.bytes"]', { state: "attached" });
    await page.click('g.node[data-node="write"] .title');
    await page.fill('#params [data-param="path"] input', "fighter.glb");
    await page.press('#params [data-param="path"] input', "Enter");
    await checked(page, "valid");
    await page.click("#run");
    await page.waitForFunction(() =>
      /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
    );
    const status = (await page.textContent("#status"))!;
    assert(status.startsWith("Run finished"), status);
    equal(await page.getAttribute('g.node[data-node="write"] text.badge', "class"), "badge state-done");
    deepEqual(await Deno.readFile(join(dir, "out", "fighter.glb")), await fighterGlb(dir, 2));
    deepEqual(errors, []);
  } finally {
    await close();
  }
});

/** Opens `path` with the path box and answers the confirm it asks; returns the confirm's message. */
async function openAnswering(page: Page, path: string, accept: boolean): Promise<string> {
  await page.fill("#graph-path", path);
  return await answering(page, "#open-path", accept);
}

Deno.test({
  name: "studio: opening a graph path that does not exist starts a new graph there, written on Save",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-new-graph-" });
  await Deno.mkdir(join(dir, "graphs"));
  const first = join(dir, "graphs", "first.json");
  await Deno.writeTextFile(
    first,
    JSON.stringify({ version: 1, nodes: { fighter: { type: "demo.fighter" } } }),
  );
  const fresh = join(dir, "graphs", "fresh.json");
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(first)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");

    // Dismissed: nothing opens, nothing is written.
    const asked = await openAnswering(page, fresh, false);
    equal(asked, `${fresh} does not exist. Start a new graph there? Its file is written when you Save.`);
    await statusReads(page, `Open cancelled: ${fresh} does not exist`);
    equal(await page.textContent("#crumbs"), first);
    equal(await page.locator(`.file-tab[data-path="${fresh}"]`).count(), 0);
    // A path that is not a graph file is said so, not asked about.
    await page.fill("#graph-path", join(dir, "graphs", "notes.txt"));
    await page.click("#open-path");
    await statusReads(
      page,
      `${join(dir, "graphs", "notes.txt")} does not exist (a graph file's name ends in .json)`,
    );

    // Accepted: an empty graph, unsaved until Save writes it.
    await openAnswering(page, fresh, true);
    await page.waitForFunction((p) => document.getElementById("crumbs")!.textContent === `${p} *`, fresh);
    await statusReads(page, `New graph ${fresh}: it is written when you Save`);
    equal(await page.textContent(`.file-tab[data-path="${fresh}"]`), "fresh.json *");
    await checked(page, "valid");
    await Deno.stat(fresh).then(() => assert(false, "not written before Save"), () => {});
    await page.click("#revert");
    await statusReads(page, `${fresh} is new: it has no file to revert to until Save`);
    await page.fill("#node-search", "demo.fighter");
    await page.press("#node-search", "Enter");
    // A file made there in the meantime (another tool, another tab) is not saved over unless confirmed.
    const other = JSON.stringify({ version: 1, nodes: {} });
    await Deno.writeTextFile(fresh, other);
    const overwrite = await answering(page, "#save", false);
    equal(overwrite, `${fresh} exists now: it was made since this graph was started. Overwrite it?`);
    await statusReads(page, `${fresh} exists now: not saved over it`);
    equal(await Deno.readTextFile(fresh), other);
    equal(await page.textContent("#crumbs"), `${fresh} *`);
    await answering(page, "#save", true);
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    equal(await page.textContent("#crumbs"), fresh);
    const saved = JSON.parse(await Deno.readTextFile(fresh));
    deepEqual(Object.keys(saved.nodes), ["fighter"]);
    equal(saved.nodes.fighter.type, "demo.fighter");
    equal(await Deno.readTextFile(fresh), formatGraph(saved));
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
