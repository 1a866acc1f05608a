/**
 * A PNG texture whose header declares a few rows more or fewer than its data holds (or another width,
 * or interlacing its data does not have) is named by `decode.gltf` — which texture, expected and found —
 * as far as inflating a 1024² RGBA texture's worth of data tells; the true header is not named.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { crc32, encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { pngDataSizeFault } from "../../../runtime/scene/png_data_size.ts";
import { runNode, testContext } from "../../support/context.ts";

/** A painted-looking `size`² RGBA texture: gradients, a grid and a little noise. */
function albedo(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  let s = 7;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const i = 4 * (y * size + x), noise = s >>> 29;
      pixels.set([(x * 255 / size + noise) & 255, (y * 255 / size) & 255, (x ^ y) & 96, 255], i);
    }
  }
  return encodeRgbaPng(size, size, pixels);
}

/** `png` with its IHDR's field at `offset` (16 width, 20 height as u32; 28 interlace as u8) set to `value`. */
function withHeader(png: Uint8Array, offset: number, value: number): Uint8Array {
  const out = png.slice();
  const view = new DataView(out.buffer);
  if (offset === 28) out[28] = value;
  else view.setUint32(offset, value);
  view.setUint32(29, crc32(out, 12, 29));
  return out;
}

/** The warnings decoding a GLB of one textured material with `png` gives. */
async function warningsFor(png: Uint8Array): Promise<string[]> {
  const doc = new Document();
  doc.createBuffer();
  const texture = doc.createTexture("paint").setImage(png).setMimeType("image/png");
  doc.createMaterial("Paint").setBaseColorTexture(texture);
  const glb = await writeGlb(doc, { generator: "test" });
  const ctx = testContext();
  await runNode(decodeGltf, { bytes: { bytes: glb, name: "plane.glb" } }, {}, ctx);
  return ctx.warnings.map((w) => w.message).filter((w) => w.includes("header declares another size"));
}

Deno.test("a 1024² texture whose header is a row taller or shorter, twice as tall, 16384 wide or interlaced is named", async () => {
  await loadPngEncoder();
  const png = albedo(1024);
  assertEquals(await warningsFor(png), [], "its true header");
  for (
    const [what, offset, value] of [
      ["height 1025", 20, 1025],
      ["height 1023", 20, 1023],
      ["height 2048", 20, 2048],
      ["height 16384", 20, 16384],
      ["width 16384", 16, 16384],
      ["interlaced", 28, 1],
    ] as const
  ) {
    const warnings = await warningsFor(withHeader(png, offset, value));
    assertEquals(warnings.length, 1, what);
    assert(warnings[0].startsWith("plane.glb: texture 'paint': its PNG header declares"), warnings[0]);
    assert(/expected \d+ bytes of image data, as its header's/.test(warnings[0]), warnings[0]);
  }
});

Deno.test("a limited inflation tells only what its bytes show: data ending within them, or a header within them", async () => {
  await loadPngEncoder();
  const png = albedo(256); // 257 KB of rows
  const rows = 256 * (1 + 4 * 256);
  // Taller by a row: told with the limit past the data, not with one below it (the data goes on past).
  const taller = withHeader(png, 20, 257);
  assert(pngDataSizeFault(taller, rows + 1));
  assertEquals(pngDataSizeFault(taller, rows - 2), undefined);
  // Shorter by a row: the data goes past the header's size, told whenever the header's size is within the limit.
  const shorter = withHeader(png, 20, 255);
  assertEquals(pngDataSizeFault(shorter, rows)?.found, `more than ${rows - 1025}`);
  assertEquals(pngDataSizeFault(shorter, rows - 2000), undefined);
  // The true header: never a fault, with or without a limit.
  assertEquals([pngDataSizeFault(png, 1000), pngDataSizeFault(png)], [undefined, undefined]);
});

Deno.test("a 2048² texture past the limit is named when one column wider (its first rows tell), not when a row taller", async () => {
  await loadPngEncoder();
  const png = albedo(2048);
  assertEquals(await warningsFor(png), []);
  assertEquals((await warningsFor(withHeader(png, 16, 2049))).length, 1, "wider: the rows' filter bytes");
  // Documented: telling a row more takes inflating all 16 MB of it.
  assertEquals(await warningsFor(withHeader(png, 20, 2049)), []);
});
