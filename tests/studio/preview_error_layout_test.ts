/// <reference lib="dom" />
/**
 * The 3D preview after a failed preview, in chromium: the error box stands above the view, not over
 * it, the view reaches down to its toolbar, and the cleared view is one colour to its foot. The box
 * lay over the WebGL canvas, and chromium, leaving out the canvas's part under an opaque box, left out
 * the mirrored rows instead (a canvas's pixels are stored bottom up): an empty dark band of the box's
 * size showed between the view and its toolbar.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { decode } from "fast-png";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { partsGlb } from "./preview_fixtures.ts";
import { preview } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Rect = { top: number; bottom: number; left: number; right: number; height: number };

/** The boxes of the preview pane, its error box, view and toolbar (CSS pixels). */
const boxes = (page: Page) =>
  page.evaluate(() => {
    const rect = (selector: string) => {
      const { top, bottom, left, right, height } = document.querySelector(selector)!.getBoundingClientRect();
      return { top, bottom, left, right, height };
    };
    return {
      pane: rect("#preview-pane"),
      error: rect("#preview-error"),
      view: rect("#view3d"),
      toolbar: rect(".toolbar3d"),
    };
  }) as Promise<Record<"pane" | "error" | "view" | "toolbar", Rect>>;

/**
 * Pixels of the view, as the page is shown (a screenshot of the page, clipped to the view), that
 * differ from its middle pixel's colour by more than 2 in a channel, by row from its foot up.
 */
async function offColourRows(page: Page, view: Rect): Promise<number[]> {
  const shot = decode(
    await page.screenshot({
      clip: { x: view.left, y: view.top, width: view.right - view.left, height: view.height },
    }),
  );
  const { width, height, channels } = shot;
  const data = shot.data as Uint8Array;
  const middle = ((height >> 1) * width + (width >> 1)) * channels;
  const rows: number[] = [];
  for (let y = height - 1; y >= 0; y--) {
    let off = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      for (let c = 0; c < 3; c++) if (Math.abs(data[i + c] - data[middle + c]) > 2) off++;
    }
    rows.push(off);
  }
  return rows;
}

Deno.test({
  name: "studio preview: after a failed preview the view reaches its toolbar, no empty band between",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await tempDir({ prefix: "studio-preview-error-" });
    const model = join(dir, "one_part.glb");
    await Deno.writeFile(model, await partsGlb([{ name: "Lone_part", extras: {}, at: [0, 0, 0] }]));
    const { page, studio, errors, close } = await openStudio(dir, false);
    try {
      await page.goto(studio.url);
      await page.waitForSelector("body[data-ready]");
      await page.click("#tab-preview");
      // A wide window and a narrow one (its toolbar wraps onto two rows), each after a failed preview.
      for (const size of [{ width: 1400, height: 800 }, { width: 1000, height: 700 }]) {
        await page.setViewportSize(size);
        equal(await preview(page, join(dir, `missing_${size.width}.glb`)), "failed");
        // The renderer follows the canvas's new size on its next frame: wait for it, not for a time.
        await page.waitForFunction(() => {
          const canvas = document.getElementById("view3d") as HTMLCanvasElement;
          return canvas.height === Math.round(canvas.clientHeight * devicePixelRatio);
        });
        const { pane, error, view, toolbar } = await boxes(page);
        const at = `at ${size.width}x${size.height}`;
        assert(error.height > 0, `the error box shows ${at}`);
        assert(
          error.bottom <= view.top + 0.5,
          `the error box (to ${error.bottom}) over the view (from ${view.top}) ${at}`,
        );
        assert(
          Math.abs(view.bottom - toolbar.top) < 1,
          `view ends at ${view.bottom}, toolbar starts ${toolbar.top} ${at}`,
        );
        assert(
          Math.abs(toolbar.bottom - pane.bottom) < 1,
          `toolbar ends at ${toolbar.bottom} in a pane to ${pane.bottom}`,
        );
        // The cleared view is one colour down to its last row.
        const rows = await offColourRows(page, view);
        const off = rows.flatMap((count, fromFoot) => count ? [fromFoot] : []);
        equal(off.length, 0, `rows ${off[0]}-${off.at(-1)} from the view's foot are not its colour ${at}`);
      }
      // A model shown takes the error box away: the view has the pane but for its toolbar again.
      equal(await preview(page, model), "ready");
      const { pane, error, view, toolbar } = await boxes(page);
      equal(error.height, 0);
      assert(
        Math.abs(view.top - pane.top) < 1 && Math.abs(view.bottom - toolbar.top) < 1,
        JSON.stringify(view),
      );
      equal(errors.filter((e) => !e.includes("status of 404")).join("\n"), "");
    } finally {
      await close();
    }
  },
});
