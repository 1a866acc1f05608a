/// <reference lib="dom" />
/**
 * The 3D preview's parts and node tree on models shaped as real files are, in chromium: a chain of
 * 2,000 nested nodes lists every node while only the rows in view are in the page (deep rows capped
 * in indentation, saying their depth), folds, and selects; parts start at their declared `rest`;
 * parts that share a name get sliders labelled by their parents, each moving its own part and
 * selecting it (from its caption, its tree row or a click in the view); a joint with `min == max` has a disabled slider saying it is fixed, and limits the
 * wrong way round, not numbers or too large are said so; a Freelancer compound's joint with equal
 * limits is fixed, its Sphere's axes and its Cyl's turn and slide get no shared slider, and its
 * hardpoint markers follow their part; the corpus airplane's tree shows its names as written.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { buildCompound, CONSTRAINTS } from "../nodes/decode/freelancer/fixtures.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { chainDoc, REAL_SHAPED, treeDoc } from "./preview_fixtures.ts";
import { type Box, changedPixels, pose, preview, rows, slide, viewPixels } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

const AIRPLANE = "../shared/corpus/aircraft/sketchbook_airplane.glb";
/** A real Daz geograft (the inside of a mouth): four faces, all facing away from the framed camera. */
const GEOGRAFT = "../shared/corpus/dson/game_engine_mouth_geograft.duf";

/** The page's hook on the viewer (studio/web/main.ts). */
type Viewer = {
  selected?: { parent: object };
  fileName(node: object): string;
  screenBox(name: string): Box;
  hardpoints: { children: { name: string; position: { x: number; y: number; z: number } }[] };
  model: { getObjectByName(name: string): { matrixWorld: { elements: number[] } } };
};

/** The tree rows in the page: name, depth, classes, depth label. */
const treeRows = (page: Page) =>
  page.$$eval("#tree .tree-row", (all) =>
    all.map((row) => ({
      name: row.querySelector("bdi")!.textContent!,
      depth: Number((row as HTMLElement).dataset.depth),
      selected: row.classList.contains("selected"),
      shownDepth: row.querySelector(".tree-depth")?.textContent ?? null,
      path: (row as HTMLElement).title,
    })));

/** Waits for the next two frames (a scroll's rows, a move's redraw). */
const frames = (page: Page) =>
  page.evaluate(() =>
    new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))
  );

/** The selected node's name and its parent's, as the file writes them. */
const selected = (page: Page) =>
  page.evaluate(() => {
    const viewer = (globalThis as unknown as { studio: { preview(): Viewer } }).studio.preview();
    const node = viewer.selected;
    return node ? [viewer.fileName(node.parent), viewer.fileName(node)] : undefined;
  });

/** A part row's caption, its slider's disabled state and range. */
const row = (page: Page, key: string) =>
  page.evaluate((k) => {
    const found = [...document.querySelectorAll<HTMLElement>(".part")].find((r) => r.dataset.part === k);
    if (!found) return undefined;
    const input = found.querySelector("input")!;
    return {
      caption: found.querySelector("span")!.textContent!,
      disabled: input.disabled,
      range: [Number(input.min), Number(input.max)],
    };
  }, key);

Deno.test({
  name: "studio preview: a 2,000-deep tree, rest, same-named parts, fixed and degenerate joints",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-preview-parts-" });
    const files = { chain: join(dir, "chain.glb"), real: join(dir, "real.glb"), ship: join(dir, "ship.cmp") };
    await Deno.writeFile(files.chain, await writeGlb(chainDoc(2000, 20), { generator: "partgraph test" }));
    await Deno.writeFile(files.real, await writeGlb(treeDoc(REAL_SHAPED), { generator: "partgraph test" }));
    // The turret's Rev joint limited to one angle, 0.3 rad both ways (17.189°).
    const constraints = CONSTRAINTS.map((c) => c.child === "TURRET" ? { ...c, min: 0.3, max: 0.3 } : c);
    await Deno.writeFile(files.ship, buildCompound({ constraints }).bytes);
    const airplane = await Deno.realPath(AIRPLANE).catch(() => undefined);
    const geograft = await Deno.realPath(GEOGRAFT).catch(() => undefined);
    const { page, studio, errors, close } = await openStudio(
      dir,
      undefined,
      [airplane, geograft].filter((f) => f !== undefined).map((f) => dirname(f)),
    );
    try {
      await page.setViewportSize({ width: 1400, height: 800 });
      await page.goto(studio.url);
      // The tab answers once the page has set itself up.
      await page.waitForFunction(() => {
        document.getElementById("tab-preview")!.click();
        return document.body.dataset.tab === "preview";
      });

      await t.step(
        "2,000 nested nodes: all listed, only those in view in the page, folded, selected",
        async () => {
          equal(await preview(page, files.chain), "ready", (await page.textContent("#preview-error"))!);
          equal(await page.getAttribute("#tree", "data-rows"), "2001", "Airframe and its 2,000 links");
          const first = await treeRows(page);
          assert(first.length > 10 && first.length < 200, `${first.length} rows in the page`);
          deepEqual(first.slice(0, 3).map((r) => [r.name, r.depth]), [["Airframe", 0], ["Link_0", 1], [
            "Link_1",
            2,
          ]]);
          // The deepest row: indentation capped, its depth said, its tooltip its (last levels of) path.
          await page.$eval("#tree", (tree) => tree.scrollTop = tree.scrollHeight);
          await frames(page);
          const last = (await treeRows(page)).at(-1)!;
          deepEqual([last.name, last.depth, last.shownDepth], ["Link_1999", 2000, "2000"]);
          // Its name starts well inside the panel, however deep it is.
          const name =
            (await page.locator('#tree .tree-row:has(bdi:text-is("Link_1999")) bdi').boundingBox())!;
          const panel = (await page.locator("#tree").boundingBox())!;
          assert(
            name.x + 60 < panel.x + panel.width,
            `name at ${name.x}, panel ${panel.x}…${panel.x + panel.width}`,
          );
          assert(
            last.path.startsWith("… › Link_1988 › ") && last.path.endsWith("Link_1998 › Link_1999"),
            last.path,
          );

          // A part's caption selects it: its tree row (scrolled to) and its slider are marked.
          await page.click('.part[data-part="Link_1900"] span');
          deepEqual(await selected(page), ["Link_1899", "Link_1900"]);
          await frames(page);
          deepEqual((await treeRows(page)).filter((r) => r.selected).map((r) => r.name), ["Link_1900"]);
          deepEqual(
            await page.$$eval(".part.selected", (r) => r.map((e) => (e as HTMLElement).dataset.part)),
            [
              "Link_1900",
            ],
          );
          // A click on a tree row selects that node and marks its part's slider.
          await page.$eval("#tree", (tree) => tree.scrollTop = 0);
          await frames(page);
          await page.click('#tree .tree-row:has(bdi:text-is("Link_0"))');
          deepEqual(await selected(page), ["Airframe", "Link_0"]);
          deepEqual(
            await page.$$eval(".part.selected", (r) => r.map((e) => (e as HTMLElement).dataset.part)),
            [
              "Link_0",
            ],
          );
          // Folding the top node leaves one row; unfolding brings all back.
          await page.click('#tree .tree-row:has(bdi:text-is("Airframe")) .tree-fold');
          equal(await page.getAttribute("#tree", "data-rows"), "1");
          await page.click('#tree .tree-row:has(bdi:text-is("Airframe")) .tree-fold');
          equal(await page.getAttribute("#tree", "data-rows"), "2001");
          await slide(page, "Link_1000", 15);
          assert(Math.abs((await pose(page, "Link_1000")).degrees - 15) < 1e-3);
        },
      );

      await t.step(
        "parts at rest; same names told apart, each slider moving and selecting its own",
        async () => {
          equal(await preview(page, files.real), "ready");
          const shown = await rows(page);
          deepEqual(shown.map((r) => r.key), [
            "Wing_L › Flap",
            "Wing_L › Tab #1",
            "Wing_L › Tab #2",
            "Wing_R › Flap",
            "GearDoor",
            "Ram",
            "Locked",
            "LockedAt10",
            "Swapped",
            "NotNumbers",
            "Huge",
          ]);
          const value = (key: string) => shown.find((r) => r.key === key)!.shown;
          // At rest: the gear door open 102°, the ram half out, the left flap 10° down.
          assert(Math.abs((await pose(page, "GearDoor")).degrees - 102) < 1e-3);
          equal(value("GearDoor"), "102.00");
          assert((await row(page, "GearDoor"))!.caption.includes("(0…120 deg, rest 102)"));
          equal((await pose(page, "Ram")).x, 0.5);
          equal(value("Ram"), "0.50");
          assert(Math.abs((await pose(page, "Wing_L › Flap")).degrees - 10) < 1e-3);
          deepEqual([value("Wing_L › Flap"), value("Wing_R › Flap")], ["10.00", "0.00"]);

          // The right wing's Flap moves the right wing's flap only, and its caption selects it.
          const boxes = await page.evaluate(() => {
            const viewer = (globalThis as unknown as { studio: { preview(): Viewer } }).studio.preview();
            return { left: viewer.screenBox("Wing_L › Flap"), right: viewer.screenBox("Wing_R › Flap") };
          });
          const before = await viewPixels(page);
          await slide(page, "Wing_R › Flap", -25);
          await frames(page);
          const after = await viewPixels(page);
          assert(changedPixels(before, after, boxes.right) > 50, "the right flap moved");
          equal(changedPixels(before, after, boxes.left, [boxes.right]), 0, "the left flap did not");
          assert(Math.abs((await pose(page, "Wing_R › Flap")).degrees - 25) < 1e-3);
          assert(Math.abs((await pose(page, "Wing_L › Flap")).degrees - 10) < 1e-3);
          await page.click('.part[data-part="Wing_R › Flap"] span');
          deepEqual(await selected(page), ["Wing_R", "Flap"]);
          deepEqual((await treeRows(page)).filter((r) => r.selected).map((r) => r.path), [
            "Airframe › Wing_R › Flap",
          ]);
          await page.click('.part[data-part="Wing_L › Tab #2"] span');
          const tab = await page.evaluate(() => {
            const node = (globalThis as unknown as { studio: { preview(): Viewer } }).studio.preview()
              .selected!;
            return (node as unknown as { position: { x: number } }).position.x;
          });
          equal(tab, 1.5, "the second Tab under Wing_L");
          // A click in the view selects the part drawn there (the right wing's flap); the background, none.
          const view = (await page.locator("#view3d").boundingBox())!;
          const at = (box: Box) => [view.x + (box.x0 + box.x1) / 2, view.y + (box.y0 + box.y1) / 2] as const;
          const flapBox = await page.evaluate(() =>
            (globalThis as unknown as { studio: { preview(): Viewer } }).studio.preview().screenBox(
              "Wing_R › Flap",
            )
          );
          await page.mouse.click(...at(flapBox));
          deepEqual(await selected(page), ["Wing_R", "Flap"]);
          deepEqual(
            await page.$$eval(".part.selected", (r) => r.map((e) => (e as HTMLElement).dataset.part)),
            [
              "Wing_R › Flap",
            ],
          );
          await page.mouse.click(view.x + 5, view.y + 5);
          equal(await selected(page), undefined, "a click on the background selects nothing");
        },
      );

      await t.step("min == max is fixed; reversed, not-a-number and huge limits are said so", async () => {
        const locked = (await row(page, "Locked"))!;
        assert(
          locked.disabled && locked.caption.includes("(fixed: min = max = 0 deg)"),
          JSON.stringify(locked),
        );
        const at10 = (await row(page, "LockedAt10"))!;
        assert(
          at10.disabled && at10.caption.includes("fixed: min = max = 10 deg, rest 0 outside"),
          at10.caption,
        );
        await slide(page, "LockedAt10", 10);
        equal((await pose(page, "LockedAt10")).degrees, 0, "a fixed part stays where it is");
        const swapped = (await row(page, "Swapped"))!;
        assert(
          !swapped.disabled && swapped.caption.includes("min 30 > max -10: read as -10…30"),
          swapped.caption,
        );
        deepEqual(swapped.range, [-10, 30]);
        const odd = (await row(page, "NotNumbers"))!;
        for (
          const note of ["unbounded: slider -180…180", "min null is not a number", 'max "25" is not a number']
        ) {
          assert(odd.caption.includes(note), `'${note}' in ${odd.caption}`);
        }
        const huge = (await row(page, "Huge"))!;
        assert(huge.caption.includes("max 1.00e+30 is too large for a slider: no limit"), huge.caption);
        deepEqual(huge.range, [-180, 180]);
      });

      await t.step(
        "a Freelancer joint with min == max is fixed; a joint's axes share no slider",
        async () => {
          equal(await preview(page, files.ship), "ready");
          const turret = (await row(page, "Turret_joint"))!;
          assert(turret.disabled && turret.caption.includes("fixed: min = max = 17.189 deg"), turret.caption);
          const keys = (await rows(page)).map((r) => r.key);
          for (
            const key of ["Radar_joint_x", "Radar_joint_y", "Radar_joint_z", "Piston_joint", "Piston_slide"]
          ) {
            assert(keys.includes(key), `${key} in ${keys.join(", ")}`);
          }
          deepEqual(
            keys.filter((k) => k.startsWith("group:")),
            [],
            "no slider turning three axes, or deg and m, at once",
          );
          // The radar's hardpoint marker goes where the radar goes.
          await slide(page, "Radar_joint_x", 20);
          await frames(page);
          const [marker, node] = await page.evaluate(() => {
            const viewer = (globalThis as unknown as { studio: { preview(): Viewer } }).studio.preview();
            const axes = viewer.hardpoints.children.find((c) => c.name === "hardpoint:HpRadar")!;
            const e = viewer.model.getObjectByName("HpRadar").matrixWorld.elements;
            return [[axes.position.x, axes.position.y, axes.position.z], [e[12], e[13], e[14]]];
          });
          assert(marker.every((v, i) => Math.abs(v - node[i]) < 1e-6), `${marker} vs ${node}`);
        },
      );

      await t.step("the corpus airplane's tree shows names as the file writes them", async () => {
        if (!airplane) {
          return console.warn(`skipped: ${AIRPLANE} is not here (the shared corpus sits beside the repo)`);
        }
        equal(await preview(page, airplane), "ready");
        const names = (await treeRows(page)).map((r) => r.name);
        for (const name of ["aileron_parent.L", "wheel_fl.001", "Cube.008", "Sphere.000"]) {
          assert(names.includes(name), `${name} in ${names.join(", ")}`);
        }
        // Not rigged yet: the part panel says how it gets parts (it was left empty).
        assert((await page.textContent("#parts"))!.includes("No ctrl_type parts in this model"));
      });

      await t.step(
        "a real geograft seen from behind as framed is drawn (its faces' back sides)",
        async () => {
          if (!geograft) {
            return console.warn(`skipped: ${GEOGRAFT} is not here (the shared corpus sits beside the repo)`);
          }
          equal(await preview(page, geograft), "ready");
          await frames(page);
          const shot = await viewPixels(page);
          // The view's background is 0x2b2b2b; this model has no hinge lines or markers to draw.
          let drawn = 0;
          for (let i = 0; i < shot.data.length; i += shot.channels) {
            if (Math.abs(shot.data[i] - 0x2b) + Math.abs(shot.data[i + 1] - 0x2b) > 8) drawn++;
          }
          // Its four faces fill about a tenth of the view as framed (0 before: all culled).
          assert(drawn > shot.data.length / shot.channels / 50, `${drawn} pixels drawn`);
        },
      );

      deepEqual(errors, []);
    } finally {
      await close();
    }
  },
});
