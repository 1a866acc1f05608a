/// <reference lib="dom" />
/**
 * A group node's sockets follow its group as it is open in the page, in chromium: an output added
 * inside an open group tab, unsaved, is a socket of the group node at once; wired in the parent, the
 * check finds nothing wrong and a run computes it (the bytes a graph wired to it directly gives);
 * undone inside the group, the socket is gone, and the parent's wire to it stays, marked, with the
 * check's issue.
 */
import { deepEqual, equal, notDeepEqual, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createRegistry, type GraphFile, runGraph } from "../../mod.ts";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, drag, openStudio, socket, sockets } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** The group: the demo fighter at mesh detail 1 as its output, and one at detail 3 not (yet) output. */
const INNER: GraphFile = {
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter", params: { detail: 1 } },
    fighter_hi: { type: "demo.fighter", params: { detail: 3 } },
  },
  outputs: { scene: "fighter.scene" },
};

/** The graph that uses it, exporting its scene as a GLB. */
const TOP: GraphFile = {
  version: 1,
  nodes: {
    group: { type: "graph", graph: "inner.json" },
    export: { type: "export.gltf", inputs: { scene: "group.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

/** The GLB of the detail-3 fighter exported directly: what `group.scene_2` feeding export must give. */
async function detail3Glb(dir: string): Promise<Uint8Array> {
  const graph: GraphFile = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter", params: { detail: 3 } },
      export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
    },
    outputs: { glb: "export.bytes" },
  };
  const result = await runGraph({ json: graph, file: join(dir, "flat.json"), dir }, {
    registry: createRegistry(),
    outDir: join(dir, "flat-out"),
    cacheDir: false,
  });
  return (result.outputs.glb as { bytes: Uint8Array }).bytes;
}

Deno.test({
  name: "studio: a group node's sockets follow its open, unsaved group (wire, check, run, undo)",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-live-sockets-" });
  await Deno.mkdir(join(dir, "graphs"));
  const top = join(dir, "graphs", "top.json");
  const inner = join(dir, "graphs", "inner.json");
  await Deno.writeTextFile(top, JSON.stringify(TOP));
  await Deno.writeTextFile(inner, JSON.stringify(INNER));
  const innerText = await Deno.readTextFile(inner);
  const { studio, page, errors, close } = await openStudio(dir);
  const crumbs = () => page.textContent("#crumbs");
  const tabIn = async () => {
    await page.click('g.node[data-node="group"] .title');
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
  };
  const tabOut = async () => {
    await page.evaluate(() =>
      (globalThis as unknown as { studio: { editor: { select(ids: string[]): void } } }).studio.editor
        .select([])
    );
    await page.focus("#editor");
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("›"));
  };
  /** Runs the top graph; the GLB it output, the export node's badge, the log. */
  const run = async () => {
    await page.click("#run");
    await page.waitForFunction(() =>
      /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
    );
    const status = (await page.textContent("#status"))!;
    assert(status.startsWith("Run finished"), status);
    return {
      glb: new Uint8Array(await (await fetch(`${studio.url}api/output?name=glb`)).arrayBuffer()),
      badge: await page.getAttribute('g.node[data-node="export"] text.badge', "class"),
      log: await page.locator("#run-log li").allTextContents(),
    };
  };
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
    deepEqual(edited.glb, await detail3Glb(dir), "export gets fighter_hi's scene through group.scene_2");
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
