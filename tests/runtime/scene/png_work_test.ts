/**
 * A new texture costs one SHA-256 and one copy of its pixels: a stored image is hashed by its stored
 * bytes alone (not by its pixels as well), and an opaque image's RGB repack is the scanline copy
 * deflate reads (not a repack and then a second copy with the filter bytes). The bytes stay
 * fast-png's, RGB and RGBA alike.
 */
import assert from "node:assert/strict";
import { encode as fastPng } from "fast-png";
import {
  encodePng,
  encodeRgbaPng,
  forgetPngEncodings,
  loadPngEncoder,
  pngOfEncodedImage,
  pngWork,
} from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";

await loadPngEncoder();

/**
 * Pixels as the decoders hand them over: a DXT-like image of 4×4 blocks of two colours (with a
 * punched-out alpha block when `alpha`), or a Targa-like noisy one; alpha 255 everywhere otherwise.
 */
function texture(width: number, height: number, seed: number, alpha: boolean): Uint8Array {
  const random = prng(seed);
  const out = new Uint8Array(4 * width * height);
  const blocks = new Map<number, number[]>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const block = (y >> 2) * 4096 + (x >> 2);
      const colours = blocks.get(block) ??
        (blocks.set(block, Array.from({ length: 6 }, () => Math.floor(random() * 256))).get(block)!);
      const pick = seed % 2 ? 3 * (random() < 0.5 ? 0 : 1) : 0;
      const at = 4 * (y * width + x);
      out.set([colours[pick], colours[pick + 1], colours[pick + 2]], at);
      out[at + 3] = alpha && (block % 7 === 3 || at === 0) ? 0 : 255; // a cut-out corner at least
    }
  }
  return out;
}

/** fast-png's bytes for `data` as RGBA, or as RGB when `rgb` (alpha dropped). */
function reference(width: number, height: number, data: Uint8Array, rgb: boolean): Uint8Array {
  if (!rgb) return fastPng({ width, height, data, channels: 4, depth: 8 });
  const samples = new Uint8Array(3 * width * height);
  for (let i = 0; i < width * height; i++) samples.set(data.subarray(4 * i, 4 * i + 3), 3 * i);
  return fastPng({ width, height, data: samples, channels: 3, depth: 8 });
}

/** Index of the first differing byte (or the shorter length), -1 when equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : Math.min(a.length, b.length);
}

/** Sizes the decoders make: DDS and Targa powers of two, Carnivores' 256-wide strips, odd ones. */
const SIZES: [number, number][] = [[1, 1], [8, 8], [64, 64], [256, 128], [256, 97], [33, 5], [128, 128]];

Deno.test("png work: a new stored texture is hashed once and its pixels copied once, with fast-png's bytes", () => {
  forgetPngEncodings();
  let seed = 40;
  for (const [width, height] of SIZES) {
    for (const alpha of [false, true]) {
      for (const opaqueAsRgb of [false, true]) {
        const pixels = texture(width, height, seed++, alpha);
        const stored = new Uint8Array([width, height, seed & 0xff, seed >> 8, alpha ? 1 : 0]);
        const before = { ...pngWork };
        const png = pngOfEncodedImage(stored, "test dds", () => ({ width, height, data: pixels }), {
          opaqueAsRgb,
        });
        const what = `${width}×${height}, ${alpha ? "with alpha" : "opaque"}, opaqueAsRgb ${opaqueAsRgb}`;
        assert.deepEqual(
          [pngWork.hashes - before.hashes, pngWork.copies - before.copies],
          [1, 1],
          `${what}: [hashes, copies of the pixels]`,
        );
        assert.equal(firstDifference(png, reference(width, height, pixels, opaqueAsRgb && !alpha)), -1, what);
        // Met again, the stored image costs its hash alone.
        const again = { ...pngWork };
        pngOfEncodedImage(stored, "test dds", () => assert.fail("decoded again"), { opaqueAsRgb });
        assert.deepEqual([pngWork.hashes - again.hashes, pngWork.copies - again.copies], [1, 0], what);
      }
    }
  }
});

Deno.test("png work: pixels encoded directly are hashed once and copied once, RGB or RGBA", () => {
  forgetPngEncodings();
  let seed = 90;
  for (const [width, height] of SIZES) {
    for (const alpha of [false, true]) {
      for (const encode of [encodePng, encodeRgbaPng]) {
        const pixels = texture(width, height, seed++, alpha);
        const before = { ...pngWork };
        const png = encode(width, height, pixels);
        const what = `${encode.name} ${width}×${height}, ${alpha ? "with alpha" : "opaque"}`;
        assert.deepEqual([pngWork.hashes - before.hashes, pngWork.copies - before.copies], [1, 1], what);
        const rgb = encode === encodePng && !alpha;
        assert.equal(firstDifference(png, reference(width, height, pixels, rgb)), -1, what);
      }
    }
  }
});
