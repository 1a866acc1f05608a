/// <reference lib="dom" />
/**
 * A run's badges and the node groups it read, in chromium: a group that was not open when the top
 * graph ran, opened afterwards (Tab), leaves the badges as they are; edited, they dim ("from the last
 * run; the graph changed since"), as an edit of the top graph dims them; undone, they are current
 * again. Undo in the top graph, which has no step of its own, says which open file has one.
 */
import { equal } from "node:assert/strict";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { badgeIs, checked, drag, openStudio, socket, statusReads, tabOut } from "./page_helpers.ts";
import { runTop, tabIn, writeGroupGraphs } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a group opened after a run leaves its badges current; edited, they dim",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-stale-groups-" });
  const { top, inner } = await writeGroupGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    const ran = await runTop(page, studio.url);
    equal(ran.badge, "badge state-done");

    // Opened (Tab in and out), unchanged: the badges are current.
    await tabIn(page);
    await tabOut(page);
    await checked(page, "valid");
    await badgeIs(page, "export", "badge state-done");
    await badgeIs(page, "group", "badge state-done");

    // Edited inside (its output now fighter_hi's scene): the run read the file, not this.
    await tabIn(page);
    await drag(page, socket("fighter_hi", "scene", "out"), socket("@outputs", "scene", "in"));
    await page.waitForSelector('path.wire[data-wire="fighter_hi.scene->@outputs.scene"]', {
      state: "attached",
    });
    await tabOut(page);
    await checked(page, "valid");
    await badgeIs(page, "export", "badge state-done stale");
    await badgeIs(page, "group", "badge state-done stale");
    // Undo here: the top graph has nothing to undo; the status bar says where the edit's step is.
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    await statusReads(
      page,
      `Nothing to undo in ${top}; each open file has its own history: ${inner} has steps to undo (click its tab)`,
    );

    // Undone inside: the group is its file again, as the run read it.
    await tabIn(page);
    await page.focus("#editor");
    await page.keyboard.press("Control+z");
    await page.waitForSelector('path.wire[data-wire="fighter.scene->@outputs.scene"]', { state: "attached" });
    await tabOut(page);
    await checked(page, "valid");
    await badgeIs(page, "export", "badge state-done");
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
  }
});
