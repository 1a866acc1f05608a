/// <reference lib="dom" />
/**
 * The page with what a script generates and what two tabs do, in chromium: a graph of thousands of
 * nodes opens drawing only the nodes around the view (the rest drawn as a pan brings them in), a box
 * selection restyles the nodes it touches without redrawing the graph, and a Save from a second tab
 * over a file the first tab saved since asks first and, dismissed, keeps the first tab's edit.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { CULL_FROM } from "../../studio/web/editor.ts";
import { FAR_BELOW } from "../../studio/web/cull.ts";
import { prng } from "../support/prng.ts";
import { tempDir } from "../support/temp.ts";
import { answering, openStudio, panOneViewDown, statusReads } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A script's graph: `count` reads, each decoded, in the order a loop writes them (no positions). */
function generated(count: number, seed: number) {
  const random = prng(seed);
  const nodes: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `part_${Math.floor(random() * 1e6)}_${i}`;
    nodes[`read_${name}`] = { type: "io.read", params: { path: `models/${name}.glb` } };
    nodes[`decode_${name}`] = { type: "decode.auto", inputs: { bytes: `read_${name}.bytes` } };
  }
  return { version: 1, nodes, outputs: {} };
}

Deno.test({
  name: "studio: a generated graph of thousands of nodes draws what is in view; two tabs never drop a save",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-large-" });
  await Deno.mkdir(join(dir, "graphs"));
  const big = join(dir, "graphs", "generated.json");
  const graph = generated(CULL_FROM + 500, 21);
  const total = Object.keys(graph.nodes).length + 2; // with Group Input and Group Output
  await Deno.writeTextFile(big, JSON.stringify(graph));
  const small = join(dir, "graphs", "shared.json");
  await Deno.writeTextFile(small, JSON.stringify({ version: 1, nodes: {}, outputs: {} }));
  const { studio, page, browser, errors, close } = await openStudio(dir, false);
  const drawn = () => page.locator("g.node").count();
  try {
    await t.step("only the nodes around the view are drawn, and a pan draws what it brings in", async () => {
      await page.goto(`${studio.url}?graph=${encodeURIComponent(big)}`);
      await page.waitForSelector("body[data-ready=true]");
      const first = await drawn();
      assert(first > 0 && first < total, `${first} of ${total} nodes drawn`);
      const before = new Set(await page.$$eval("g.node", (g) => g.map((n) => n.getAttribute("data-node"))));
      // Two views' worth down the graph's columns, through rows not drawn before.
      for (let i = 0; i < 2; i++) await panOneViewDown(page);
      const after = await page.$$eval("g.node", (g) => g.map((n) => n.getAttribute("data-node")));
      assert(after.some((id) => !before.has(id)), "nodes brought into view are drawn");
      assert(after.length < total, `${after.length} of ${total} nodes drawn after the pan`);
    });

    await t.step(
      "a zoom in or a short pan inside what was drawn redraws nothing, all in view drawn",
      async () => {
        type Editor = {
          render(): void;
          view: { x: number; y: number; scale: number };
          model: { ids(): string[]; position(id: string): [number, number]; height(id: string): number };
        };
        const box = (await page.locator("#editor").boundingBox())!;
        await page.evaluate(() => {
          const ed = (globalThis as unknown as { studio: { editor: Editor } }).studio.editor;
          const render = ed.render.bind(ed);
          const counted = globalThis as unknown as { renders: number };
          counted.renders = 0;
          ed.render = () => (counted.renders++, render());
        });
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
        await page.keyboard.down("Alt");
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 3 });
        await page.mouse.up();
        await page.keyboard.up("Alt");
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
        const [renders, missing] = await page.evaluate(([width, height]) => {
          const ed = (globalThis as unknown as { studio: { editor: Editor } }).studio.editor;
          const drawn = new Set(
            [...document.querySelectorAll("g.node")].map((g) => g.getAttribute("data-node")),
          );
          const { x, y, scale } = ed.view;
          const inView = ed.model.ids().filter((id) => {
            const [nx, ny] = ed.model.position(id);
            return nx < x + width / scale && nx + 200 > x && ny < y + height / scale &&
              ny + ed.model.height(id) > y;
          });
          return [
            (globalThis as unknown as { renders: number }).renders,
            inView.filter((id) => !drawn.has(id)),
          ];
        }, [box.width, box.height]);
        equal(renders, 0, "nothing redrawn");
        deepEqual(missing, [], "every node in view is drawn");
        // A pan of a whole view leaves what was drawn: redrawn.
        await panOneViewDown(page);
        assert(
          await page.evaluate(() => (globalThis as unknown as { renders: number }).renders) > 0,
          "redrawn",
        );
      },
    );

    await t.step("a box selection restyles the nodes it touches, the drawing kept", async () => {
      const box = (await page.locator("#editor").boundingBox())!;
      await page.evaluate(() => document.querySelector("g.node")!.setAttribute("data-kept", "1"));
      await page.mouse.move(box.x + 2, box.y + 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height - 2, { steps: 3 });
      await page.mouse.up();
      const selected = await page.locator("g.node.selected").count();
      assert(selected > 0, "nodes in the box are selected");
      equal(await page.locator("g.node[data-kept]").count(), 1, "not redrawn");
    });

    await t.step(
      "zoomed far out, nodes are boxes; a move, its undo and redo, a zoom in show at once",
      async () => {
        type Far = {
          studio: { editor: { view: { scale: number }; model: { position(id: string): number[] } } };
        };
        const scale = () => page.evaluate(() => (globalThis as unknown as Far).studio.editor.view.scale);
        assert(await scale() < FAR_BELOW, `opened at ${await scale()}, under ${FAR_BELOW}`);
        // Each node its group, body and header: not its title, sockets, their tooltips and labels.
        const [nodes, inside] = await page.evaluate(() => [
          document.querySelectorAll("#editor g.node").length,
          document.querySelectorAll("#editor g.node *").length,
        ]);
        assert(nodes > 0 && inside <= 2 * nodes, `${inside} elements inside ${nodes} nodes`);
        // A node in the middle of the view, moved by dragging it; undo and redo move its drawing too.
        const box = (await page.locator("#editor").boundingBox())!;
        const id = await page.evaluate(([x, y]) => {
          const hit = document.elementFromPoint(x, y)?.closest("g.node") ??
            [...document.querySelectorAll("g.node")].find((g) => {
              const r = g.getBoundingClientRect();
              return r.top > 80 && r.bottom < innerHeight - 80 && r.left > 80 && r.right < innerWidth / 2;
            });
          return hit!.getAttribute("data-node")!;
        }, [box.x + box.width / 2, box.y + box.height / 2]);
        const drawnAt = () =>
          page.locator(`g.node[data-node="${id}"]`).getAttribute("transform", { timeout: 2000 });
        const modelAt = () =>
          page.evaluate((n) => (globalThis as unknown as Far).studio.editor.model.position(n), id);
        const before = await modelAt();
        const node = (await page.locator(`g.node[data-node="${id}"]`).boundingBox())!;
        await page.mouse.move(node.x + node.width / 2, node.y + node.height / 2);
        await page.mouse.down();
        await page.mouse.move(node.x + node.width / 2 + 60, node.y + node.height / 2 + 40, { steps: 3 });
        await page.mouse.up();
        const moved = await modelAt();
        assert(moved[0] > before[0] && moved[1] > before[1], `moved from ${before} to ${moved}`);
        equal(await drawnAt(), `translate(${moved[0]} ${moved[1]})`);
        await page.keyboard.press("Control+z");
        deepEqual(await modelAt(), before);
        equal(await drawnAt(), `translate(${before[0]} ${before[1]})`, "undo moves the drawing back");
        await page.keyboard.press("Control+Shift+z");
        equal(await drawnAt(), `translate(${moved[0]} ${moved[1]})`, "redo moves it again");
        // Zoomed back in past FAR_BELOW, every node drawn has its title and sockets again.
        while (await scale() < FAR_BELOW) await page.mouse.wheel(0, -100);
        const [titled, drawn, sockets] = await page.evaluate(() => [
          document.querySelectorAll("#editor g.node:not(.far) .title").length,
          document.querySelectorAll("#editor g.node").length,
          document.querySelectorAll("#editor g.node circle[data-socket]").length,
        ]);
        assert(
          drawn > 0 && titled === drawn && sockets >= drawn,
          `${titled} titled, ${sockets} sockets, ${drawn}`,
        );
      },
    );

    await t.step(
      "a second tab's Save over the first's asks, and dismissed keeps the first's edit",
      async () => {
        const other = await browser.newPage();
        for (const tab of [page, other]) {
          await tab.goto(`${studio.url}?graph=${encodeURIComponent(small)}`);
          await tab.waitForSelector("body[data-ready=true]");
        }
        for (const [tab, type] of [[page, "demo.fighter"], [other, "export.gltf"]] as const) {
          await tab.fill("#node-search", type);
          await tab.press("#node-search", "Enter");
          await tab.waitForFunction(() => document.querySelectorAll("g.node").length === 3);
        }
        await page.click("#save");
        await page.waitForFunction(() =>
          document.getElementById("status")!.textContent!.startsWith("Saved ")
        );
        const asked = await answering(other, "#save", false);
        equal(
          asked,
          `${small} changed on disk since this page opened it (another tab, an editor or git wrote it): ` +
            "not saved over it. Overwrite it with this page's version (its changes are lost)?",
        );
        await statusReads(
          other,
          `${small} changed on disk since it was opened: not saved over it (Revert shows the file's)`,
        );
        const types = (file: string) =>
          Deno.readTextFile(file).then((text) =>
            Object.values(JSON.parse(text).nodes).map((n) => (n as { type: string }).type)
          );
        equal((await types(small)).join(), "demo.fighter", "the first tab's save kept");
        // Confirmed, the second tab's version is written (the user chose it).
        await answering(other, "#save", true);
        await other.waitForFunction(() =>
          document.getElementById("status")!.textContent!.startsWith("Saved ")
        );
        equal((await types(small)).join(), "export.gltf");
        await other.close();
      },
    );
    equal(errors.filter((e) => !e.includes("status of 409")).join("\n"), "");
  } finally {
    await close();
  }
});
