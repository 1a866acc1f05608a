/**
 * The largest model the 3D preview opens, shared by the server (`/api/model` refuses a larger file
 * before reading it) and the page (a run output larger than this is not downloaded into the tab).
 * Past it a tab holding the file, three.js's decode and the GPU's copy runs out of memory or stalls
 * for a minute with no word; the preview says why instead.
 *
 * @module
 */

/** The largest model file the preview opens, in bytes (128 MB). */
export const MAX_PREVIEW_BYTES = 128 * 2 ** 20;

/**
 * Why `label`, `size` bytes, is not previewed (undefined when it is small enough).
 *
 * @example
 * ```ts
 * tooLargeToPreview("huge.glb", 200 * 2 ** 20); // "'huge.glb' is 200 MB: the preview opens …"
 * ```
 */
export function tooLargeToPreview(label: string, size: number): string | undefined {
  if (!(size > MAX_PREVIEW_BYTES)) return undefined;
  const mb = (n: number) => `${Math.round(n / 2 ** 20)} MB`;
  return `'${label}' is ${mb(size)}: the preview opens models up to ${mb(MAX_PREVIEW_BYTES)} ` +
    "(the tab holds the file, its decode and the GPU's copy at once); run a graph on it instead";
}
