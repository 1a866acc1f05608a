/**
 * A PNG cut inside its image data (a truncated download, a buffer view written short) is named by
 * both size checks — the decoder's (`pngDataSizeFault`) and the export's (`pngDataPrefixProblem`) —
 * rather than passed through: when the file ended inside its only IDAT chunk, both used to skip that
 * chunk as a whole and, finding no image data, said nothing. `deno task fuzz --formats hostile-views`
 * found it (an embedded texture cut short went into the output GLB unnamed; the Khronos validator reads
 * only the header). A file cut only in its last checksums still holds its whole image and is not named.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { pngDataPrefixProblem, pngDataSizeFault } from "../../../runtime/scene/png_data_size.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { prng } from "../../support/prng.ts";
import { hostileInput, splitGlb } from "../../fuzz/hostile.ts";

/** Noisy RGBA pixels (deflate keeps them long, so cuts fall inside the data), from a seed. */
function noise(width: number, height: number, seed: number): Uint8Array {
  const random = prng(seed);
  return new Uint8Array(4 * width * height).map(() => Math.floor(random() * 256));
}

/** The offset and data length of the first IDAT chunk. */
function firstIdat(png: Uint8Array): { at: number; length: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 8 <= png.length; at += 12 + view.getUint32(at)) {
    if (view.getUint32(at + 4) === 0x49444154) return { at, length: view.getUint32(at) };
  }
  throw new Error("no IDAT");
}

Deno.test("a PNG cut inside its only IDAT chunk is named by the decoder's and the export's check", async () => {
  await loadPngEncoder();
  for (const [width, height, seed] of [[37, 23, 1], [5, 3, 2], [64, 9, 3]]) {
    const png = encodeRgbaPng(width, height, noise(width, height, seed)).slice();
    const { at, length } = firstIdat(png);
    const random = prng(seed * 7919);
    // Just its header, a few bytes in, somewhere in the middle, a dozen bytes short (past the Adler-32
    // and the last pixels): each short of the image.
    const cuts = [at + 8, at + 10, at + 8 + 1 + Math.floor(random() * (length - 14)), at + 8 + length - 12];
    for (const end of cuts) {
      const cut = png.slice(0, end);
      const where = `${width}×${height} cut at byte ${end} of ${png.length}`;
      const problem = pngDataPrefixProblem(cut);
      assert(problem?.includes(`ends inside an IDAT chunk, at byte ${end}`), `${where}: ${problem}`);
      for (const limit of [Infinity, 1 << 20]) {
        const fault = pngDataSizeFault(cut, limit);
        assert(fault instanceof DecodeError, `${where}, limit ${limit}: no fault`);
        assertEquals(fault.at, { offset: at });
        assert(
          fault.found.endsWith("before its data ends mid-stream (cut short)"),
          `${where}: ${fault.found}`,
        );
      }
    }
    // Cut in its IDAT's checksum, or after it: the whole image is there.
    for (const end of [at + 8 + length + 2, at + 12 + length]) {
      const cut = png.slice(0, end);
      assertEquals(pngDataPrefixProblem(cut), undefined, `cut at ${end}`);
      assertEquals(pngDataSizeFault(cut), undefined, `cut at ${end}`);
    }
    assertEquals(pngDataPrefixProblem(png), undefined);
  }
});

/** The JSON and binary buffer of a GLB, or of a glTF whose buffer is a data: URI. */
function partsOf(name: string, bytes: Uint8Array) {
  if (name.endsWith(".glb")) return splitGlb(bytes);
  const json = JSON.parse(new TextDecoder().decode(bytes));
  const base64 = json.buffers[0].uri.slice(json.buffers[0].uri.indexOf(",") + 1);
  return { json, bin: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) };
}

Deno.test("hostile-views: a glTF texture cut short is named by decode.gltf and left out by export.gltf", async () => {
  // The seed of the run that found it (cases 1, 2 and 6 cut: in IDAT, at byte 141, after IDAT's header).
  let seen = 0;
  for (let index = 0; index < 12; index++) {
    const { name, bytes } = await hostileInput("hostile-views", 9103, index, {
      family: "image-header",
      base: "limb",
    });
    const { json, bin } = partsOf(name, bytes);
    const view = json.bufferViews[json.images[0].bufferView];
    const png = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    // The family's cuts that keep the IHDR whole (so only the image data is short).
    if (png.length <= 41 - 8 || firstIdat(png).at + 8 + firstIdat(png).length <= png.length) continue;
    seen++;
    const ctx = testContext();
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx);
    assert(
      ctx.warnings.some((w) => /texture 'fuzz_texture'.*cut short/.test(w.message)),
      `case ${index}: ${ctx.warnings.map((w) => w.message).join("\n")}`,
    );
    const exported = await runNode(exportGltf, { scene }, {}, ctx);
    assertEquals(
      splitGlb(exported.bytes.bytes).json.images ?? [],
      [],
      `case ${index}: the cut image is left out`,
    );
    assert(
      ctx.warnings.some((w) => /image 'fuzz_texture' cannot be read .*ends inside an IDAT/.test(w.message)),
      `case ${index}: ${ctx.warnings.map((w) => w.message).join("\n")}`,
    );
  }
  assertEquals(seen, 3);
});
