/**
 * The PNG writer gives exactly fast-png's bytes (what earlier releases wrote) for images of every
 * kind, remembers encodings by their pixels without mixing up images that differ, and rejects
 * pixel buffers of the wrong size.
 */
import assert from "node:assert/strict";
import { decode, encode } from "fast-png";
import {
  encodeRgbaPng,
  forgetPngEncodings,
  loadPngEncoder,
  pngOfEncodedImage,
  pngOfEncodedImageAsync,
} from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { type DerivedStore, withDerivedStore } from "../../../runtime/derived.ts";

await loadPngEncoder();

/** Pixels of a given character: flat, gradient, noise, or a mix, so deflate takes every path. */
function image(width: number, height: number, kind: number, seed: number): Uint8Array {
  const random = prng(seed);
  const out = new Uint8Array(4 * width * height);
  for (let i = 0; i < out.length; i++) {
    const x = (i >> 2) % width, y = Math.floor((i >> 2) / width);
    out[i] = kind === 0
      ? 200
      : kind === 1
      ? (x * 3 + y * 5 + (i & 3) * 60) & 0xff
      : kind === 2
      ? Math.floor(random() * 256)
      : ((x >> 3) + (y >> 3)) % 2
      ? Math.floor(random() * 8)
      : 255;
  }
  return out;
}

/** Index of the first differing byte (or the shorter length), -1 when equal: a short failure message. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : Math.min(a.length, b.length);
}

const SIZES: [number, number][] = [[1, 1], [3, 7], [32, 32], [64, 16], [256, 2], [128, 128], [300, 211]];

Deno.test("png: bytes equal fast-png's encode for flat, gradient, noisy and mixed images", () => {
  forgetPngEncodings();
  let cases = 0;
  for (const [width, height] of SIZES) {
    for (let kind = 0; kind < 4; kind++) {
      const data = image(width, height, kind, width * 31 + height + kind);
      const ours = encodeRgbaPng(width, height, data);
      const theirs = encode({ width, height, data, channels: 4, depth: 8 });
      assert.equal(
        firstDifference(ours, theirs),
        -1,
        `${width}×${height} kind ${kind}: first differing byte`,
      );
      const back = decode(ours);
      assert.equal(back.width, width);
      assert.deepEqual(new Uint8Array(back.data.buffer, back.data.byteOffset, back.data.byteLength), data);
      cases++;
    }
  }
  assert.equal(cases, 28);
});

Deno.test("png: a repeated image returns the remembered bytes; one changed pixel is a new image", () => {
  forgetPngEncodings();
  const data = image(64, 64, 2, 5);
  const first = encodeRgbaPng(64, 64, data);
  assert.equal(encodeRgbaPng(64, 64, data.slice()), first, "same pixels, another array: the same bytes");
  const changed = data.slice();
  changed[4 * 1000 + 2] ^= 1;
  const other = encodeRgbaPng(64, 64, changed);
  assert.notEqual(firstDifference(other, first), -1);
  assert.equal(
    firstDifference(other, encode({ width: 64, height: 64, data: changed, channels: 4, depth: 8 })),
    -1,
  );
  // The same bytes laid out as another size are another image.
  const tall = encodeRgbaPng(32, 128, data);
  assert.equal(decode(tall).height, 128);
});

Deno.test("png: a stored image is decoded once; another stored form of the same pixels gives the same bytes", () => {
  forgetPngEncodings();
  const pixels = image(32, 32, 3, 9);
  let decodes = 0;
  const decodeTo = (data: Uint8Array) => () => {
    decodes++;
    return { width: 32, height: 32, data };
  };
  const stored = new Uint8Array([1, 2, 3, 4]);
  const first = pngOfEncodedImage(stored, "test", decodeTo(pixels));
  assert.equal(
    firstDifference(first, encode({ width: 32, height: 32, data: pixels, channels: 4, depth: 8 })),
    -1,
  );
  assert.equal(pngOfEncodedImage(stored.slice(), "test", decodeTo(pixels)), first);
  assert.equal(decodes, 1, "the same stored bytes are not decoded again");
  // Other stored bytes (or the same bytes in another format) decode, and the same pixels give the same
  // bytes (not the same array: a stored image's PNG is remembered by its stored digest alone).
  assert.equal(firstDifference(pngOfEncodedImage(stored, "other", decodeTo(pixels.slice())), first), -1);
  assert.equal(decodes, 2);
  const changed = pixels.slice();
  changed[7] ^= 1;
  assert.notEqual(pngOfEncodedImage(new Uint8Array([1, 2, 3, 5]), "test", decodeTo(changed)), first);
  // A decode that fails is not remembered: the next call tries again.
  const broken = new Uint8Array([9]);
  assert.throws(() =>
    pngOfEncodedImage(broken, "test", () => {
      throw new RangeError("bad image");
    }), /bad image/);
  assert.equal(firstDifference(pngOfEncodedImage(broken, "test", decodeTo(pixels)), first), -1);
});

Deno.test("png: an asynchronous decoder is asked once per stored image too, and shares the sync memo", async () => {
  forgetPngEncodings();
  const pixels = image(16, 16, 1, 3);
  let decodes = 0;
  const decode = () => {
    decodes++;
    return Promise.resolve({ width: 16, height: 16, data: pixels });
  };
  const stored = new Uint8Array([7, 7, 7]);
  const first = await pngOfEncodedImageAsync(stored, "webp", decode);
  assert.equal(await pngOfEncodedImageAsync(stored.slice(), "webp", decode), first);
  assert.equal(decodes, 1, "a remembered image is not decoded again");
  assert.equal(pngOfEncodedImage(stored, "webp", () => assert.fail("decoded again")), first);
  await assert.rejects(
    pngOfEncodedImageAsync(new Uint8Array([8]), "webp", () => Promise.reject(new RangeError("bad"))),
  );
  assert.equal(
    firstDifference(await pngOfEncodedImageAsync(new Uint8Array([8]), "webp", decode), first),
    -1,
    "a failure is not kept",
  );
});

Deno.test("png: a pixel buffer of the wrong size or a zero size is refused", () => {
  assert.throws(() => encodeRgbaPng(4, 4, new Uint8Array(63)), /63 bytes of RGBA for 4×4/);
  assert.throws(() => encodeRgbaPng(0, 4, new Uint8Array(0)), /not positive integers/);
});

Deno.test("png: in a run with a store of derived bytes, a stored image's PNG is kept and served to the next process", async () => {
  const kept = new Map<string, Uint8Array>();
  const store: DerivedStore = {
    recall: (key) => kept.get(key),
    remember: (key, bytes) => void kept.set(key, bytes),
  };
  const pixels = image(16, 16, 1, 3);
  let decodes = 0;
  const decodeOnce = () => (decodes++, { width: 16, height: 16, data: pixels });
  const stored = new Uint8Array([9, 8, 7]);
  forgetPngEncodings();
  const first = await withDerivedStore(store, () => pngOfEncodedImage(stored, "test", decodeOnce));
  assert.equal(kept.size, 1);
  forgetPngEncodings(); // as a new process: nothing remembered in memory
  const again = await withDerivedStore(store, () => pngOfEncodedImage(stored, "test", decodeOnce));
  assert.deepEqual([decodes, firstDifference(again, first)], [1, -1], "served by the store, not decoded");
  forgetPngEncodings(); // another format's stored bytes that happen to be equal are another image
  await withDerivedStore(store, () => pngOfEncodedImage(stored, "other", decodeOnce));
  assert.deepEqual([decodes, kept.size], [2, 2]);
  forgetPngEncodings(); // outside a run with a store, nothing is kept or recalled
  pngOfEncodedImage(stored, "test", decodeOnce);
  assert.deepEqual([decodes, kept.size], [3, 2]);
});
