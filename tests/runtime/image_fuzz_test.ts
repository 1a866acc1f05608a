/**
 * The image decoders of `runtime/image/` on damaged images: DDS with the DX10 header (BC1, BC4, BC5,
 * BC7, 32-bit), `ATI2` and RLE Targa — the formats real Freelancer files carry, which decode.cmp reads
 * since v6 — and BMP of every depth (1-bit to 32-bit with bit fields), which decode.gltf stores as PNG,
 * mutated by
 * seeded bit flips, hostile 32-bit words and truncation. Every result is an image whose pixel array
 * matches its size, or a DecodeError at an offset inside the file: never another error, and never
 * more pixels than the file's bytes can describe.
 */
import assert from "node:assert/strict";
import { ByteWindow } from "../../runtime/binary.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { decodeDds } from "../../runtime/image/dds.ts";
import { decodeTga } from "../../runtime/image/tga.ts";
import { decodeBmp } from "../../runtime/image/bmp.ts";
import { bmpFile, bmpInfo40, u32 } from "../support/bmp.ts";
import { prng } from "../support/prng.ts";
import { concat, ddsHeader, dx10Header, tgaHeader } from "../support/freelancer/images.ts";

/** Bytes of a seeded pseudo-random pattern (block data that decodes to something). */
function pattern(length: number, seed: number): Uint8Array {
  const random = prng(seed);
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

/** One valid image of each format, 8×8 (BC blocks 4×4: 4 blocks). */
const SEEDS: [string, Uint8Array][] = [
  ["BC1 (DX10)", concat(dx10Header(8, 8, 71), pattern(4 * 8, 1))],
  ["BC4 (DX10)", concat(dx10Header(8, 8, 80), pattern(4 * 8, 2))],
  ["BC5 (DX10)", concat(dx10Header(8, 8, 83), pattern(4 * 16, 3))],
  ["BC7 (DX10)", concat(dx10Header(8, 8, 98), pattern(4 * 16, 4))],
  ["RGBA8 (DX10)", concat(dx10Header(8, 8, 28), pattern(8 * 8 * 4, 5))],
  ["ATI2", concat(ddsHeader(8, 8, { fourCC: "ATI2" }), pattern(4 * 16, 6))],
  // RLE true colour: 64 pixels as 8 runs of 8.
  [
    "RLE Targa",
    concat(tgaHeader(10, 8, 8, 24), ...Array.from({ length: 8 }, (_, i) => [0x87, i, 2 * i, 3 * i])),
  ],
  ["24-bit BMP", bmpFile(bmpInfo40(8, 8, 24), [...pattern(8 * 24, 7)])],
  // 8 rows of 4 bytes, after a palette of 16 colours (4 bytes each).
  ["4-bit BMP", bmpFile(bmpInfo40(8, -8, 4), [...pattern(8 * 4, 8)], [...pattern(16 * 4, 11)])],
  ["1-bit BMP", bmpFile(bmpInfo40(8, 8, 1), [...pattern(8 * 4, 9)], [...pattern(2 * 4, 12)])],
  [
    "32-bit BMP, bit fields",
    bmpFile(
      [
        ...bmpInfo40(8, 8, 32, 3),
        ...u32(0xff0000),
        ...u32(0xff00),
        ...u32(0xff),
        ...u32(0xff000000),
        ...new Array(52).fill(0),
      ],
      [...pattern(8 * 8 * 4, 10)],
    ),
  ],
];

const HOSTILE = [0xffffffff, 0x7fffffff, 0x80000000, 0x10000, 0xffff, 0];

/** Decodes as its format; "image" or "error", anything else thrown. */
function attempt(name: string, bytes: Uint8Array): "image" | "error" {
  const format = name.includes("Targa") ? "tga" : name.includes("BMP") ? "bmp" : "dds";
  try {
    const window = new ByteWindow(bytes, 0, bytes.length, format);
    const image = format === "tga"
      ? decodeTga(window)
      : format === "bmp"
      ? decodeBmp(window)
      : decodeDds(window);
    assert.equal(image.data.length, image.width * image.height * 4, `${name}: pixels match the size`);
    // No image larger than the file could describe (RLE packs 128 pixels in 4 bytes; BC 16 in 4).
    assert.ok(
      image.width * image.height <= 64 * bytes.length + 64,
      `${name}: ${image.width}×${image.height}`,
    );
    return "image";
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    const offset = (error.at as { offset?: number }).offset;
    assert.ok(offset === undefined || (offset >= 0 && offset <= bytes.length), `${name}: offset ${offset}`);
    return "error";
  }
}

Deno.test("image fuzz: every seed image decodes as it is", () => {
  for (const [name, bytes] of SEEDS) assert.equal(attempt(name, bytes), "image", name);
});

Deno.test("image fuzz: 400 mutations of each format end in an image or a DecodeError inside the file", () => {
  const tally: Record<string, { image: number; error: number }> = {};
  for (const [name, seed] of SEEDS) {
    const random = prng(0x5eed + seed.length);
    const counts = tally[name] = { image: 0, error: 0 };
    for (let n = 0; n < 400; n++) {
      let bytes = seed.slice();
      const kind = n % 3;
      if (kind === 0) {
        for (let f = 1 + Math.floor(random() * 6); f > 0; f--) {
          bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
        }
      } else if (kind === 1) {
        // Headers hold the sizes and formats: aim the hostile word at the first 148 bytes.
        const at = Math.floor(random() * Math.min(bytes.length - 4, 148));
        new DataView(bytes.buffer).setUint32(at, HOSTILE[Math.floor(random() * HOSTILE.length)], true);
      } else {
        bytes = bytes.slice(0, Math.floor(random() * bytes.length));
      }
      counts[attempt(name, bytes)]++;
    }
  }
  // Both outcomes occur for every format: the mutations reach the decoders' checks and their pixels.
  for (const [name, { image, error }] of Object.entries(tally)) {
    assert.ok(image > 0 && error > 0, `${name}: ${image} images, ${error} errors`);
  }
});

Deno.test("image fuzz: truncation at every offset of each seed is a DecodeError", () => {
  for (const [name, seed] of SEEDS) {
    for (let length = 0; length < seed.length; length++) {
      assert.equal(attempt(name, seed.slice(0, length)), "error", `${name} cut to ${length} bytes`);
    }
  }
});
