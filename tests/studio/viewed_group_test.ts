/// <reference lib="dom" />
/**
 * A node group only viewed in this tab (entered with Tab, not edited) and then changed on disk by
 * another tab, an editor or `git pull`, in chromium: the live check and a run read the file as it is
 * now, not the version the tab opened — sent as opened, the graph was checked (and run) against a
 * group that no longer exists, silently valid; and entering it again shows it as the file is now.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, openStudio, statusReads, tabOut } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = {
  studio: { editor: { select(ids: string[]): void }; current(): { graph: { outputs?: unknown } } };
};

/** A group file: panels found on the scene given, its result out under `output`. */
const group = (output: string) => ({
  version: 1,
  inputs: { scene: { type: "scene" } },
  nodes: { panels: { type: "rig.detect_panels", inputs: { scene: { $input: "scene" } } } },
  outputs: { [output]: "panels.scene" },
});

Deno.test({
  name: "studio: a group viewed here and changed on disk is checked as the file is now",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-viewed-group-" });
  await Deno.mkdir(join(dir, "graphs"));
  const top = join(dir, "graphs", "top.json");
  const groupFile = join(dir, "graphs", "group.json");
  await Deno.writeTextFile(groupFile, JSON.stringify(group("scene")));
  await Deno.writeTextFile(
    top,
    JSON.stringify({
      version: 1,
      nodes: {
        fighter: { type: "demo.fighter" },
        g: { type: "graph", graph: "group.json", inputs: { scene: "fighter.scene" } },
      },
      outputs: { scene: "g.scene" },
    }),
  );
  const { studio, page, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    // View the group (Tab into it and out again): the tab now holds it open, unedited.
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["g"]));
    await page.focus("#editor");
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
    await tabOut(page);
    // Another tab renames the group's output on disk; this tab then edits the top graph.
    await Deno.writeTextFile(groupFile, JSON.stringify(group("rigged")));
    await page.fill("#node-search", "demo.fighter");
    await page.press("#node-search", "Enter");
    await checked(page, "1 issue(s)");
    // The top graph's output names the group's output the file no longer has.
    equal(
      await page.textContent("#issues li"),
      "unknown_socket at /outputs/scene: node 'g' has no output 'scene'",
    );
    // Tab into it again: shown as its file is now (not as opened), and said so.
    await page.evaluate(() => (globalThis as unknown as Studio).studio.editor.select(["g"]));
    await page.focus("#editor");
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
    await statusReads(
      page,
      `${groupFile} changed on disk since it was opened here: shown as its file is now (Undo shows the old)`,
    );
    const shown = await page.evaluate(() =>
      JSON.stringify((globalThis as unknown as Studio).studio.current().graph.outputs)
    );
    equal(shown, JSON.stringify({ rigged: "panels.scene" }));
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
