/// <reference lib="dom" />
/**
 * The 3D preview idles while nothing moves: no frame asked for (`requestAnimationFrame`) and nothing
 * drawn, however long it is left; an orbit drag, a wheel zoom, a resize and a playing clip draw
 * again, and once they stop it idles again. The page's frames are counted by wrapping
 * `requestAnimationFrame` before the page's scripts run, its draws by three.js's own count.
 */
import { ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { animatedCar } from "../nodes/decode/carnivores/fixtures.ts";
import { encodeCar } from "../support/carnivores/encode.ts";
import { openStudio } from "./page_helpers.ts";
import { preview } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** Frames the page asked for and draws the preview made, since the page was opened. */
type Counts = { frames: number; draws: number };

const counts = (page: Page): Promise<Counts> =>
  page.evaluate(() => {
    const hook = globalThis as unknown as {
      framesAsked: number;
      studio: { preview(): { renderer: { info: { render: { frame: number } } } } };
    };
    return { frames: hook.framesAsked, draws: hook.studio.preview().renderer.info.render.frame };
  });

/**
 * Waits until the page has asked for no frame and drawn nothing for a whole second (sampled every
 * 250 ms); after 30 s of frames (a page that never idles), fails saying how many it asked for.
 */
async function idles(page: Page, what: string): Promise<void> {
  const start = await counts(page);
  let last = start, still = 0;
  for (let waited = 0; waited < 30_000; waited += 250) {
    await page.waitForTimeout(250);
    const now = await counts(page);
    still = now.frames === last.frames && now.draws === last.draws ? still + 1 : 0;
    if (still === 4) return;
    last = now;
  }
  const end = await counts(page);
  assert(
    false,
    `${what}: the page never idled in 30 s: it asked for ${end.frames - start.frames} frames and drew ${
      end.draws - start.draws
    } times`,
  );
}

/** Waits until the preview has drawn more than `since` (it does at the next frame). */
const drawsAfter = (page: Page, since: Counts) =>
  page.waitForFunction(
    (n) =>
      (globalThis as unknown as {
        studio: { preview(): { renderer: { info: { render: { frame: number } } } } };
      }).studio.preview().renderer.info.render.frame > n,
    since.draws,
  );

Deno.test({
  name: "studio preview: idle while nothing moves; orbit, zoom, resize and a playing clip draw again",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-preview-idle-" });
    const car = join(dir, "boxes.car");
    await Deno.writeFile(car, encodeCar(animatedCar()));
    const { page, studio, errors, close } = await openStudio(dir, false);
    try {
      await page.addInitScript(() => {
        const hook = globalThis as unknown as { framesAsked: number };
        hook.framesAsked = 0;
        const asked = globalThis.requestAnimationFrame.bind(globalThis);
        globalThis.requestAnimationFrame = (callback) => (hook.framesAsked++, asked(callback));
      });
      await page.goto(studio.url);
      await page.click("#tab-preview");
      assert(await preview(page, car) === "ready");

      await t.step("a model shown and left alone: no frames, no draws", () => idles(page, "after loading"));

      await t.step("an orbit drag draws, then the view idles again", async () => {
        const before = await counts(page);
        const box = (await page.locator("#view3d").boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 30, { steps: 6 });
        await page.mouse.up();
        await drawsAfter(page, before);
        await idles(page, "after an orbit drag");
      });

      await t.step("a wheel zoom and a resize draw, then the view idles again", async () => {
        const before = await counts(page);
        await page.mouse.wheel(0, 300);
        await drawsAfter(page, before);
        await idles(page, "after a zoom");
        const zoomed = await counts(page);
        await page.setViewportSize({ width: 1200, height: 700 });
        await drawsAfter(page, zoomed);
        await idles(page, "after a resize");
      });

      await t.step("a playing clip draws frame after frame; stopped, the view idles", async () => {
        await page.selectOption("#clips", "walk");
        // Three draws in a row, each waited for: the clip keeps drawing without any input.
        for (let i = 0; i < 3; i++) await drawsAfter(page, await counts(page));
        await page.selectOption("#clips", "");
        await idles(page, "after the clip was stopped");
      });
      assert(errors.length === 0, errors.join("\n"));
    } finally {
      await close();
    }
  },
});
