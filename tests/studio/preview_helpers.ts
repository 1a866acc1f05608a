/// <reference lib="dom" />
/**
 * What the studio's preview tests do to the 3D preview: open a file, set a part slider as dragging it
 * does, read the part panel's rows and a part's pose, and compare the view's pixels.
 *
 * @module
 */
import { decode } from "fast-png";
import type { Page } from "playwright-core";

/** Opens `path` in the preview tab and waits until it is shown, or said not to be. */
export async function preview(page: Page, path: string): Promise<"ready" | "failed"> {
  await page.fill("#model-path", path);
  await page.click("#preview-open");
  const outcome = await page.waitForFunction(
    (label) =>
      document.body.dataset.previewReady === label
        ? "ready"
        : document.body.dataset.previewFailed === label
        ? "failed"
        : undefined,
    path,
    { timeout: 120_000 },
  );
  return await outcome.jsonValue() as "ready" | "failed";
}

/** Sets a part panel slider (`data-part` key) as dragging it does. */
export const slide = (page: Page, key: string, value: number) =>
  page.evaluate(([k, v]) => {
    const input = [...document.querySelectorAll<HTMLElement>(".part")].find((row) => row.dataset.part === k)!
      .querySelector("input")!;
    input.value = String(v);
    input.dispatchEvent(new Event("input"));
  }, [key, value] as const);

/** Every part panel row: its key, its caption's name (as text), its slider's range and value shown. */
export const rows = (page: Page) =>
  page.$$eval(".part", (all) =>
    all.map((row) => {
      const input = row.querySelector("input")!;
      return {
        key: (row as HTMLElement).dataset.part!,
        name: row.querySelector("span bdi")!.textContent!,
        caption: row.querySelector("span")!.textContent!,
        range: [Number(input.min), Number(input.max)],
        shown: row.querySelector("output")!.textContent!,
      };
    }));

/**
 * The angle (degrees) a part (by its label: its name unless another part shares it) is turned from
 * the pose the file stores, and its position's x.
 */
export const pose = (page: Page, name: string) =>
  page.evaluate((n) => {
    const hook = globalThis as unknown as {
      studio: {
        preview(): {
          parts: { label: string; object: { quaternion: { w: number }; position: { x: number } } }[];
        };
      };
    };
    const part = hook.studio.preview().parts.find((p) => p.label === n)!;
    const w = Math.min(1, Math.abs(part.object.quaternion.w));
    return { degrees: 2 * Math.acos(w) * 180 / Math.PI, x: part.object.position.x };
  }, name);

/** Pixels of the 3D view (`channels` bytes each). */
export async function viewPixels(page: Page): Promise<Shot> {
  const png = decode(await page.locator("#view3d").screenshot());
  return { data: png.data as Uint8Array, width: png.width, channels: png.channels };
}

/** A rectangle of the view, canvas pixels. */
export type Box = { x0: number; y0: number; x1: number; y1: number };
/** Pixels of the view. */
export type Shot = { data: Uint8Array; width: number; channels: number };
/** Pixels that differ between two shots inside `box` (and outside every box of `except`). */
export function changedPixels(a: Shot, b: Shot, box: Box, except: Box[] = []): number {
  let changed = 0;
  const { width, channels } = a;
  const height = a.data.length / channels / width;
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(height, Math.ceil(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(width, Math.ceil(box.x1)); x++) {
      if (except.some((e) => x >= e.x0 - 2 && x <= e.x1 + 2 && y >= e.y0 - 2 && y <= e.y1 + 2)) continue;
      const i = (y * width + x) * channels;
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) {
        changed++;
      }
    }
  }
  return changed;
}
