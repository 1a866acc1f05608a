/// <reference lib="dom" />
/**
 * Save over a graph file that is not JSON now — a merge half done in it (git's conflict markers), or
 * a save another editor left cut short — is not written unasked: the page says why and where, and
 * writes this page's graph only when the user confirms, and only over the bytes they were told about.
 * A file that is valid JSON but not a graph (`deno.json`) is never written, asked or not.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { fileDigest } from "../../studio/save_file.ts";
import { prng } from "../support/prng.ts";
import { tempDir } from "../support/temp.ts";
import { conflicted, cutShort } from "./damaged_files.ts";
import { answering, openStudio, statusReads } from "./page_helpers.ts";
import { withStudioOn } from "./server_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A small graph: a read and a decode, `extra` more reads (so two branches differ in their lines). */
function graphWith(extra: string[]) {
  const nodes: Record<string, unknown> = {
    read: { type: "io.read", params: { path: "models/ship.glb" } },
    decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
  };
  for (const name of extra) nodes[name] = { type: "io.read", params: { path: `models/${name}.glb` } };
  return { version: 1, nodes, outputs: { scene: "decode.scene" } };
}

const post = (url: string, body: unknown) =>
  fetch(`${url}api/save`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(async (r) => ({
    status: r.status,
    answer: await r.json(),
  }));

Deno.test("studio save: a damaged graph file is answered 409 naming why; written only by its own digest", async () => {
  const dir = await tempDir({ prefix: "studio-damaged-" });
  const random = prng(57);
  await withStudioOn(dir, async (url) => {
    const path = join(dir, "ship.json");
    const opened = new TextEncoder().encode(JSON.stringify(graphWith([])));
    const cases: [string, string][] = [
      ["conflict", conflicted(graphWith(["left_wing"]), graphWith(["right_wing", "tail"]))],
      ["cut", cutShort(graphWith(["a", "b"]), 0.2 + 0.6 * random())],
      ["empty", ""],
    ];
    for (const [name, text] of cases) {
      await Deno.writeTextFile(path, text);
      const graph = graphWith(["mine"]);
      const asked = await post(url, { path, graph, base: fileDigest(opened) });
      equal(asked.status, 409, name);
      equal(asked.answer.unreadable, name === "conflict" ? "conflict" : "damaged", name);
      assert(asked.answer.error.startsWith(`${path} on disk `), asked.answer.error);
      if (name === "conflict") {
        const line = text.split("\n").indexOf("<<<<<<< HEAD") + 1;
        assert(asked.answer.error.includes(`<<<<<<< at line ${line}`), asked.answer.error);
      }
      equal(await Deno.readTextFile(path), text, `${name}: not written`);
      // Without the page's base (not opened here), or with another file's digest: refused.
      equal((await post(url, { path, graph })).status, 403, `${name}: no base`);
      equal((await post(url, { path, graph, base: fileDigest(opened) })).status, 409);
      const done = await post(url, { path, graph, base: asked.answer.digest });
      equal(done.status, 200, `${name}: confirmed`);
      deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(path)).nodes), ["read", "decode", "mine"]);
    }
    // Valid JSON that is not a graph is never written, whatever digest is sent.
    const config = join(dir, "deno.json");
    const bytes = new TextEncoder().encode('{ "tasks": {} }\n');
    await Deno.writeFile(config, bytes);
    equal((await post(url, { path: config, graph: graphWith([]), base: fileDigest(bytes) })).status, 403);
    equal(await Deno.readTextFile(config), '{ "tasks": {} }\n');
    // Opening a conflicted file says so, with the lines.
    await Deno.writeTextFile(path, cases[0][1]);
    const open = await fetch(`${url}api/graph?path=${encodeURIComponent(path)}`);
    equal(open.status, 422);
    assert((await open.json()).error.includes("has merge-conflict markers"));
  }, false);
});

Deno.test({
  name: "studio page: Save over a half-merged graph asks naming the file and the conflict; Cancel keeps both",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-damaged-page-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "ship.json");
  await Deno.writeTextFile(file, JSON.stringify(graphWith([])));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.fill("#node-search", "demo.fighter");
    await page.press("#node-search", "Enter");
    await page.waitForSelector('g.node[data-node="fighter"]');
    // Meanwhile a `git merge` stops on a conflict in the file.
    const merged = conflicted(graphWith(["left_wing"]), graphWith(["right_wing"]));
    await Deno.writeTextFile(file, merged);
    const asked = await answering(page, "#save", false);
    const line = merged.split("\n").indexOf("<<<<<<< HEAD") + 1;
    assert(asked.startsWith(`${file} on disk has merge-conflict markers`), asked);
    assert(asked.includes(`<<<<<<< at line ${line}`), asked);
    assert(asked.includes(`Overwrite ${file} with this page's graph?`), asked);
    await statusReads(
      page,
      `${file} on disk is not a graph file now (a merge or another editor's save): not saved over it; ` +
        "this page keeps its edits (Save again to be asked again)",
    );
    equal(await Deno.readTextFile(file), merged, "the merge's text kept");
    assert(await page.locator("#crumbs").textContent().then((t) => t!.endsWith("*")), "still unsaved");
    // Asked again, the user chooses this page's graph.
    await answering(page, "#save", true);
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(file)).nodes), ["read", "decode", "fighter"]);
    // A save cut short is asked about the same way, and its edits saved once confirmed.
    await page.fill("#node-search", "export.gltf");
    await page.press("#node-search", "Enter");
    await page.waitForSelector('g.node[data-node="gltf"]');
    await Deno.writeTextFile(file, cutShort(graphWith(["x"]), 0.5));
    const cut = await answering(page, "#save", true);
    assert(cut.startsWith(`${file} on disk is cut short at byte `), cut);
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(file)).nodes), [
      "read",
      "decode",
      "fighter",
      "gltf",
    ]);
    // Chromium logs each 409 answer; nothing else may fail.
    equal(errors.filter((e) => !e.includes("status of 409")).join("\n"), "");
  } finally {
    await close();
  }
});
