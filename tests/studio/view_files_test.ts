/// <reference lib="dom" />
/**
 * Framing and written files, in chromium: a graph opens framed (every node in view, centred, never
 * zoomed past 1:1), also when it was opened while the 3D preview hid the editor; Numpad . frames the
 * selection (also with Num Lock off, when the key reads Delete: nothing is deleted) and Home frames
 * all again; a run of a graph with no graph outputs lists the files its `io.write` nodes wrote, with
 * their sizes on disk, a download link giving those bytes and a Preview for a GLB.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio, statusReads } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A node's width on the canvas (`studio/web/svg.ts`): drawn this wide at 1:1. */
const WIDTH = 200;

/** Four nodes spread over 3,500 × 1,000 canvas units far from the origin, and Group Input and Output. */
const FAR = {
  version: 1,
  nodes: Object.fromEntries([0, 1, 2, 3].map((i) => [`n${i}`, { type: "demo.fighter" }])),
  ui: {
    nodes: Object.fromEntries([0, 1, 2, 3].map((i) => [`n${i}`, [3000 + i * 900, -2000 + i * 300]])),
    inputs: [2800, -2000],
    outputs: [6800, -1000],
  },
};

/** Two nodes and Group Input and Output in 640 × 250 units: framed, they would be blown up but for the 1:1 cap. */
const NEAR = {
  version: 1,
  nodes: { a: { type: "demo.fighter" }, b: { type: "demo.fighter" } },
  ui: { nodes: { a: [220, 0], b: [220, 160] }, inputs: [0, 0], outputs: [440, 0] },
};

/** No graph outputs: what it makes goes to files, through two io.write nodes (`notes`: a file to copy). */
const writes = (notes: string) => ({
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter", params: { detail: 1 } },
    export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
    write_glb: {
      type: "io.write",
      inputs: { bytes: "export.bytes" },
      params: { path: "models/fighter.glb" },
    },
    notes: { type: "io.read", params: { path: notes } },
    write_notes: { type: "io.write", inputs: { bytes: "notes.bytes" }, params: { path: "notes/copy.txt" } },
  },
});

type Box = { id: string | null; x: number; y: number; width: number; height: number };

/** The editor's box, and each node's in page pixels: all it draws (`whole`) and its body. */
async function boxes(page: Page): Promise<{ svg: Box; whole: Box[]; bodies: Box[] }> {
  return await page.evaluate(() => {
    const box = (e: Element, id = e.getAttribute("data-node")) => {
      const r = e.getBoundingClientRect();
      return { id, x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const nodes = [...document.querySelectorAll("g.node")];
    return {
      svg: box(document.getElementById("editor")!),
      whole: nodes.map((g) => box(g)),
      bodies: nodes.map((g) => box(g.querySelector("rect.body")!, g.getAttribute("data-node"))),
    };
  });
}

/**
 * Fails unless all every node draws (sockets, badges) lies inside the editor and the nodes' bodies
 * are centred in it (to 2 px); returns the bodies.
 */
async function framed(page: Page): Promise<Box[]> {
  const { svg, whole, bodies } = await boxes(page);
  for (const n of whole) {
    assert(
      n.x >= svg.x && n.y >= svg.y && n.x + n.width <= svg.x + svg.width &&
        n.y + n.height <= svg.y + svg.height,
      `${n.id} ${JSON.stringify(n)} is not inside the editor ${JSON.stringify(svg)}`,
    );
  }
  const left = Math.min(...bodies.map((n) => n.x)), right = Math.max(...bodies.map((n) => n.x + n.width));
  const top = Math.min(...bodies.map((n) => n.y)), bottom = Math.max(...bodies.map((n) => n.y + n.height));
  assert(Math.abs((left + right) / 2 - (svg.x + svg.width / 2)) < 2, `not centred across: ${left}…${right}`);
  assert(Math.abs((top + bottom) / 2 - (svg.y + svg.height / 2)) < 2, `not centred down: ${top}…${bottom}`);
  return bodies;
}

/** Opens `path` with the path box and Open, and waits until the crumbs name it. */
async function openByPath(page: Page, path: string): Promise<void> {
  await page.fill("#graph-path", path);
  await page.click("#open-path");
  await page.waitForFunction((p) => document.getElementById("crumbs")!.textContent!.endsWith(p), path);
}

Deno.test({
  name: "studio: graphs open framed, Home and Numpad . frame, a run lists the files it wrote",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-view-files-" });
  await Deno.mkdir(join(dir, "graphs"));
  const path = (name: string) => join(dir, "graphs", `${name}.json`);
  await Deno.writeTextFile(path("far"), JSON.stringify(FAR));
  await Deno.writeTextFile(path("near"), JSON.stringify(NEAR));
  await Deno.writeTextFile(path("writes"), JSON.stringify(writes(join(dir, "graphs", "notes.txt"))));
  await Deno.writeTextFile(join(dir, "graphs", "notes.txt"), "hinge notes\n");
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${studio.url}?graph=${encodeURIComponent(path("far"))}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("a spread-out graph opens with every node in view, centred", async () => {
      const nodes = await framed(page);
      equal(nodes.length, 6);
      // Zoomed out to fit (3,900 units into a 760 px editor), but no further than that needs.
      assert(nodes[1].width > WIDTH * 0.15 && nodes[1].width < WIDTH * 0.2, `width ${nodes[1].width}`);
    });

    await t.step("a small graph opens centred at 1:1, not blown up", async () => {
      await openByPath(page, path("near"));
      const nodes = await framed(page);
      for (const n of nodes) equal(Math.round(n.width), WIDTH, `${n.id} at 1:1`);
    });

    await t.step("a graph opened while the 3D preview is shown is framed once the editor shows", async () => {
      await openByPath(page, path("far"));
      await page.click("#tab-preview");
      await openByPath(page, path("near"));
      await page.click("#tab-editor");
      await page.waitForFunction(() => document.querySelector("g.node")!.getBoundingClientRect().width > 100);
      const nodes = await framed(page);
      for (const n of nodes) equal(Math.round(n.width), WIDTH, `${n.id} at 1:1`);
    });

    await t.step("Numpad . frames the selected node, Home frames all again", async () => {
      await openByPath(page, path("far"));
      await page.focus("#editor");
      await page.keyboard.press("NumpadDecimal");
      await statusReads(page, "Frame selected: select nodes first (Home frames all)");
      await page.click('g.node[data-node="n2"] .title');
      await page.keyboard.press("NumpadDecimal");
      const { svg, bodies } = await boxes(page);
      const n2 = bodies.find((n) => n.id === "n2")!;
      equal(Math.round(n2.width), WIDTH);
      assert(Math.abs(n2.x + n2.width / 2 - (svg.x + svg.width / 2)) < 2, "n2 centred across");
      assert(Math.abs(n2.y + n2.height / 2 - (svg.y + svg.height / 2)) < 2, "n2 centred down");
      // With Num Lock off the same key reads Delete: it frames, it must not delete the selection.
      await page.keyboard.press("Home");
      await framed(page);
      await page.locator("#editor").dispatchEvent("keydown", { key: "Delete", code: "NumpadDecimal" });
      const after = (await boxes(page)).bodies;
      deepEqual(after.map((n) => n.id).sort(), ["@inputs", "@outputs", "n0", "n1", "n2", "n3"]);
      equal(Math.round(after.find((n) => n.id === "n2")!.width), WIDTH);
      await page.keyboard.press("Home");
      const all = await framed(page);
      assert(all[1].width < WIDTH * 0.2, `Home zooms out again: ${all[1].width}`);
    });

    await t.step("a run with no graph outputs lists the files its io.write nodes wrote", async () => {
      await openByPath(page, path("writes"));
      for (const round of ["first", "cached"]) {
        await page.click("#run");
        await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Run "));
        await page.waitForFunction(() => !(document.getElementById("run") as HTMLButtonElement).disabled);
        const said = (await page.textContent("#status"))!;
        assert(said.startsWith("Run finished"), `${round} run: ${said}`);
        const glb = await Deno.readFile(join(dir, "out", "models", "fighter.glb"));
        const notes = await Deno.readFile(join(dir, "out", "notes", "copy.txt"));
        equal(new TextDecoder().decode(notes), "hinge notes\n");
        const rows = await page.locator("#outputs li").allTextContents();
        deepEqual(rows.map((r) => r.replace(/\s+Preview$/, "")), [
          `${join(dir, "out", "models", "fighter.glb")} (written, ${glb.length} bytes)`,
          `${join(dir, "out", "notes", "copy.txt")} (written, ${notes.length} bytes)`,
        ], `${round} run`);
        // The link gives the file's bytes; only the GLB has a Preview.
        const href = await page.locator("#outputs li a").first().getAttribute("href");
        const fetched = await page.evaluate(
          async (h) => (await (await fetch(h!)).arrayBuffer()).byteLength,
          href,
        );
        equal(fetched, glb.length);
        equal(await page.locator("#outputs li button").count(), 1);
      }
      await page.click("#outputs li button");
      await page.waitForSelector("body[data-preview-ready]");
    });

    deepEqual(errors, []);
  } finally {
    await close();
  }
});
