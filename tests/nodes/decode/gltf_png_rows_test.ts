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

/** A painted-looking `size`² RGBA texture: gradients, a grid and (when `noisy`) a little noise. */
function albedo(size: number, noisy = true): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  let s = 7;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const i = 4 * (y * size + x), noise = noisy ? s >>> 29 : 0;
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
  // Smooth, as the corpus airplane's (0.23 MB): a header declaring more rows than 1024² RGBA takes is
  // read only for data of at most 1 MB.
  const png = albedo(1024, false);
  assert(png.length < 1024 * 1024, `${png.length} compressed bytes`);
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

Deno.test("past a 1024² RGBA texture's rows, data of at most 1 MB is checked (a 1024² texture under an 8192-row header), a 2048² texture's 8 MB is not", async () => {
  await loadPngEncoder();
  const small = albedo(1024, false);
  assertEquals((await warningsFor(withHeader(small, 20, 8192))).length, 1, "1024² data, 8192 rows declared");
  // A noisy 1024² texture's 2.3 MB is past the bound: under a larger header it is not read (documented);
  // under one within the limit it is read whole.
  const noisy = albedo(1024);
  assert(noisy.length > 1024 * 1024, `${noisy.length} compressed bytes`);
  assertEquals(await warningsFor(withHeader(noisy, 20, 8192)), []);
  assertEquals((await warningsFor(withHeader(noisy, 20, 1025))).length, 1);
  const png = albedo(2048);
  assert(png.length > 1024 * 1024, `${png.length} compressed bytes`);
  // Not inflated at all: telling a row more takes all 16 MB of it (export.gltf checks a wider one's first rows).
  assertEquals(await warningsFor(withHeader(png, 20, 2049)), []);
  assertEquals(await warningsFor(png), []);
});

Deno.test("a PNG whose data is cut off mid-stream (a truncated file) is named with the bytes it holds", async () => {
  await loadPngEncoder();
  const png = albedo(256);
  const view = new DataView(png.buffer, png.byteOffset);
  // The IDAT after the IHDR (33 bytes in): its data halved, its CRC made again, IEND after it.
  const length = view.getUint32(33);
  assertEquals(new TextDecoder().decode(png.subarray(37, 41)), "IDAT");
  const half = Math.floor(length / 2);
  const cut = new Uint8Array(33 + 12 + half + 12);
  cut.set(png.subarray(0, 33 + 8 + half));
  const out = new DataView(cut.buffer);
  out.setUint32(33, half);
  out.setUint32(33 + 8 + half, crc32(cut, 37, 41 + half));
  cut.set(png.subarray(png.length - 12), 33 + 12 + half);
  const warnings = await warningsFor(cut);
  assertEquals(warnings.length, 1, warnings.join("\n"));
  assert(/found \d+ before its data ends mid-stream \(cut short\)/.test(warnings[0]), warnings[0]);
  // Without a limit, as the repairs call it, a cut stream is the decoder's to name (unchanged).
  assertEquals(pngDataSizeFault(cut), undefined);
});
