import assert from "node:assert/strict";
import { decodePng as decode } from "./png_pixels.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { decodeDds } from "../../../../runtime/image/dds.ts";
import { decodeTga } from "../../../../runtime/image/tga.ts";
import { resolveTexture } from "../../../../nodes/decode/freelancer/codec/texture.ts";
import { encodeUtf, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { findChild, readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { dxt1Dds, withPngKept } from "./fixtures.ts";
import { concat, tgaHeader } from "../../../support/freelancer/images.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";

// The tests build scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

const win = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "dds");

function ddsHeader(
  width: number,
  height: number,
  fourCC: string | undefined,
  bits = 0,
  masks = [0, 0, 0, 0],
): Uint8Array {
  const out = new Uint8Array(128);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(12, height, true);
  view.setUint32(16, width, true);
  view.setUint32(76, 32, true);
  if (fourCC) {
    view.setUint32(80, 0x4, true);
    out.set([...fourCC].map((c) => c.charCodeAt(0)), 84);
  } else {
    view.setUint32(80, 0x40 | (masks[3] ? 1 : 0), true);
    view.setUint32(88, bits, true);
    masks.forEach((m, i) => view.setUint32(92 + 4 * i, m, true));
  }
  return out;
}

Deno.test("DXT1: four-colour blocks interpolate; c0 <= c1 blocks have a transparent colour 3", () => {
  // c0 = pure red (0xF800), c1 = pure blue (0x001F); texel indices 0,1,2,3 in the first row.
  const four = concat(ddsHeader(4, 4, "DXT1"), [0x00, 0xf8, 0x1f, 0x00, 0b11100100, 0, 0, 0]);
  const image = decodeDds(win(four));
  assert.deepEqual(Array.from(image.data.subarray(0, 16)), [
    255,
    0,
    0,
    255,
    0,
    0,
    255,
    255,
    170,
    0,
    85,
    255,
    85,
    0,
    170,
    255,
  ]);
  const three = concat(ddsHeader(4, 4, "DXT1"), [0x1f, 0x00, 0x00, 0xf8, 0b11100100, 0, 0, 0]);
  const px = decodeDds(win(three)).data;
  assert.deepEqual(Array.from(px.subarray(8, 16)), [127, 0, 127, 255, 0, 0, 0, 0]);
});

Deno.test("DXT3 explicit alpha and DXT5 interpolated alpha", () => {
  const color = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]; // white, all texels colour 0
  const dxt3 = concat(ddsHeader(4, 4, "DXT3"), [0x10, 0x32, 0, 0, 0, 0, 0, 0xf0], color);
  const a3 = decodeDds(win(dxt3)).data;
  assert.deepEqual([a3[3], a3[7], a3[11], a3[15], a3[63]], [0, 17, 34, 51, 255]);
  // alpha0 = 200, alpha1 = 100: index 0 → 200, 1 → 100, 2 → (6·200 + 1·100)/7 = 185.
  const indices = 0 | (1 << 3) | (2 << 6); // texels 0, 1, 2
  const dxt5 = concat(ddsHeader(4, 4, "DXT5"), [200, 100, indices & 0xff, indices >> 8, 0, 0, 0, 0], color);
  const a5 = decodeDds(win(dxt5)).data;
  assert.deepEqual([a5[3], a5[7], a5[11], a5[15]], [200, 100, 185, 200]);
});

Deno.test("uncompressed DDS: A8R8G8B8 and R5G6B5 by channel masks", () => {
  const argb = concat(ddsHeader(1, 1, undefined, 32, [0xff0000, 0xff00, 0xff, 0xff000000]), [
    0x30,
    0x20,
    0x10,
    0x80,
  ]);
  assert.deepEqual(Array.from(decodeDds(win(argb)).data), [0x10, 0x20, 0x30, 0x80]);
  const rgb565 = concat(ddsHeader(1, 1, undefined, 16, [0xf800, 0x07e0, 0x001f, 0]), [0x1f, 0xf8]);
  assert.deepEqual(Array.from(decodeDds(win(rgb565)).data), [255, 0, 255, 255]);
});

Deno.test("Targa: rows in file order whatever the origin, as the game samples them and as DDS rows are; colour-mapped; a Huffman-coded type refused", () => {
  // Two rows, blue then red in the file (BGR order): they stay in that order for a bottom-left origin
  // (retail's) and a top-left one alike, as the game draws them (tga.ts says why).
  const blueThenRed = [0, 0, 255, 255, 255, 0, 0, 255];
  const tga = concat(tgaHeader(2, 1, 2, 24), [255, 0, 0], [0, 0, 255]);
  assert.deepEqual(Array.from(decodeTga(win(tga)).data), blueThenRed);
  assert.deepEqual(
    Array.from(decodeTga(win(concat(tgaHeader(2, 1, 2, 24, 0x20), [255, 0, 0], [0, 0, 255]))).data),
    blueThenRed,
  );
  // A DDS holding the same rows in the same order decodes alike: one convention for both containers.
  const dds = concat(ddsHeader(1, 2, undefined, 32, [0xff0000, 0xff00, 0xff, 0xff000000]), [255, 0, 0, 255], [
    0,
    0,
    255,
    255,
  ]);
  assert.deepEqual(Array.from(decodeDds(win(dds)).data), blueThenRed);
  const mapped = concat(tgaHeader(1, 2, 1, 8, 0x20, [2, 24]), [0, 255, 0, 10, 20, 30], [1, 0]);
  assert.deepEqual(Array.from(decodeTga(win(mapped)).data), [30, 20, 10, 255, 0, 255, 0, 255]);
  // RLE (type 10) decodes since decode.cmp v6 (messy_freelancer_test.ts); type 32 is still refused.
  assert.throws(() => decodeTga(win(concat(tgaHeader(32, 1, 1, 24), [0, 0, 0, 0]))), DecodeError);
});

Deno.test("a PNG kept in the disk cache by the decoder that flipped bottom-left Targa rows is not reused", async () => {
  // Before decode.cmp v8 a bottom-left Targa's rows were reversed; its PNGs were kept as "tga".
  const tga = concat(tgaHeader(2, 1, 2, 24), [255, 0, 0], [0, 0, 255]);
  const { stale, kept } = await withPngKept(tga, "tga", "tga v2");
  assert.deepEqual(Array.from(decode(stale).data as Uint8Array), [0, 0, 255, 255, 255, 0, 0, 255]);
  assert.equal(kept, true);
});

Deno.test("16-bit Targa: the top bit is alpha only when the descriptor declares an attribute bit", () => {
  // 2×1 true colour, 16 bits a pixel.
  const header = (descriptor: number) => tgaHeader(2, 2, 1, 16, descriptor);
  // Pure red with the top bit clear, then pure blue with it set (little-endian X1R5G5B5 words).
  const pixels = [0x00, 0x7c, 0x1f, 0x80];
  const padded = decodeTga(win(concat(header(0x20), pixels))).data;
  assert.deepEqual(Array.from(padded), [255, 0, 0, 255, 0, 0, 255, 255], "X1R5G5B5: opaque");
  const alpha = decodeTga(win(concat(header(0x21), pixels))).data;
  assert.deepEqual(Array.from(alpha), [255, 0, 0, 0, 0, 0, 255, 255], "A1R5G5B5: bit 15 is alpha");
});

Deno.test("texture directories become PNGs; truncated DXT data is a DecodeError", () => {
  const bytes = encodeUtf(
    utfDir("\\", [utfDir("Texture library", [utfDir("a.dds", [utfLeaf("MIPS", dxt1Dds(0x07e0, 8, 4))])])]),
  );
  const dir = findChild(findChild(readUtf(bytes), "texture library"), "A.DDS")!;
  const outcome = resolveTexture(dir, "Texture library/a.dds", () => undefined);
  assert.equal(outcome.kind, "png");
  const image = decode(outcome.kind === "png" ? outcome.png : new Uint8Array());
  assert.equal(image.width, 8);
  assert.equal(image.height, 4);
  assert.deepEqual(Array.from(image.data.subarray(0, 4)), [0, 255, 0, 255]);
  assert.throws(() => decodeDds(win(dxt1Dds(0, 8, 8).subarray(0, 140))), DecodeError);
});
