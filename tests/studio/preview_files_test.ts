/// <reference lib="dom" />
/**
 * The 3D preview on files as users have them, in chromium: part names with HTML characters,
 * right-to-left script and emoji are shown as the file writes them, as text (nothing injected);
 * parts without limits get a slider over one turn (or, for a slide, the model's size) that says it
 * is unbounded; a model with 2,000 parts lists them all, and its sliders (a part's and a group's)
 * move their parts; a truncated GLB and a `.cmp` with a damaged header are said so over the view
 * with the runtime's typed error (format, byte offset, expected and found), taking the last model
 * away; a glTF 1.0 GLB, which three.js cannot load, is shown as the runtime decodes it.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { buildCompound } from "../nodes/decode/freelancer/fixtures.ts";
import { gltf1Of } from "../support/gltf1.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { pose, preview, rows, slide } from "./preview_helpers.ts";
import { AWKWARD_PARTS, damagedUtf, manyParts, partsDoc, partsGlb, truncated } from "./preview_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio preview: awkward names, unbounded parts, 2,000 parts, files that fail",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-preview-files-" });
    const files = {
      awkward: join(dir, "awkward.glb"),
      many: join(dir, "many.glb"),
      cut: join(dir, "cut.glb"),
      cmp: join(dir, "bad.cmp"),
      v1: join(dir, "v1.glb"),
    };
    const awkward = await partsGlb(AWKWARD_PARTS);
    await Deno.writeFile(files.awkward, awkward);
    await Deno.writeFile(files.many, await partsGlb(manyParts(2000)));
    await Deno.writeFile(files.cut, truncated(awkward, Math.floor(awkward.length * 0.6)));
    await Deno.writeFile(files.cmp, damagedUtf(buildCompound().bytes));
    await Deno.writeFile(files.v1, await gltf1Of(partsDoc(AWKWARD_PARTS.slice(0, 3)), { binary: true }));
    const { page, studio, errors, close } = await openStudio(dir);
    try {
      await page.setViewportSize({ width: 1400, height: 800 });
      await page.goto(studio.url);
      await page.waitForSelector("#tab-preview");
      await page.click("#tab-preview");
      const title = await page.title();

      await t.step(
        "names as the file writes them, as text; unbounded parts get a turn or the model's size",
        async () => {
          equal(await preview(page, files.awkward), "ready");
          const shown = await rows(page);
          deepEqual(shown.map((r) => r.name), AWKWARD_PARTS.map((p) => p.name));
          deepEqual(shown.map((r) => r.key), AWKWARD_PARTS.map((p) => p.name));
          const tree = await page.$$eval("#tree bdi", (names) => names.map((n) => n.textContent));
          for (const part of AWKWARD_PARTS) assert(tree.includes(part.name), `${part.name} in the tree`);
          equal(await page.locator("#parts img, #parts b, #tree img, #tree b").count(), 0, "no markup made");
          equal(await page.title(), title, "no script ran");
          const byName = new Map(shown.map((r) => [r.name, r]));
          const bounded = byName.get("<b>bold</b>")!;
          deepEqual(bounded.range, [-10, 10]);
          assert(!bounded.caption.includes("unbounded"), bounded.caption);
          const rotor = byName.get("🚁 rotor")!;
          deepEqual(rotor.range, [-180, 180]);
          assert(rotor.caption.includes("-∞…∞ deg, unbounded: slider -180…180"), rotor.caption);
          deepEqual(byName.get("Hatch")!.range, [0, 360], "one turn from its one limit");
          // Boxes 1 unit wide from x = -0.5 to 10.5: the model's diagonal each way.
          const diagonal = Math.hypot(11, 1, 1);
          const boom = byName.get("Boom")!;
          assert(
            Math.abs(boom.range[0] + diagonal) < 1e-3 && Math.abs(boom.range[1] - diagonal) < 1e-3,
            JSON.stringify(boom),
          );
          await slide(page, "🚁 rotor", 170);
          assert(
            Math.abs((await pose(page, "🚁 rotor")).degrees - 170) < 1e-3,
            "turned 170°, not clamped at 30",
          );
          equal((await rows(page)).find((r) => r.key === "🚁 rotor")!.shown, "170.00");
          const before = await page.locator("#view3d").screenshot();
          await slide(page, "Boom", 5);
          equal((await pose(page, "Boom")).x, 15, "slid 5 units from 10");
          await page.waitForFunction(() => new Promise((done) => requestAnimationFrame(() => done(true))));
          assert(
            !before.equals(await page.locator("#view3d").screenshot()),
            "the view redrew after the move",
          );
        },
      );

      await t.step("2,000 parts: all listed, a part's and a group's slider move their parts", async () => {
        equal(await preview(page, files.many), "ready");
        const shown = await rows(page);
        const parts = manyParts(2000);
        const groups = [...new Set(parts.map((p) => p.extras.group).filter(Boolean))].map((g) =>
          `group:${g}`
        );
        deepEqual(shown.map((r) => r.key).sort(), [...groups, ...parts.map((p) => p.name)].sort());
        equal(await page.getAttribute("#tree", "data-rows"), "2001", "the tree lists every node");
        await slide(page, "Panel_5", 12);
        assert(Math.abs((await pose(page, "Panel_5")).degrees - 12) < 1e-3);
        equal((await rows(page)).find((r) => r.key === "Panel_5")!.shown, "12.00");
        const members = parts.filter((p) => p.extras.group === "g1").map((p) => p.name);
        await slide(page, "group:g1", -15);
        const after = await rows(page);
        for (const name of members) {
          assert(Math.abs((await pose(page, name)).degrees - 15) < 1e-3, name);
          equal(after.find((r) => r.key === name)!.shown, "-15.00", name);
        }
        equal(after.find((r) => r.key === "group:g1")!.shown, "-15.00");
        equal(after.find((r) => r.key === "Panel_5")!.shown, "12.00", "other parts' sliders keep theirs");
      });

      await t.step("files that fail: the typed error over the view, the last model taken away", async () => {
        equal(await preview(page, files.cut), "failed");
        assert(await page.isVisible("#preview-error"));
        const cut = (await page.textContent("#preview-error"))!;
        for (const part of [`Cannot preview ${files.cut}`, "glb in cut.glb at byte 8", "expected", "found"]) {
          assert(cut.includes(part), `'${part}' in: ${cut}`);
        }
        assert(await page.locator("#status.refused").count() === 1);
        equal(await page.locator(".part").count(), 0, "the last model's parts are gone");
        equal(await page.locator("#tree .tree-row").count(), 0);

        equal(await preview(page, files.cmp), "failed");
        const cmp = (await page.textContent("#preview-error"))!;
        for (const part of ["utf in bad.cmp at byte 8", "expected tree block", "found"]) {
          assert(cmp.includes(part), `'${part}' in: ${cmp}`);
        }

        // A typo: said in the user's terms, not as the system's error on the absolute path; the project
        // folder is named for a relative path only (an absolute one is not read relative to it).
        const typo = join(dir, "awkard.glb");
        equal(await preview(page, typo), "failed");
        const gone = (await page.textContent("#preview-error"))!;
        assert(gone.includes(`${typo} does not exist`), gone);
        assert(!gone.includes("relative to the project folder"), gone);
        assert(!gone.includes("os error"), gone);
        equal(await preview(page, "models/awkard.glb"), "failed");
        const relative = (await page.textContent("#preview-error"))!;
        assert(relative.includes("does not exist (a path is relative to the project folder, "), relative);

        // glTF 1.0, which three.js refuses, is shown as the runtime decodes it, and says so.
        equal(await preview(page, files.v1), "ready");
        assert(!(await page.isVisible("#preview-error")), "the error box is gone");
        assert((await page.textContent("#status"))!.includes("shown as partgraph decodes it"));
        deepEqual((await rows(page)).map((r) => r.name), AWKWARD_PARTS.slice(0, 3).map((p) => p.name));
      });

      // The two refusals are HTTP 422 answers and the two typos 404s, which chromium logs; nothing else
      // may be.
      const refusals = errors.filter((e) => /status of (422|404)\b/.test(e));
      equal(refusals.length, 4, errors.join("\n"));
      deepEqual(errors.filter((e) => !refusals.includes(e)), []);
    } finally {
      await close();
    }
  },
});
