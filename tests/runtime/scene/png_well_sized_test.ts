/**
 * PNGs `png.ts` writes are remembered as well sized, so `pngDataPrefixProblem` (which every export runs on
 * every texture) inflates none of them: that is sound only if each one's data is its header's size,
 * which the check computed on a copy confirms here for generated images of many sizes and kinds. An
 * edited copy is checked as any other PNG.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { crc32, encodePng, encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { pngDataPrefixProblem } from "../../../runtime/scene/png_data_size.ts";

/** Pixels of one kind: noise, flat, gradient; opaque or not. */
function pixels(width: number, height: number, seed: number): Uint8Array {
  const data = new Uint8Array(4 * width * height);
  let x = seed * 2654435761 >>> 0;
  for (let i = 0; i < data.length; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    const p = i / 4;
    const [r, g, b] = seed % 3 === 0
      ? [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255]
      : seed % 3 === 1
      ? [90, 90, 90]
      : [(p % width) * 255 / width, Math.floor(p / width) * 255 / height, 40];
    data.set([r, g, b, seed % 2 ? 255 : (x >>> 4) & 255], i);
  }
  return data;
}

Deno.test("png.ts's PNGs: the data check, computed on a copy, finds each the size its header declares", async () => {
  await loadPngEncoder();
  const sizes = [[1, 1], [3, 5], [31, 7], [32, 32], [64, 128], [127, 129], [256, 256], [300, 1100], [
    1025,
    9,
  ]];
  let checked = 0;
  for (const [s, [width, height]] of sizes.entries()) {
    for (const seed of [s * 6 + 1, s * 6 + 2, s * 6 + 3]) {
      for (const encode of [encodePng, encodeRgbaPng]) {
        const png = encode(width, height, pixels(width, height, seed));
        assertEquals(pngDataPrefixProblem(png.slice()), undefined, `${width}×${height} seed ${seed}`);
        assertEquals(pngDataPrefixProblem(png), undefined);
        checked++;
      }
    }
  }
  assertEquals(checked, sizes.length * 6);
});

Deno.test("png.ts's PNGs: a copy with its header edited is checked, not taken as well sized", async () => {
  await loadPngEncoder();
  const png = encodePng(64, 64, pixels(64, 64, 3));
  const wider = png.slice();
  const view = new DataView(wider.buffer);
  view.setUint32(16, 65);
  view.setUint32(29, crc32(wider, 12, 29));
  assert(pngDataPrefixProblem(wider)?.includes("65×64"), pngDataPrefixProblem(wider));
});
