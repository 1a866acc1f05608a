/// <reference lib="dom" />
/**
 * A group node's sockets follow its group as it is open in the page, in chromium: an output added
 * inside an open group tab, unsaved, is a socket of the group node at once; wired in the parent, the
 * check finds nothing wrong and a run computes it (the bytes a graph wired to it directly gives);
 * undone inside the group, the socket is gone, and the parent's wire to it stays, marked, with the
 * check's issue.
 */
import { deepEqual, equal, notDeepEqual, ok as assert } from "node:assert/strict";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, drag, openStudio, socket, sockets, tabOut as tabOutOf } from "./page_helpers.ts";
import { fighterGlb, runTop, tabIn as tabInto, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a group node's sockets follow its open, unsaved group (wire, check, run, undo)",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-live-sockets-" });
  const { top, inner, innerText } = await writeGroupGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  const crumbs = () => page.textContent("#crumbs");
  const tabIn = () => tabInto(page), tabOut = () => tabOutOf(page), run = () => runTop(page, studio.url);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    deepEqual(await sockets(page, "group", "out"), ["scene"]);
    const saved = await run();

    // Inside the group (unsaved): fighter_hi's scene becomes the group's output scene_2.
    await tabIn();
    await drag(page, socket("fighter_hi", "scene", "out"), socket("@outputs", "+", "in"));
    await page.waitForSelector(socket("@outputs", "scene_2", "in"));
    await checked(page, "valid");
    await tabOut();
    equal(await crumbs(), top);
    await page.waitForSelector(socket("group", "scene_2", "out"));
    deepEqual(await sockets(page, "group", "out"), ["scene", "scene_2"]);

    // The parent wires it (the page allows it: the socket is there, a scene into a scene).
    await drag(page, socket("group", "scene_2", "out"), socket("export", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="group.scene_2->export.scene"]');
    await checked(page, "valid");
    equal(await page.locator("#issues li").count(), 0);
    equal(await page.locator("path.wire.bad").count(), 0);

    // A run computes it: the detail-3 fighter's GLB, not the saved run's cache entry.
    const edited = await run();
    equal(edited.badge, "badge state-done");
    notDeepEqual(edited.glb, saved.glb);
    deepEqual(edited.glb, await fighterGlb(dir, 3), "export gets fighter_hi's scene through group.scene_2");
    assert(edited.log.some((line) => line.includes(`${inner} runs as edited`)), edited.log.join("\n"));
    equal(await Deno.readTextFile(inner), innerText, "the group's file is not written");

    // Undone inside the group: scene_2 is gone; the parent's wire to it stays, marked by the check.
    await tabIn();
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    // The group is as saved again (the parent, with its new wire, is not).
    await page.waitForFunction((i) => document.getElementById("crumbs")!.textContent!.endsWith(i), inner);
    equal(await crumbs(), `${top} *  ›  ${inner}`);
    await page.waitForSelector(socket("@outputs", "scene_2", "in"), { state: "detached" });
    await tabOut();
    await checked(page, "1 issue(s)");
    const issue = (await page.textContent("#issues li"))!;
    assert(issue.startsWith("unknown_socket at /nodes/export/inputs/scene: "), issue);
    assert(issue.includes("no output 'scene_2'"), issue);
    deepEqual(await sockets(page, "group", "out"), ["scene"]);
    equal(await page.locator('path.wire.bad[data-wire="group.scene_2->export.scene"]').count(), 1);
    equal(await page.locator("path.wire.bad").count(), 1, "only that wire");
    // The parent still has its wire (an unsaved edit of its own): nothing was dropped.
    equal(await crumbs(), `${top} *`);
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
