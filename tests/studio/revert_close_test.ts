/// <reference lib="dom" />
/**
 * Revert and closing a group tab, in chromium: an output added in an open group tab is a socket of
 * its node; Revert (confirmed) re-reads the group from its file, so the socket is gone and the
 * parent's wire to it is marked (Undo and Redo take the revert back and forth); closing a group tab
 * with unsaved edits asks, and once closed its edits are gone from the next run (the saved group's
 * bytes), while the top graph's tab has no close button.
 */
import { deepEqual, equal, notDeepEqual, ok as assert } from "node:assert/strict";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import {
  answering,
  checked,
  drag,
  openStudio,
  socket,
  sockets,
  statusReads,
  tabOut as tabOutOf,
} from "./page_helpers.ts";
import { fighterGlb, runTop, tabIn as tabInto, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: Revert re-reads a group from its file; closing a group tab drops its edits from runs",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-revert-" });
  const { top, inner, innerText } = await writeGroupGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  const crumbs = () => page.textContent("#crumbs");
  const innerTab = `.file-tab[data-path="${inner}"]`;
  const tabIn = () => tabInto(page), tabOut = () => tabOutOf(page), run = () => runTop(page, studio.url);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    const saved = await run();
    deepEqual(saved.glb, await fighterGlb(dir, 1));
    equal(await page.locator(`.file-tab[data-path="${top}"] .close`).count(), 0, "the top graph stays");

    // Inside the group (unsaved): fighter_hi's scene becomes its output scene_2; the parent wires it.
    await tabIn();
    await drag(page, socket("fighter_hi", "scene", "out"), socket("@outputs", "+", "in"));
    await checked(page, "valid");
    await tabOut();
    await page.waitForSelector(socket("group", "scene_2", "out"));
    await drag(page, socket("group", "scene_2", "out"), socket("export", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="group.scene_2->export.scene"]');
    await checked(page, "valid");

    // Revert in the group, confirmed: re-read from its file, scene_2 is gone.
    await tabIn();
    equal(await crumbs(), `${top} *  ›  ${inner} *`);
    const asked = await answering(page, "#revert", true);
    assert(asked.startsWith(`Revert ${inner} to its file?`), asked);
    await statusReads(page, `Reverted ${inner} to its file (Undo brings its changes back)`);
    await page.waitForSelector(socket("@outputs", "scene_2", "in"), { state: "detached" });
    equal(await crumbs(), `${top} *  ›  ${inner}`);
    equal(await page.textContent(innerTab), "inner.json×");
    // The revert is one undo step: Undo brings the edit back (unsaved), Redo reverts again.
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    await page.waitForSelector(socket("@outputs", "scene_2", "in"));
    equal(await crumbs(), `${top} *  ›  ${inner} *`);
    await page.keyboard.press("Control+Shift+z");
    await page.waitForSelector(socket("@outputs", "scene_2", "in"), { state: "detached" });
    equal(await crumbs(), `${top} *  ›  ${inner}`);

    // The parent: the group node has the file's sockets again, and the wire to scene_2 is marked.
    await tabOut();
    await checked(page, "1 issue(s)");
    deepEqual(await sockets(page, "group", "out"), ["scene"]);
    const issue = (await page.textContent("#issues li"))!;
    assert(issue.startsWith("unknown_socket at /nodes/export/inputs/scene: "), issue);
    equal(await page.locator('path.wire.bad[data-wire="group.scene_2->export.scene"]').count(), 1);

    // Rewire export to group.scene; in the group, scene now comes from fighter_hi (unsaved).
    await drag(page, socket("group", "scene", "out"), socket("export", "scene", "in"));
    await checked(page, "valid");
    await tabIn();
    await drag(page, socket("fighter_hi", "scene", "out"), socket("@outputs", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="fighter_hi.scene->@outputs.scene"]');
    await checked(page, "valid");
    await tabOut();
    const edited = await run();
    deepEqual(edited.glb, await fighterGlb(dir, 3));
    assert(edited.log.some((line) => line.includes(`${inner} runs as edited`)), edited.log.join("\n"));

    // Close the group's tab: asked; dismissed, it stays; accepted, its edits are gone.
    const closeAsked = await answering(page, `${innerTab} .close`, false);
    equal(closeAsked, `Close ${inner}? Its unsaved changes are dropped.`);
    await statusReads(page, `Close cancelled: ${inner} keeps its unsaved changes`);
    equal(await page.textContent(innerTab), "inner.json *×");
    await answering(page, `${innerTab} .close`, true);
    await statusReads(page, `Closed ${inner}: its unsaved changes are dropped`);
    equal(await page.locator(innerTab).count(), 0);
    await checked(page, "valid");
    deepEqual(await sockets(page, "group", "out"), ["scene"]);
    const after = await run();
    notDeepEqual(after.glb, edited.glb);
    deepEqual(after.glb, saved.glb, "the run reads the saved group");
    assert(!after.log.some((line) => line.includes("runs as edited")), after.log.join("\n"));
    // Tab opens the group from its file again (the top graph, wired to group.scene, is as its file too).
    await tabIn();
    equal(await crumbs(), `${top}  ›  ${inner}`);
    equal(await page.locator('path.wire[data-wire="fighter.scene->@outputs.scene"]').count(), 1);
    equal(await Deno.readTextFile(inner), innerText, "the group's file is never written");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
