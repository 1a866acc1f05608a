/// <reference lib="dom" />
/**
 * The studio in a real browser (Debian's chromium via playwright-core): open graphs/aircraft.json,
 * add a node from the search box, connect it, set a parameter, save; refuse an invalid wire; run;
 * see the run's states inside the node group and back; preview the rigged fighter and check that an
 * aileron slider moves the aileron's pixels only; preview it Draco- and meshopt-compressed and a
 * KTX2-textured quad.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, runGraph } from "../../mod.ts";
import { modelPreviewGraph } from "../../studio/preview_graph.ts";
import { formatGraph } from "../../studio/format.ts";
import { buildCompound } from "../nodes/decode/freelancer/fixtures.ts";
import { animatedCar } from "../nodes/decode/carnivores/fixtures.ts";
import { encodeCar } from "../support/carnivores/encode.ts";
import { browserMissing, watchErrors } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { boxOf, copyAircraftGraphs, drag, openStudio, socket } from "./page_helpers.ts";
import { type Box, changedPixels, viewPixels } from "./preview_helpers.ts";
import { optimisedGlb } from "../support/compressed.ts";
import { basisuQuadGlb, uastcKtx2 } from "../support/ktx2.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** The page's test hook (studio/web/main.ts). */
type StudioHook = { studio: { preview(): { screenBox(name: string): Box } } };

Deno.test({
  name: "studio: edit, save, refuse, run and preview graphs/aircraft.json in chromium",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-test-" });
  const { aircraft: graphFile } = await copyAircraftGraphs(dir);
  const original = JSON.parse(await Deno.readTextFile(graphFile));
  const { studio, browser, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(graphFile)}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("add a node from the search box, connect it, set a parameter, save", async () => {
      await page.fill("#node-search", "io.write");
      await page.press("#node-search", "Enter");
      await page.waitForSelector('g.node[data-node="write"]');
      await drag(page, socket("report_json", "bytes", "out"), socket("write", "bytes", "in"));
      await page.waitForSelector('path[data-wire="report_json.bytes->write.bytes"]');
      await page.click('g.node[data-node="write"] .title');
      // Live validation answers may redraw the panel while we type (more so on a loaded machine):
      // type again until Enter has set the value in the graph (a redraw then shows it, not the old).
      const field = '#params [data-param="path"] input';
      const setPath = () =>
        page.evaluate(() =>
          (globalThis as unknown as {
            studio: { current(): { graph: { nodes: Record<string, { params?: { path?: string } }> } } };
          }).studio.current().graph.nodes.write?.params?.path
        );
      for (let attempt = 0;; attempt++) {
        await page.fill(field, "copy.rig.json");
        await page.press(field, "Enter");
        if (await setPath() === "copy.rig.json") break;
        if (attempt === 5) throw new Error("the path parameter did not keep its value");
      }
      await page.waitForFunction(
        (f) => document.querySelector<HTMLInputElement>(f)!.value === "copy.rig.json",
        field,
      );
      await page.click("#save");
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
      const text = await Deno.readTextFile(graphFile);
      const saved = JSON.parse(text);
      deepEqual(await checkGraph(graphFile), []);
      const { ui, ...graph } = saved;
      deepEqual(graph, {
        ...original,
        nodes: {
          ...original.nodes,
          write: {
            type: "io.write",
            inputs: { bytes: "report_json.bytes" },
            params: { path: "copy.rig.json" },
          },
        },
      });
      deepEqual(Object.keys(ui.nodes).sort(), Object.keys(saved.nodes).sort());
      for (const at of Object.values(ui.nodes) as number[][]) {
        assert(at.length === 2 && at.every(Number.isFinite));
      }
      equal(formatGraph(saved), text, "saved text is the stable format");
    });

    await t.step("a wire between incompatible sockets is refused with the reason", async () => {
      await drag(page, socket("fighter", "scene", "out"), socket("write", "bytes", "in"));
      const status = page.locator("#status.refused");
      await status.waitFor();
      const message = await status.textContent();
      assert(message!.includes("fighter.scene (scene)") && message!.includes("expects bytes"), message!);
      equal(await page.locator('path[data-wire="fighter.scene->write.bytes"]').count(), 0);
      equal(await page.locator('path[data-wire="report_json.bytes->write.bytes"]').count(), 1);
    });

    await t.step("run: every node ends done", async () => {
      await page.click("#run");
      await page.waitForFunction(() =>
        /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
      );
      assert(
        (await page.textContent("#status"))!.startsWith("Run finished"),
        (await page.textContent("#status"))!,
      );
      const states = await page.$$eval(
        "g.node[data-node]",
        (nodes) =>
          Object.fromEntries(nodes.map((n) => [n.getAttribute("data-node"), n.getAttribute("data-state")])),
      );
      delete states["@inputs"];
      delete states["@outputs"];
      deepEqual(Object.keys(states).sort(), [...Object.keys(original.nodes), "write"].sort());
      for (const [id, state] of Object.entries(states)) equal(state, "done", `node ${id}`);
      // The two graph outputs, then the three files the io.write nodes wrote.
      equal(await page.locator('#outputs a[href^="/api/output"]').count(), 2);
      const written = await page.locator('#outputs a[href^="/api/file"]').allTextContents();
      deepEqual(
        written.map((w) => w.replace(/ \(written, \d+ bytes\)$/, "")),
        ["copy.rig.json", "fighter.rig.json", "fighter.rigged.glb"].map((f) => join(dir, "out", f)),
      );
    });

    await t.step("the run's states show inside the node group and survive Tab in and out", async () => {
      const shownStates = () =>
        page.$$eval("g.node[data-node]", (nodes) =>
          Object.fromEntries(
            nodes.filter((n) => !n.getAttribute("data-node")!.startsWith("@"))
              .map((n) => [n.getAttribute("data-node"), n.getAttribute("data-state")]),
          ));
      const outside = await shownStates();
      await page.click('g.node[data-node="rig"] .title');
      await page.keyboard.press("Tab");
      await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      const inner = JSON.parse(await Deno.readTextFile(join(dir, "graphs", "rig.json")));
      const states = await shownStates();
      deepEqual(Object.keys(states).sort(), Object.keys(inner.nodes).sort());
      for (const [id, state] of Object.entries(states)) assert(state === "done", `rig/${id}: ${state}`);
      await page.click("#editor", { position: { x: 5, y: 5 } });
      await page.keyboard.press("Tab");
      await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      deepEqual(await shownStates(), outside, "back at the top, the badges are the run's");
    });

    await t.step("preview: the aileron slider moves the aileron's pixels, not the fuselage's", async () => {
      await page.click("#tab-preview");
      await page.fill("#model-path", join(dir, "out", "fighter.rigged.glb"));
      await page.click("#preview-open");
      await page.waitForSelector("body[data-preview-ready]");
      await page.uncheck("#hinges");
      const aileron = "HINGE_auto_LeftAileron";
      assert(await page.locator(`.part[data-part="${aileron}"]`).count() === 1, "aileron slider");
      const box = (name: string) =>
        page.evaluate((n) => (globalThis as unknown as StudioHook).studio.preview().screenBox(n), name);
      const restBox = await box(aileron);
      const before = await viewPixels(page);
      await page.$eval(`.part[data-part="${aileron}"] input`, (input: HTMLInputElement) => {
        input.value = input.max;
        input.dispatchEvent(new Event("input"));
      });
      const movedBox = await box(aileron);
      const after = await viewPixels(page);
      const inAileron = changedPixels(before, after, {
        x0: Math.min(restBox.x0, movedBox.x0),
        y0: Math.min(restBox.y0, movedBox.y0),
        x1: Math.max(restBox.x1, movedBox.x1),
        y1: Math.max(restBox.y1, movedBox.y1),
      });
      const inFuselage = changedPixels(before, after, await box("Fuselage"), [restBox, movedBox]);
      assert(inAileron > 50, `aileron pixels changed: ${inAileron}`);
      equal(inFuselage, 0, "fuselage pixels outside the aileron changed");
    });

    await t.step("web-optimised GLBs preview: Draco, quantized meshopt, KTX2 (Basis) textures", async () => {
      const open = async (file: string) => {
        await page.fill("#model-path", file);
        await page.click("#preview-open");
        // Ready, or refused with the loader's message (a decoder missing, a texture it cannot read).
        await page.waitForFunction(
          (label) =>
            document.body.dataset.previewReady === label ||
            document.getElementById("status")!.classList.contains("refused"),
          file,
        );
        const status = await page.textContent("#status");
        equal(status, `Shown ${file} in the preview`);
        return {
          shot: await viewPixels(page),
          parts: await page.$$eval(
            ".part[data-part]",
            (rows) => rows.map((r) => r.getAttribute("data-part")),
          ),
        };
      };
      const rigged = join(dir, "out", "fighter.rigged.glb");
      const plain = await open(rigged);
      const whole = {
        x0: 0,
        y0: 0,
        x1: plain.shot.width,
        y1: plain.shot.data.length / plain.shot.channels / plain.shot.width,
      };
      const pixels = whole.x1 * whole.y1;
      for (const kind of ["draco", "quantized meshopt"] as const) {
        const file = join(dir, `fighter.${kind.replace(" ", "_")}.glb`);
        await Deno.writeFile(file, await optimisedGlb(await Deno.readFile(rigged), kind));
        const compressed = await open(file);
        deepEqual(compressed.parts, plain.parts, `${kind}: the same parts`);
        // Quantized positions move edges by a pixel here and there and 8-bit normals shade a shade
        // apart; a mesh that failed to decode or landed elsewhere changes whole surfaces.
        let changed = 0;
        const [a, b] = [plain.shot.data, compressed.shot.data];
        for (let i = 0; i < a.length; i += plain.shot.channels) {
          if ([0, 1, 2].some((c) => Math.abs(a[i + c] - b[i + c]) > 24)) changed++;
        }
        assert(changed < pixels * 0.005, `${kind}: ${changed} of ${pixels} pixels differ from the plain GLB`);
      }
      // A quad whose left half is red and right half blue, in 4 × 4 UASTC blocks.
      const quad = join(dir, "painted.glb");
      await Deno.writeFile(
        quad,
        await basisuQuadGlb(uastcKtx2(16, 16, (x) => x < 2 ? [255, 0, 0] : [0, 0, 255])),
      );
      const { shot } = await open(quad);
      let red = 0, blue = 0;
      for (let i = 0; i < shot.data.length; i += shot.channels) {
        const [r, g, b] = shot.data.subarray(i, i + 3);
        if (r > 2 * g + 20 && r > 2 * b + 20) red++;
        if (b > 2 * r + 20 && b > 2 * g + 20) blue++;
      }
      assert(red > pixels * 0.05 && blue > pixels * 0.05, `red ${red}, blue ${blue} of ${pixels} pixels`);
    });

    await t.step("a Freelancer model shows its joints as sliders, its LODs and hardpoints", async () => {
      const ship = join(dir, "ship.cmp");
      await Deno.writeFile(ship, buildCompound().bytes);
      const fl = await browser.newPage();
      const flErrors = watchErrors(fl);
      await fl.goto(`${studio.url}?graph=${encodeURIComponent(graphFile)}&model=${encodeURIComponent(ship)}`);
      await fl.waitForSelector("body[data-preview-ready]");
      const sliders = await fl.$$eval(
        ".part[data-part]",
        (rows) => rows.map((r) => r.getAttribute("data-part")),
      );
      for (
        const joint of [
          "Turret_joint",
          "Barrel_joint",
          "Piston_joint",
          "Piston_slide",
          "Radar_joint_x",
          "Cargo_joint_z",
        ]
      ) assert(sliders.includes(joint), `slider for ${joint} in ${sliders.join(", ")}`);
      // The decode's warnings (the fixture's materials are in no library: placeholders) are listed.
      const expected = (await runGraph(await modelPreviewGraph(ship, () => true), { cacheDir: false }))
        .warnings
        .map((w) => `${w.id}: ${w.message}`);
      assert(expected.some((w) => w.includes("placeholder used")), expected.join("\n"));
      deepEqual(
        await fl.$$eval("#preview-warnings li", (items) => items.map((li) => li.textContent)),
        expected,
      );
      equal(await fl.textContent("#status"), `Shown ${ship} in the preview (${expected.length} warnings)`);
      assert(await fl.locator("#lod option").count() >= 2, "LOD selector lists the LODs");
      const lod0 = await viewPixels(fl);
      await fl.selectOption("#lod", "1");
      const lod1 = await viewPixels(fl);
      const whole = { x0: 0, y0: 0, x1: lod0.width, y1: lod0.data.length / lod0.channels / lod0.width };
      assert(changedPixels(lod0, lod1, whole) > 20, "LOD 1 draws other meshes than LOD 0");
      await fl.selectOption("#lod", "0");
      equal(changedPixels(lod0, await viewPixels(fl), whole), 0, "back to LOD 0 draws LOD 0 again");
      await fl.uncheck("#hardpoints");
      assert(
        changedPixels(lod0, await viewPixels(fl), whole) > 0,
        "the hardpoints toggle hides their markers",
      );
      deepEqual(flErrors, []);
      await fl.close();
    });

    await t.step("a Carnivores model's animation clips play", async () => {
      const car = join(dir, "boxes.car");
      await Deno.writeFile(car, encodeCar(animatedCar()));
      await page.fill("#model-path", car);
      await page.click("#preview-open");
      await page.waitForFunction((label) => document.body.dataset.previewReady === label, car);
      deepEqual(await page.$$eval("#clips option", (o) => o.map((x) => x.textContent)), [
        "(no clip)",
        "walk",
        "idle",
      ]);
      const still = await viewPixels(page);
      await page.selectOption("#clips", "walk");
      const whole = { x0: 0, y0: 0, x1: still.width, y1: still.data.length / still.channels / still.width };
      // Each screenshot waits for a frame: look until the clip has moved the mesh (it was a fixed
      // 400 ms, which a loaded machine may spend drawing one frame).
      let moved = 0;
      for (let shot = 0; shot < 40 && moved <= 20; shot++) {
        moved = changedPixels(still, await viewPixels(page), whole);
      }
      assert(moved > 20, `the clip moves the mesh: ${moved} pixels changed`);
    });

    await t.step("duplicate, delete, undo, redo; Tab opens the node group and goes back", async () => {
      const ed = await browser.newPage();
      const edErrors = watchErrors(ed);
      await ed.goto(`${studio.url}?graph=${encodeURIComponent(graphFile)}`);
      await ed.waitForSelector("body[data-ready=true]");
      const count = () => ed.locator("g.node[data-node]").count();
      const start = await count();
      await ed.click('g.node[data-node="export"] .title');
      await ed.keyboard.press("Shift+D");
      await ed.waitForSelector('g.node[data-node="export_2"]');
      equal(await count(), start + 1);
      await ed.keyboard.press("Control+Z");
      await ed.waitForSelector('g.node[data-node="export_2"]', { state: "detached" });
      await ed.keyboard.press("Control+Shift+Z");
      await ed.click('g.node[data-node="export_2"] .title');
      await ed.keyboard.press("x");
      await ed.waitForSelector('g.node[data-node="export_2"]', { state: "detached" });
      equal(await count(), start);
      // Box-select two nodes from the background, delete both, undo brings both back.
      const a = await boxOf(ed, 'g.node[data-node="export"] rect.body');
      const b = await boxOf(ed, 'g.node[data-node="write_glb"] rect.body');
      const [left, top, right, bottom] = [a.x - 8, a.y - 20, b.x + b.width + 8, b.y + b.height + 8];
      // Whatever else the drawn box reaches is selected too (the node added above lands where the view
      // puts it, which moved with the Arrange commit): every node whose drawn body meets the box.
      const under = await ed.$$eval("g.node[data-node]", (nodes, [l, t, r, bo]) =>
        nodes.filter((g) => {
          const box = g.querySelector("rect.body")!.getBoundingClientRect();
          return box.left < r && box.right > l && box.top < bo && box.bottom > t;
        }).map((g) => g.getAttribute("data-node")).sort(), [left, top, right, bottom]);
      assert(under.includes("export") && under.includes("write_glb"), under.join());
      await ed.mouse.move(left, top);
      await ed.mouse.down();
      await ed.mouse.move(right, bottom, { steps: 5 });
      await ed.mouse.up();
      deepEqual(
        await ed.$$eval("g.node.selected", (n) => n.map((g) => g.getAttribute("data-node")).sort()),
        under,
      );
      await ed.keyboard.press("Delete");
      equal(await count(), start - under.length);
      await ed.keyboard.press("Control+Z");
      equal(await count(), start);
      await ed.click('g.node[data-node="rig"] .title');
      await ed.keyboard.press("Tab");
      await ed.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      const inner = JSON.parse(await Deno.readTextFile(join(dir, "graphs", "rig.json")));
      for (const id of Object.keys(inner.nodes)) {
        equal(await ed.locator(`g.node[data-node="${id}"]`).count(), 1, id);
      }
      await ed.click("#editor", { position: { x: 5, y: 5 } });
      await ed.keyboard.press("Tab");
      await ed.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      equal(await ed.locator('g.node[data-node="rig"]').count(), 1);
      deepEqual(edErrors, []);
      await ed.close();
    });

    deepEqual(errors, []);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
