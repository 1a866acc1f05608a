/// <reference lib="dom" />
/**
 * What the 3D preview tells a technical artist going from file to file, in chromium. The view's
 * check boxes hold for every model shown: wireframe ticked stays wireframe on the next file (it was
 * set on the model shown only, so the next came solid under a ticked box), and hinges unticked
 * before the first preview are hidden in it (the viewer started with them shown). A model without
 * `ctrl_type` parts is told where parts come from for its format: the aircraft rig for a GLB, but a
 * Freelancer compound's joints for a `.cmp` and animations for a Carnivores `.car` — the panel sent
 * every one of them to the aircraft rig, which reads glTF only.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { fighterCmp } from "../nodes/decode/freelancer/game_tree.ts";
import { animatedCar } from "../nodes/decode/carnivores/fixtures.ts";
import { encodeCar } from "../support/carnivores/encode.ts";
import { tempDir } from "../support/temp.ts";
import { copyAircraftGraphs, openStudio } from "./page_helpers.ts";
import { preview } from "./preview_helpers.ts";
import { manyParts, partsGlb } from "./preview_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** What the viewer draws: how many meshes of the model shown are wireframe, of how many; hinges shown. */
const viewState = (page: import("playwright-core").Page) =>
  page.evaluate(() => {
    type Mesh = { isMesh?: boolean; material: { wireframe: boolean } | { wireframe: boolean }[] };
    const viewer = (globalThis as unknown as {
      studio: {
        preview(): { model?: { traverse(f: (o: Mesh) => void): void }; helpers: { visible: boolean } };
      };
    }).studio.preview();
    let meshes = 0, wire = 0;
    viewer.model?.traverse((o) => {
      if (!o.isMesh) return;
      meshes++;
      if ([o.material].flat().every((m) => m.wireframe)) wire++;
    });
    return { meshes, wire, hinges: viewer.helpers.visible };
  });

Deno.test({
  name:
    "studio preview: check boxes hold for every model, and a model without parts is told why for its format",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-preview-feedback-" });
    // The project has the aircraft rig graph, as partgraph's own checkout does: the GLB's hint names it.
    await copyAircraftGraphs(dir);
    await Deno.copyFile("graphs/aircraft_file.json", join(dir, "graphs", "aircraft_file.json"));
    const files = {
      // Two rigged models as the rig leaves them (parts with limits, a group, one unbounded).
      first: join(dir, "first.rigged.glb"),
      second: join(dir, "second.rigged.glb"),
      // An aircraft as exported: meshes, no parts yet.
      raw: join(dir, "raw.glb"),
      // A one-part Freelancer ship (no Cons: nothing moves), as a mod tool writes a simple model.
      cmp: join(dir, "rh_fighter.cmp"),
      car: join(dir, "walker.car"),
    };
    await Deno.writeFile(files.first, await partsGlb(manyParts(12, 2)));
    await Deno.writeFile(files.second, await partsGlb(manyParts(30, 3).slice(5)));
    await Deno.writeFile(
      files.raw,
      await partsGlb([{ name: "Fuselage", extras: {}, at: [0, 0, 0] }, {
        name: "Wing",
        extras: {},
        at: [2, 0, 0],
      }]),
    );
    await Deno.writeFile(files.cmp, fighterCmp());
    await Deno.writeFile(files.car, encodeCar(animatedCar()));
    const { page, studio, errors, close } = await openStudio(dir);
    try {
      await page.goto(studio.url);
      await page.waitForSelector("body[data-ready=true]");
      await page.click("#tab-preview");

      await t.step("hinges unticked before the first preview stay hidden in it", async () => {
        await page.uncheck("#hinges");
        equal(await preview(page, files.first), "ready");
        const state = await viewState(page);
        equal(state.hinges, false, "hinge lines drawn under an unticked box");
        equal(state.wire, 0);
      });

      await t.step("wireframe ticked holds for the next model shown", async () => {
        await page.check("#wireframe");
        const first = await viewState(page);
        equal(first.wire, first.meshes, "the model shown turns wireframe");
        equal(await preview(page, files.second), "ready");
        const second = await viewState(page);
        assert(second.meshes > 0);
        deepEqual([second.wire, second.hinges], [second.meshes, false], "the next model as the boxes say");
        await page.uncheck("#wireframe");
        equal((await viewState(page)).wire, 0, "unticked: solid again");
        await page.check("#hinges");
        equal((await viewState(page)).hinges, true);
      });

      await t.step("a model without parts: the hint fits its format", async () => {
        const hints: Record<string, string> = {};
        for (const key of ["raw", "cmp", "car"] as const) {
          equal(await preview(page, files[key]), "ready", key);
          hints[key] = (await page.textContent("#parts"))!;
          assert(hints[key].startsWith("No ctrl_type parts in this model"), `${key}: ${hints[key]}`);
        }
        // An aircraft as exported: the project's rig graph, named as the picker lists it.
        assert(hints.raw.includes("graphs/aircraft_file.json's rig"), hints.raw);
        // Neither a Freelancer compound nor a Carnivores model can go through the aircraft rig.
        assert(!hints.cmp.includes("set its model input"), `the .cmp sent to the aircraft rig: ${hints.cmp}`);
        assert(hints.cmp.includes("joints") && hints.cmp.includes("rh_fighter.cmp"), hints.cmp);
        assert(!hints.car.includes("set its model input"), `the .car sent to the aircraft rig: ${hints.car}`);
        assert(hints.car.includes("clip menu"), hints.car);
        // The .car's clips are in that menu.
        assert((await page.locator("#clips option").count()) > 1, "the .car's clips listed");
      });
      await t.step("the path field names the model shown, however it was opened", async () => {
        equal(await preview(page, files.first), "ready");
        // A written file's Preview in the run's outputs (and ?model=) show a file the field was not given.
        const shown = page.waitForFunction((f) => document.body.dataset.previewReady === f, files.raw);
        await page.evaluate(
          (f) =>
            (globalThis as unknown as { studio: { showPreview(url: string, label: string): Promise<void> } })
              .studio.showPreview(`/api/model?path=${encodeURIComponent(f)}`, f),
          files.raw,
        );
        await shown;
        equal(await page.inputValue("#model-path"), files.raw, "the field names the file shown");
        // So "Preview file" shows that file again, not the one typed before.
        equal(await preview(page, await page.inputValue("#model-path")), "ready");
        equal(await page.evaluate(() => document.body.dataset.previewReady), files.raw);
        // A graph output has no path: the field is emptied rather than naming another file (no run
        // has made one here, so it is a 404, said over the view).
        const before = errors.length;
        await page.evaluate(() =>
          (globalThis as unknown as { studio: { showPreview(url: string, label: string): Promise<void> } })
            .studio.showPreview("/api/output?name=glb", "glb")
        );
        equal(await page.inputValue("#model-path"), "");
        deepEqual(errors.splice(before).map((e) => /status of 404\b/.test(e)), [true]);
      });
      // The .cmp's materials are in no library: its decode warns, which is no page error.
      deepEqual(errors, []);
    } finally {
      await close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
