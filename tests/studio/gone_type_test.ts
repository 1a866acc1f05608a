/// <reference lib="dom" />
/**
 * A graph written for another version, with a node type this runtime does not have (renamed or
 * removed): the page draws the node, marks its wires and names it in the check, shows the
 * parameters the file gives it, and saves them back untouched — never a node dropped silently.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio page: a node type the runtime no longer has is drawn, explained, and saved back as it was",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-gone-type-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "old.json");
  const gone = {
    type: "rig.auto_hinge_v1",
    params: { threshold: 0.5, mode: "wing", axes: [1, 0, 0], note: "left\u202Eright" },
    inputs: { scene: "decode.scene" },
  };
  const graph = {
    version: 1,
    nodes: {
      read: { type: "io.read", params: { path: "models/ship.glb" } },
      decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
      hinge: gone,
      export: { type: "export.gltf", inputs: { scene: "hinge.scene" } },
    },
    outputs: { glb: "export.bytes" },
  };
  await Deno.writeTextFile(file, JSON.stringify(graph));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.waitForFunction(() => document.getElementById("issue-count")!.textContent !== "");
    const issues = await page.textContent("#issues");
    assert(issues!.includes("unknown node type 'rig.auto_hinge_v1'"), issues!);
    const bad = await page.$$eval("path.wire.bad", (w) => w.map((p) => p.getAttribute("data-wire")).sort());
    deepEqual(bad, ["decode.scene->hinge.scene", "hinge.scene->export.scene"]);
    await page.click('g.node[data-node="hinge"] .title');
    const doc = await page.textContent("#params .doc");
    assert(doc!.startsWith("'rig.auto_hinge_v1' is not a node type this runtime has"), doc!);
    const rows = await page.$$eval(
      "#params .param.kept",
      (r) => r.map((row) => [row.getAttribute("data-param"), row.querySelector("code")!.textContent]),
    );
    deepEqual(
      rows,
      Object.entries(gone.params).map(([k, v]) => [k, JSON.stringify(v).replace("\u202E", "[U+202E]")]),
    );
    // Duplicate, undo it, move it, save: the node keeps what the file gave it.
    await page.focus("#editor");
    await page.keyboard.press("Shift+D");
    await page.waitForSelector('g.node[data-node="hinge_2"]');
    await page.keyboard.press("Control+z");
    await page.waitForFunction(() => !document.querySelector('g.node[data-node="hinge_2"]'));
    const box = (await page.locator('g.node[data-node="hinge"] .title').boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 40, { steps: 4 });
    await page.mouse.up();
    await page.click("#save");
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    const saved = JSON.parse(await Deno.readTextFile(file));
    deepEqual(saved.nodes.hinge, gone);
    equal(Object.keys(saved.nodes).join(), "read,decode,hinge,export");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
