/// <reference lib="dom" />
/**
 * The open files' tabs and open, edited groups, in chromium: clicking a tab's name shows that file
 * where it was last shown (inside the group it was entered through) and its × closes it without
 * switching; a graph opened while a group it uses is open and edited draws that group's edited
 * sockets from its first frame; closing a group tab whose nested group is open and edited gives the
 * parent's node the sockets of the closed file with the nested group as edited, and a run reads that
 * nested group as edited although no open graph leads to it any more.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { GraphFile } from "../../mod.ts";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, drag, openStudio, socket, sockets, statusReads, tabOut } from "./page_helpers.ts";
import { fighterGlb, INNER, runTop, tabIn, TOP, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);
const options = { ignore: !!missing, sanitizeOps: false, sanitizeResources: false };

const crumbs = (page: Page) => page.textContent("#crumbs");
const tab = (path: string) => `.file-tab[data-path="${path}"]`;

/** Waits until the crumbs read `path` (one graph, no group entered), `*` after it while unsaved. */
const shows = (page: Page, path: string) =>
  page.waitForFunction(
    (p) => /^(.*?)( \*)?$/.exec(document.getElementById("crumbs")!.textContent!)![1] === p,
    path,
  );

/** Opens `path` as the top graph with the path box and Open. */
async function openByPath(page: Page, path: string): Promise<void> {
  await page.fill("#graph-path", path);
  await page.click("#open-path");
  await shows(page, path);
}

/** In the group shown, fighter_hi's scene becomes a new graph output `scene_2` (unsaved). */
async function addSecondOutput(page: Page): Promise<void> {
  await drag(page, socket("fighter_hi", "scene", "out"), socket("@outputs", "+", "in"));
  await page.waitForSelector(socket("@outputs", "scene_2", "in"));
  await checked(page, "valid");
}

Deno.test(
  { name: "studio: clicking a file tab's name shows that file; its × only closes it", ...options },
  async () => {
    const dir = await tempDir({ prefix: "studio-tabs-" });
    const { top, inner } = await writeGroupGraphs(dir);
    const { studio, page, errors, close } = await openStudio(dir);
    try {
      await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
      await page.waitForSelector("body[data-ready=true]");
      await checked(page, "valid");
      await tabIn(page);
      await tabOut(page);
      equal(await crumbs(page), top);

      // The group's tab: back inside the group, entered through node `group` as Tab left it.
      await page.click(tab(inner));
      await page.waitForFunction((i) => document.getElementById("crumbs")!.textContent!.endsWith(i), inner);
      equal(await crumbs(page), `${top}  ›  ${inner}`);
      equal(await page.getAttribute(tab(inner), "class"), "file-tab shown");
      await page.waitForSelector('g.node[data-node="fighter_hi"]');
      // The top graph's tab: back to it; the shown tab clicked again changes nothing.
      await page.click(tab(top));
      await shows(page, top);
      await page.click(tab(top));
      equal(await crumbs(page), top);
      await page.waitForSelector('g.node[data-node="export"]');

      // A file opened as a top graph comes back as one: the group's file opened by path, then the top's tab.
      await openByPath(page, inner);
      await page.click(tab(top));
      await shows(page, top);
      await page.click(tab(inner));
      await shows(page, inner);

      // × closes the file without showing it first.
      await page.click(tab(top));
      await shows(page, top);
      await page.click(`${tab(inner)} .close`);
      await statusReads(page, `Closed ${inner}`);
      equal(await page.locator(tab(inner)).count(), 0);
      equal(await crumbs(page), top);
      deepEqual(errors, []);
    } finally {
      await close();
    }
  },
);

Deno.test({
  name: "studio: a graph opened while its group is open and edited draws the edited sockets at once",
  ...options,
}, async () => {
  const dir = await tempDir({ prefix: "studio-open-edited-" });
  const { top, inner } = await writeGroupGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    // The group's file alone, edited: a second output.
    await page.goto(`${studio.url}?graph=${encodeURIComponent(inner)}`);
    await page.waitForSelector("body[data-ready=true]");
    await addSecondOutput(page);
    // Every frame the top graph's group node is drawn in, from the first: its output sockets.
    await page.evaluate(() => {
      const seen: string[][] = [];
      Object.assign(globalThis, { groupSockets: seen });
      new MutationObserver(() => {
        const outs = [...document.querySelectorAll('circle[data-node="group"][data-side="out"]')]
          .map((c) => c.getAttribute("data-socket")!);
        if (document.querySelector('g.node[data-node="group"]')) seen.push(outs);
      }).observe(document.getElementById("editor")!, { childList: true, subtree: true });
    });
    await openByPath(page, top);
    await checked(page, "valid");
    const frames = await page.evaluate(() =>
      (globalThis as unknown as { groupSockets: string[][] }).groupSockets
    );
    assert(frames.length > 0, "the group node was drawn");
    deepEqual(frames[0], ["scene", "scene_2"], "the first frame has the edited group's sockets");
    deepEqual(new Set(frames.map((f) => f.join())), new Set(["scene,scene_2"]), "and every later one");
    equal(await page.textContent(tab(inner)), "inner.json *×");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});

Deno.test({
  name: "studio: closing a group tab whose nested group is open and edited keeps the nested edits",
  ...options,
}, async () => {
  const dir = await tempDir({ prefix: "studio-close-nested-" });
  await Deno.mkdir(join(dir, "graphs"));
  const top = join(dir, "graphs", "top.json");
  const mid = join(dir, "graphs", "mid.json");
  const inner = join(dir, "graphs", "inner.json");
  // The middle group's file names an output the inner group has only as edited (unsaved) below.
  const MID: GraphFile = {
    version: 1,
    nodes: { group: { type: "graph", graph: "inner.json" } },
    outputs: { scene: "group.scene", hi: "group.scene_2" },
  };
  const topGraph = { ...TOP, nodes: { ...TOP.nodes, group: { type: "graph", graph: "mid.json" } } };
  await Deno.writeTextFile(top, JSON.stringify(topGraph));
  await Deno.writeTextFile(mid, JSON.stringify(MID));
  await Deno.writeTextFile(inner, JSON.stringify(INNER));
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "2 issue(s)");
    deepEqual(await sockets(page, "group", "out"), [], "mid.json as saved has an issue: no sockets");

    // top › mid › inner: inner gets its scene_2 (unsaved), so mid (not edited) is valid.
    await tabIn(page);
    await page.click('g.node[data-node="group"] .title');
    await page.keyboard.press("Tab");
    await page.waitForSelector('g.node[data-node="fighter_hi"]');
    equal(await crumbs(page), `${top}  ›  ${mid}  ›  ${inner}`);
    await addSecondOutput(page);
    await page.evaluate(() =>
      (globalThis as unknown as { studio: { editor: { select(ids: string[]): void } } }).studio.editor
        .select([])
    );
    await page.focus("#editor");
    await page.keyboard.press("Tab");
    await page.waitForSelector('g.node[data-node="fighter_hi"]', { state: "detached" });
    await checked(page, "valid");
    await tabOut(page);
    await checked(page, "valid");
    deepEqual(await sockets(page, "group", "out"), ["scene", "hi"]);

    // Closing mid's tab: its file, read with inner as edited, still has both sockets.
    await page.click(`${tab(mid)} .close`);
    await statusReads(page, `Closed ${mid}`);
    deepEqual(await sockets(page, "group", "out"), ["scene", "hi"], "at once, not after the next check");
    await checked(page, "valid");
    deepEqual(await sockets(page, "group", "out"), ["scene", "hi"]);

    // A run reads inner as edited through mid's file: export of group.hi is the detail-3 fighter.
    await drag(page, socket("group", "hi", "out"), socket("export", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="group.hi->export.scene"]');
    await checked(page, "valid");
    const ran = await runTop(page, studio.url);
    deepEqual(ran.glb, await fighterGlb(dir, 3));
    assert(ran.log.some((line) => line.includes(`${inner} runs as edited`)), ran.log.join("\n"));
    equal(ran.badge, "badge state-done");
    // Editing inner after the run dims the top graph's badges (the run read it), though no open graph
    // leads to it any more: inner alone, its scene_2 undone, then the top graph's tab.
    await openByPath(page, inner);
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    await page.waitForSelector(socket("@outputs", "scene_2", "in"), { state: "detached" });
    await page.click(tab(top));
    await shows(page, top);
    await checked(page, "2 issue(s)");
    equal(
      await page.getAttribute('g.node[data-node="export"] text.badge', "class"),
      "badge state-done stale",
    );
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
