/// <reference lib="dom" />
/**
 * A pipeline authored from an empty graph, in chromium, as a first-time user builds one: nodes added
 * from the search box one after another each land in view and clear of every other node (they used
 * to land on top of each other at the view's centre, the last hiding the rest and their sockets);
 * wired, given a path and run, the file written is the demo fighter's GLB exported directly.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { boxOf, checked, drag, openStudio, socket } from "./page_helpers.ts";
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
