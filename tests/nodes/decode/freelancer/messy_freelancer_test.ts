/**
 * What real Freelancer files look like today, beyond retail: files made or re-saved by LancerEdit,
 * UTFEditor, exporters and texture packs. Each case is built by code; expectations come from the
 * format's own rules (block layouts, bit fields), computed here independently of the decoder. Where
 * a case is read by Librelancer/LancerEdit and we used to refuse it, the test says so.
 */
import assert from "node:assert/strict";
import { decodePng } from "./png_pixels.ts";
import type { Document, Material } from "@gltf-transform/core";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { decodeDds } from "../../../../runtime/image/dds.ts";
import { decodeTga } from "../../../../runtime/image/tga.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import {
  compoundTree,
  fragmentChildren,
  materialLibrary,
  type MaterialSpec,
  meshLibrary,
} from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeString,
  encodeU32,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dxt1Dds } from "./fixtures.ts";
import {
  assertValid,
  decodeTree as decode,
  freelancerExtras as extrasOf,
  materialNamed as material,
  refTo,
  triangleMesh,
  triangleModel,
} from "./triangle_models.ts";

/** A .3db with one triangle per material, the materials, and a texture library of `textures`. */
const model3db = (
  materials: readonly MaterialSpec[],
  textures: readonly UtfNode[],
  meshMaterials?: readonly string[],
) => triangleModel(materials, { textures, meshMaterials });
import { concat, ddsHeader, dx10Header, tgaHeader } from "../../../support/freelancer/images.ts";

await loadPngEncoder();

const win = (bytes: Uint8Array, format = "dds") => new ByteWindow(bytes, 0, bytes.length, format);

const pixels = (image: { data: Uint8Array }, count = image.data.length / 4) =>
  Array.from({ length: count }, (_, i) => Array.from(image.data.subarray(4 * i, 4 * i + 4)));

/** Writes bit fields least significant first, as BC7 blocks are laid out. */
class Bits {
  readonly bytes = new Uint8Array(16);
  #at = 0;
  put(value: number, count: number): this {
    for (let i = 0; i < count; i++, this.#at++) {
      if ((value >> i) & 1) this.bytes[this.#at >> 3] |= 1 << (this.#at & 7);
    }
    return this;
  }
  get length(): number {
    return this.#at;
  }
}

const lerp = (e0: number, e1: number, w: number) => ((64 - w) * e0 + w * e1 + 32) >> 6;
const W2 = [0, 21, 43, 64], W3 = [0, 9, 18, 27, 37, 46, 55, 64];
const W4 = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];

// ---------------------------------------------------------------------------------------------
// DDS as modern tools write it

Deno.test("DDS with the DX10 header: BC1 and BC3 (as texconv writes them) decode like DXT1 and DXT5", () => {
  const dxt1 = dxt1Dds(0x07e0, 8, 4);
  const bc1 = concat(dx10Header(8, 4, 72 /* BC1_UNORM_SRGB */), dxt1.subarray(128));
  assert.deepEqual(decodeDds(win(bc1)).data, decodeDds(win(dxt1)).data);
  const block = [200, 100, 0b01001000, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0];
  const dxt5 = concat(ddsHeader(4, 4, { fourCC: "DXT5" }), block);
  const bc3 = concat(dx10Header(4, 4, 77 /* BC3_UNORM */), block);
  assert.deepEqual(decodeDds(win(bc3)).data, decodeDds(win(dxt5)).data);
  // Before: refused at the fourCC ("DX10"), so the material lost its texture.
});

Deno.test("BC4 (ATI1, LancerEdit's metallic/roughness maps) and BC4S: one channel, written as grey", () => {
  // Endpoints 200 > 100: eight values, index i ≥ 2 is ((8 − i)·200 + (i − 1)·100) / 7.
  const indices = [0, 1, 2, 7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3];
  const packed = indices.reduce((acc, v, t) => acc + v * 2 ** (3 * t), 0);
  const bitsBytes = Array.from({ length: 6 }, (_, i) => Math.floor(packed / 2 ** (8 * i)) % 256);
  const block = [200, 100, ...bitsBytes];
  const expected = (i: number) => i === 0 ? 200 : i === 1 ? 100 : ((8 - i) * 200 + (i - 1) * 100) / 7;
  for (const code of ["ATI1", "BC4U"]) {
    const image = decodeDds(win(concat(ddsHeader(4, 4, { fourCC: code }), block)));
    const got = pixels(image);
    indices.forEach((index, t) => {
      const v = Math.round(expected(index));
      assert.deepEqual(got[t], [v, v, v, 255], `${code} texel ${t}`);
    });
  }
  // Signed: endpoints 127 and −127 (0x81); texel 1 has index 1 (−1 → 0), the others index 0 (+1 → 255).
  const signed = decodeDds(
    win(concat(ddsHeader(4, 4, { fourCC: "BC4S" }), [127, 0x81, 0b001000, 0, 0, 0, 0, 0])),
  );
  assert.deepEqual(pixels(signed, 3).map((p) => p[0]), [255, 0, 255]);
  // DX10 BC4_UNORM (80) reads the same block.
  assert.deepEqual(
    decodeDds(win(concat(dx10Header(4, 4, 80), block))).data,
    decodeDds(win(concat(ddsHeader(4, 4, { fourCC: "ATI1" }), block))).data,
  );
});

Deno.test("BC5 (ATI2, LancerEdit's normal maps): X and Y as stored, Z rebuilt in blue", () => {
  // Flat normal: X = Y = 128 (≈ 0) everywhere → Z ≈ 1 → blue 255; a tilted one: X = 255 → Z = 0.
  const flat = [128, 128, 0, 0, 0, 0, 0, 0];
  const tilted = [255, 255, 0, 0, 0, 0, 0, 0];
  const image = decodeDds(win(concat(ddsHeader(8, 4, { fourCC: "ATI2" }), flat, flat, tilted, flat)));
  const x0 = 128 / 127.5 - 1;
  assert.deepEqual(pixels(image)[0], [128, 128, Math.round((Math.sqrt(1 - 2 * x0 * x0) + 1) * 127.5), 255]);
  assert.deepEqual(pixels(image)[4], [
    255,
    128,
    Math.round((Math.sqrt(Math.max(0, 1 - 1 - x0 * x0)) + 1) * 127.5),
    255,
  ]);
  const viaDx10 = decodeDds(win(concat(dx10Header(8, 4, 83), flat, flat, tilted, flat)));
  assert.deepEqual(viaDx10.data, image.data);
});

Deno.test("BC7 mode 6 (one subset, RGBA, per-endpoint p-bits, 4-bit indices)", () => {
  const e0 = [10, 20, 30, 40], e1 = [100, 90, 80, 127], p = [1, 0];
  const bits = new Bits().put(1 << 6, 7);
  for (let c = 0; c < 4; c++) bits.put(e0[c], 7).put(e1[c], 7);
  bits.put(p[0], 1).put(p[1], 1);
  const indices = Array.from({ length: 16 }, (_, t) => (t * 5) % 16 & (t === 0 ? 7 : 15));
  indices.forEach((index, t) => bits.put(index, t === 0 ? 3 : 4));
  assert.equal(bits.length, 128);
  const image = decodeDds(win(concat(dx10Header(4, 4, 98 /* BC7_UNORM */), bits.bytes)));
  const ep0 = e0.map((v) => (v << 1) | p[0]), ep1 = e1.map((v) => (v << 1) | p[1]);
  pixels(image).forEach((got, t) => {
    assert.deepEqual(got, [0, 1, 2, 3].map((c) => lerp(ep0[c], ep1[c], W4[indices[t]])), `texel ${t}`);
  });
});

Deno.test("BC7 mode 1 (two subsets, shared p-bits, anchors) and mode 4 (rotation, index selection)", () => {
  // Mode 1, partition 13 (texels 8..15 in subset 1; its anchor is texel 15).
  const ends = [[5, 40, 20, 63], [60, 10, 33, 0], [1, 2, 3, 4]]; // [channel][endpoint]
  const shared = [1, 0];
  const bits = new Bits().put(0b10, 2).put(13, 6);
  for (const channel of ends) for (const v of channel) bits.put(v, 6);
  bits.put(shared[0], 1).put(shared[1], 1);
  const indices = Array.from({ length: 16 }, (_, t) => (t === 0 || t === 15) ? t % 4 : (t * 3) % 8);
  indices.forEach((index, t) => bits.put(index, t === 0 || t === 15 ? 2 : 3));
  assert.equal(bits.length, 128);
  const expand7 = (v: number) => ((v << 1) | (v >> 6)) & 0xff;
  const image = pixels(decodeDds(win(concat(dx10Header(4, 4, 98), bits.bytes))));
  for (let t = 0; t < 16; t++) {
    const s = t >= 8 ? 1 : 0;
    const rgb = [0, 1, 2].map((c) => {
      const a = expand7((ends[c][2 * s] << 1) | shared[s]),
        b = expand7((ends[c][2 * s + 1] << 1) | shared[s]);
      return lerp(a, b, W3[indices[t]]);
    });
    assert.deepEqual(image[t], [...rgb, 255], `mode 1 texel ${t}`);
  }

  // Mode 4, rotation 1 (alpha ↔ red), index selection 1 (colour takes the 3-bit indices).
  const color = [[3, 28], [17, 9], [31, 0]], alpha = [50, 13];
  const m4 = new Bits().put(1 << 4, 5).put(1, 2).put(1, 1);
  for (const channel of color) for (const v of channel) m4.put(v, 5);
  m4.put(alpha[0], 6).put(alpha[1], 6);
  const two = Array.from({ length: 16 }, (_, t) => t === 0 ? 1 : t % 4);
  const three = Array.from({ length: 16 }, (_, t) => t === 0 ? 2 : (t * 5) % 8);
  two.forEach((v, t) => m4.put(v, t === 0 ? 1 : 2));
  three.forEach((v, t) => m4.put(v, t === 0 ? 2 : 3));
  assert.equal(m4.length, 128);
  const expand = (v: number, n: number) => ((v << (8 - n)) | ((v << (8 - n)) >> n)) & 0xff;
  const got = pixels(decodeDds(win(concat(dx10Header(4, 4, 99), m4.bytes))));
  for (let t = 0; t < 16; t++) {
    const [r, g, b] = color.map(([a, z]) => lerp(expand(a, 5), expand(z, 5), W3[three[t]]));
    const a = lerp(expand(alpha[0], 6), expand(alpha[1], 6), W2[two[t]]);
    assert.deepEqual(got[t], [a, g, b, r], `mode 4 texel ${t}`);
  }
  // A block with no mode bit is reserved: transparent black.
  const reserved = pixels(decodeDds(win(concat(dx10Header(4, 4, 98), new Uint8Array(16)))));
  assert.deepEqual(reserved[5], [0, 0, 0, 0]);
});

Deno.test("uncompressed DDS: X8R8G8B8, A1R5G5B5, A4R4G4B4, L8, A8L8, A8 and DX10 RGBA/BGRX", () => {
  const one = (header: Uint8Array, data: number[]) => pixels(decodeDds(win(concat(header, data))))[0];
  const x8r8g8b8 = ddsHeader(1, 1, { bits: 32, masks: [0xff0000, 0xff00, 0xff, 0] });
  assert.deepEqual(
    one(x8r8g8b8, [0x30, 0x20, 0x10, 0x00]),
    [0x10, 0x20, 0x30, 255],
    "X8: padding is not alpha",
  );
  const a1 = ddsHeader(1, 1, { bits: 16, pfFlags: 0x41, masks: [0x7c00, 0x3e0, 0x1f, 0x8000] });
  assert.deepEqual(one(a1, [0x1f, 0x00]), [0, 0, 255, 0]);
  const a4 = ddsHeader(1, 1, { bits: 16, pfFlags: 0x41, masks: [0xf00, 0xf0, 0xf, 0xf000] });
  assert.deepEqual(one(a4, [0x21, 0x83]), [51, 34, 17, 136]);
  // Luminance formats: L8 and A8L8 (DDPF_LUMINANCE 0x20000), before refused at the bit count.
  const l8 = ddsHeader(1, 1, { bits: 8, pfFlags: 0x20000, masks: [0xff, 0, 0, 0] });
  assert.deepEqual(one(l8, [77]), [77, 77, 77, 255]);
  const a8l8 = ddsHeader(1, 1, { bits: 16, pfFlags: 0x20001, masks: [0xff, 0, 0, 0xff00] });
  assert.deepEqual(one(a8l8, [77, 99]), [77, 77, 77, 99]);
  const a8 = ddsHeader(1, 1, { bits: 8, pfFlags: 0x2, masks: [0, 0, 0, 0xff] });
  assert.deepEqual(one(a8, [99]), [0, 0, 0, 99]);
  assert.deepEqual(one(dx10Header(1, 1, 28), [1, 2, 3, 4]), [1, 2, 3, 4], "R8G8B8A8_UNORM");
  assert.deepEqual(one(dx10Header(1, 1, 88), [1, 2, 3, 4]), [3, 2, 1, 255], "B8G8R8X8_UNORM");
});

Deno.test("DDS mip chains: fewer levels than declared, odd sizes; a top level the data lacks is a DecodeError", () => {
  // 9 levels declared, only the top one stored: the game reads what it draws first.
  const short = concat(ddsHeader(8, 8, { fourCC: "DXT1", mips: 9 }), dxt1Dds(0xf800, 8, 8).subarray(128));
  assert.deepEqual(pixels(decodeDds(win(short)))[63], [255, 0, 0, 255]);
  // 6×5: blocks round up (2×2 blocks), the image keeps its size.
  const odd = decodeDds(win(dxt1Dds(0x001f, 6, 5)));
  assert.deepEqual([odd.width, odd.height, odd.data.length], [6, 5, 6 * 5 * 4]);
  // A header claiming 64×64 over 32×32 worth of blocks: damage, named where the data starts.
  const lying = concat(ddsHeader(64, 64, { fourCC: "DXT1" }), dxt1Dds(0, 32, 32).subarray(128));
  const error = (() => {
    try {
      decodeDds(win(lying));
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof DecodeError);
  assert.deepEqual(error.at, { offset: 128 });
  assert.match(error.expected, /2048 bytes of 64×64 top-level blocks/);
  // BC6H (HDR) is not decoded: a DecodeError naming it.
  assert.throws(() => decodeDds(win(concat(dx10Header(4, 4, 95), new Uint8Array(16)))), /BC6H/);
});

// ---------------------------------------------------------------------------------------------
// Targa as community tools write it

Deno.test("RLE Targa (types 10, 9, 11), runs crossing rows; a run past the image is a DecodeError", () => {
  // 3×2 top-left 24-bit: a run of 4 red (crosses into row 2), then 2 literal pixels green, blue.
  const rle = concat(tgaHeader(10, 3, 2, 24, 0x20), [0x83, 0, 0, 255], [0x01, 0, 255, 0, 255, 0, 0]);
  assert.deepEqual(pixels(decodeTga(win(rle, "tga"))), [
    [255, 0, 0, 255],
    [255, 0, 0, 255],
    [255, 0, 0, 255],
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
  ]);
  // Bottom-left origin: rows in file order, as for plain Targa.
  const bottom = concat(tgaHeader(10, 1, 2, 24), [0x00, 255, 0, 0], [0x00, 0, 0, 255]);
  assert.deepEqual(pixels(decodeTga(win(bottom, "tga"))), [[0, 0, 255, 255], [255, 0, 0, 255]]);
  // Colour-mapped RLE with a 32-bit palette (LancerEdit writes 32-bit maps when the image has alpha).
  const mapped = concat(tgaHeader(9, 2, 1, 8, 0x20, [2, 32]), [0, 255, 0, 128, 10, 20, 30, 40], [0x81, 1]);
  assert.deepEqual(pixels(decodeTga(win(mapped, "tga"))), [[30, 20, 10, 40], [30, 20, 10, 40]]);
  const grey = concat(tgaHeader(11, 2, 1, 8), [0x81, 99]);
  assert.deepEqual(pixels(decodeTga(win(grey, "tga"))), [[99, 99, 99, 255], [99, 99, 99, 255]]);
  // A run of 5 into a 2×2 image: damage, at the packet's header byte.
  const over = concat(tgaHeader(10, 2, 2, 24), [0x84, 1, 2, 3], new Uint8Array(8));
  assert.throws(
    () => decodeTga(win(over, "tga")),
    (e) => e instanceof DecodeError && "offset" in e.at && e.at.offset === 18,
  );
  // Data that ends inside a literal packet.
  assert.throws(() => decodeTga(win(concat(tgaHeader(10, 4, 1, 24), [0x03, 1, 2, 3]), "tga")), DecodeError);
});

Deno.test("Targa: 15-bit pixels, a 16-bit colour map, and a v2 footer after the pixels", () => {
  const fifteen = concat(tgaHeader(2, 1, 1, 15), [0x00, 0x7c]);
  assert.deepEqual(pixels(decodeTga(win(fifteen, "tga"))), [[255, 0, 0, 255]]);
  const map16 = concat(tgaHeader(1, 1, 1, 8, 0, [1, 16]), [0xe0, 0x03], [0]);
  assert.deepEqual(pixels(decodeTga(win(map16, "tga"))), [[0, 255, 0, 255]]);
  const footer = concat(tgaHeader(2, 1, 1, 24), [1, 2, 3], new Uint8Array(26));
  assert.deepEqual(pixels(decodeTga(win(footer, "tga"))), [[3, 2, 1, 255]]);
});

// ---------------------------------------------------------------------------------------------
// Whole files: textures, materials, meshes, compounds

const firstPixel = (m: Material) =>
  Array.from(decodePng(m.getBaseColorTexture()!.getImage()!).data.subarray(0, 4));

Deno.test("texture entries: MIPS beside MIP0 (MIPS wins), a MIPS that fails falls back to MIP0, an animated texture shows frame 0", async () => {
  const redTga = concat(tgaHeader(2, 1, 1, 24, 0x20), [0, 0, 255]);
  const broken = concat(ddsHeader(4, 4, { fourCC: "DXT9" }), new Uint8Array(8));
  const root = model3db(
    [
      { name: "both", dtName: "both.dds" },
      { name: "fallback", dtName: "fallback.dds" },
      { name: "animated", dtName: "Pylon.avi" },
    ],
    [
      utfDir("both.dds", [utfLeaf("MIPS", dxt1Dds(0x07e0)), utfLeaf("MIP0", redTga)]),
      utfDir("fallback.dds", [utfLeaf("MIPS", broken), utfLeaf("MIP0", redTga)]),
      utfDir("Pylon.avi", [
        utfLeaf("Texture count", encodeU32(1)),
        utfLeaf("Frame count", encodeU32(1)),
        utfLeaf("FPS", encodeFloats([10])),
        utfLeaf("Frame rects", concat(encodeU32(0), encodeFloats([0, 0, 1, 1]))),
      ]),
      utfDir("Pylon.avi_0", [utfLeaf("MIPS", dxt1Dds(0x001f))]),
    ],
  );
  const { scene, warnings } = await decode(root, "textures.3db");
  assert.deepEqual(firstPixel(material(scene, "both")), [0, 255, 0, 255], "MIPS, as the game draws it");
  assert.deepEqual(firstPixel(material(scene, "fallback")), [255, 0, 0, 255]);
  assert.ok(
    warnings.some((w) => w.includes("Texture library/fallback.dds/MIPS does not decode")),
    warnings.join("\n"),
  );
  assert.deepEqual(firstPixel(material(scene, "animated")), [0, 0, 255, 255]);
  assert.ok(warnings.some((w) => w.includes("first frame 'Pylon.avi_0'")), warnings.join("\n"));
  await assertValid(scene);
});

Deno.test("an undecodable texture is a named checkerboard placeholder; a missing one is named on its material", async () => {
  const bc6h = concat(dx10Header(4, 4, 95), new Uint8Array(16));
  const root = model3db(
    [{ name: "hdr", dtName: "sky_hdr.dds" }, { name: "lost", dc: [0.5, 0.5, 0.5], dtName: "not_in_any.dds" }],
    [utfDir("sky_hdr.dds", [utfLeaf("MIPS", bc6h)])],
  );
  const { scene, warnings } = await decode(root, "placeholders.3db");
  const hdr = material(scene, "hdr");
  const texture = hdr.getBaseColorTexture()!;
  assert.equal(texture.getName(), "sky_hdr.dds (undecodable)");
  assert.equal(decodePng(texture.getImage()!).width, 8);
  assert.deepEqual(firstPixel(hdr), [255, 0, 255, 255], "magenta, not a silent grey");
  assert.ok(
    warnings.some((w) =>
      w.includes("Texture library/sky_hdr.dds/MIPS in placeholders.3db") && w.includes("BC6H")
    ),
    warnings.join("\n"),
  );
  assert.match(JSON.stringify(extrasOf(hdr).texture_problems), /undecodable/);
  const lost = material(scene, "lost");
  assert.equal(lost.getBaseColorTexture(), null);
  assert.deepEqual(extrasOf(lost).texture_problems, [{
    name: "not_in_any.dds",
    problem: "in no loaded texture library",
  }]);
  assert.ok(warnings.some((w) => w.includes("'not_in_any.dds' not found")), warnings.join("\n"));
  await assertValid(scene);
});

Deno.test("LancerEdit/texture-pack textures in a whole file: ATI2, BC7 and RLE Targa are drawn", async () => {
  const bc7 = new Bits().put(1 << 6, 7);
  for (let c = 0; c < 4; c++) bc7.put(c === 0 ? 127 : 0, 7).put(c === 0 ? 127 : 0, 7);
  bc7.put(1, 1).put(1, 1).put(0, 3);
  for (let t = 1; t < 16; t++) bc7.put(0, 4);
  const root = model3db(
    [
      { name: "normal", dtName: "n.dds" },
      { name: "modern", dtName: "bc7.dds" },
      { name: "packed", dtName: "rle.tga" },
    ],
    [
      utfDir("n.dds", [utfLeaf("MIPS", concat(ddsHeader(4, 4, { fourCC: "ATI2" }), new Uint8Array(16)))]),
      utfDir("bc7.dds", [utfLeaf("MIPS", concat(dx10Header(4, 4, 98), bc7.bytes))]),
      utfDir("rle.tga", [utfLeaf("MIP0", concat(tgaHeader(10, 2, 2, 32, 0x28), [0x83, 1, 2, 3, 4]))]),
    ],
  );
  const { scene, warnings } = await decode(root, "modern.3db");
  assert.deepEqual(warnings, []);
  assert.deepEqual(firstPixel(material(scene, "modern")), [255, 1, 1, 1]);
  assert.deepEqual(firstPixel(material(scene, "packed")), [3, 2, 1, 4]);
  assert.ok(material(scene, "normal").getBaseColorTexture());
  await assertValid(scene);
});

Deno.test("materials: mod Type names, no Dc, names and texture names differing only in case", async () => {
  const root = model3db(
    [
      { name: "Nomad_Skin", type: "NomadMaterialNoBendy", dtName: "SKIN.dds" },
      { name: "custom", type: "MyModShader_Glow", dc: [1, 0, 0] },
      { name: "plain", type: "DcDt" }, // no Dc: white, as the game's default
    ],
    [utfDir("skin.DDS", [utfLeaf("MIPS", dxt1Dds(0x07e0))])],
    // The mesh names its materials in another case: ids are FLCRC32 of the lower-cased name.
    ["NOMAD_SKIN", "Custom", "PLAIN"],
  );
  const { scene, warnings } = await decode(root, "mod.3db");
  // A nomad material reads a ramp it does not name (NomadRGB1_NomadAlpha1), which no library here
  // holds: its diffuse texture is drawn alone, as the nomad shader draws it (unlit, blended).
  assert.deepEqual(warnings, [
    "decode.cmp: libraries is 'auto' but no model_path was given, so there is no folder to search",
    "texture 'NomadRGB1_NomadAlpha1' not found in any loaded texture library; the diffuse texture is drawn without it; used by material 'Nomad_Skin' " +
    "(part 'Root' LOD 0); looked in mod.3db",
    // A mod's own shader passes through, drawn as a lit DcDt, no longer silently (decode.cmp v13).
    "material 'custom' (MyModShader_Glow): 'MyModShader_Glow' is not a material type the game or Librelancer " +
    "knows (a mod's own shader?); drawn as a lit DcDt; on 1 group of part 'Root' LOD 0",
  ]);
  const nomad = material(scene, "Nomad_Skin");
  assert.deepEqual(firstPixel(nomad), [0, 255, 0, 255]);
  assert.equal(extrasOf(nomad).type, "NomadMaterialNoBendy");
  assert.equal(nomad.getAlphaMode(), "BLEND");
  assert.ok(nomad.getExtension("KHR_materials_unlit") && nomad.getDoubleSided());
  assert.deepEqual(material(scene, "custom").getBaseColorFactor(), [1, 0, 0, 1]);
  assert.deepEqual(material(scene, "plain").getBaseColorFactor(), [1, 1, 1, 1]);
  await assertValid(scene);
});

Deno.test("meshes: a group naming no material, UTFEditor's tangent FVF 0x412, a stray FVF bit costs its mesh", async () => {
  const root = utfDir("\\", [
    meshLibrary([
      { name: "a.vms", data: triangleMesh(["nowhere"]) },
      { name: "t.vms", data: triangleMesh(["nowhere"], 0x412) },
    ]),
    ...fragmentChildren({ lods: [refTo("a.vms", 1), refTo("t.vms", 1)] }),
  ]);
  const { scene, warnings } = await decode(root, "groups.3db");
  const placeholder = `material_0x${flCrc32("nowhere").toString(16).toUpperCase().padStart(8, "0")}`;
  assert.ok(scene.getRoot().listMaterials().some((m) => m.getName() === placeholder));
  assert.ok(
    warnings.some((w) => w.includes("not found in any loaded material library")),
    warnings.join("\n"),
  );
  assert.ok(warnings.some((w) => w.includes("4 UV sets (FVF 0x412)")), warnings.join("\n"));
  await assertValid(scene);
  // XYZRHW (0x004): neither Freelancer nor Librelancer draws it. Before v9 a DecodeError; now the
  // mesh's geometry is left out with a warning at the FVF word (vmesh_damage_test.ts).
  const strayMesh = triangleMesh(["x"]);
  new DataView(strayMesh.buffer).setUint16(12, 0x116, true);
  const stray = utfDir("\\", [
    meshLibrary([{ name: "s.vms", data: strayMesh }]),
    ...fragmentChildren({ lods: [refTo("s.vms", 1)] }),
  ]);
  const { scene: strayScene, warnings: strayWarnings } = await decode(stray, "stray.3db");
  assert.equal(strayScene.getRoot().listMeshes().length, 0);
  assert.ok(
    strayWarnings.some((w) =>
      /^mesh 's.vms': .*expected a supported FVF, found unknown FVF bits 0x4\)/.test(w)
    ),
    strayWarnings.join("\n"),
  );
  await assertValid(strayScene);
});

Deno.test("VMeshRef: wrong vertex/index counts are ignored (groups decide, as LancerEdit's exporter does); groups past the mesh are a warning", async () => {
  const mesh = triangleMesh(["m0", "m1"]);
  const ok = utfDir("\\", [
    meshLibrary([{ name: "w.vms", data: mesh }]),
    ...fragmentChildren({ lods: [refTo("w.vms", 2, { vertexCount: 99, indexStart: 40, indexCount: 1 })] }),
  ]);
  const { scene } = await decode(ok, "counts.3db");
  const prims = scene.getRoot().listMeshes()[0].listPrimitives();
  assert.equal(prims.length, 2);
  // Before v7 a DecodeError; now the reference's geometry is left out and named (see
  // materials_damage_test.ts for a compound whose part keeps its hardpoints and children).
  const past = utfDir("\\", [
    meshLibrary([{ name: "w.vms", data: mesh }]),
    ...fragmentChildren({ lods: [refTo("w.vms", 2, { groupStart: 1 })] }),
  ]);
  const { scene: pastScene, warnings } = await decode(past, "past.3db");
  assert.equal(pastScene.getRoot().listNodes().find((n) => n.getName() === "Root")?.getMesh(), null);
  assert.ok(
    warnings.some((w) =>
      w.startsWith("part 'Root' LOD 0 (VMeshPart/VMeshRef in past.3db)") &&
      /select groups within the mesh's 2, found 1\+2/.test(w)
    ),
    warnings.join("\n"),
  );
});

Deno.test("compounds as mods leave them: Cons naming absent parts, trailing spaces, duplicate names, unknown root nodes, odd hardpoint names", async () => {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const fix = (parent: string, child: string, x: number) => ({
    kind: "fix" as const,
    parent,
    child,
    translation: [x, 0, 0],
    rotation: identity,
  });
  const tree = compoundTree({
    meshes: [{ name: "m.vms", data: triangleMesh(["hull"]) }],
    parts: [
      {
        name: "Root",
        fileName: "root.3db",
        fragment: {
          lods: [refTo("m.vms", 1)],
          hardpoints: [
            { name: "HpWeapon 01 ", kind: "fix", position: [1, 0, 0], orientation: identity },
            { name: "HpWeapon 01 ", kind: "rev", position: [2, 0, 0], orientation: identity },
            { name: "Hp.Mount-A$x", kind: "fix", position: [3, 0, 0], orientation: identity },
          ],
        },
      },
      { name: "Wing ", fileName: "wing.3db", fragment: { lods: [refTo("m.vms", 1)] } },
      { name: "wing ", fileName: "wing_copy.3db", fragment: { lods: [refTo("m.vms", 1)] } },
      { name: "Tail", fileName: "tail.3db", fragment: { lods: [refTo("m.vms", 1)] } },
    ],
    constraints: [
      fix("Root", "Wing ", 1),
      fix("Root", "Tail", 2),
      fix("Root", "Gun", 3),
      fix("Root", "Wing", 4),
    ],
    extra: [
      materialLibrary([{ name: "hull" }]),
      // Nodes no reader knows: kept out of the scene, no effect on it.
      utfLeaf("Exporter Version", encodeString("LancerEdit 2024.11")),
      utfDir("Editor Metadata", [utfLeaf("Camera", encodeFloats([0, 0, 10]))]),
    ],
  });
  const { scene, warnings } = await decode(tree, "mod.cmp", true);
  const names = scene.getRoot().listNodes().map((n) => n.getName());
  assert.ok(names.includes("Wing ") && names.includes("Tail"), names.join(","));
  assert.equal(names.filter((n) => n.toLowerCase() === "wing ").length, 1, "the duplicate part is dropped");
  assert.equal(names.filter((n) => n === "HpWeapon 01 ").length, 2, "hardpoint names are kept verbatim");
  assert.ok(names.includes("Hp.Mount-A$x"));
  assert.ok(warnings.some((w) => w.includes("duplicate part name 'wing '")), warnings.join("\n"));
  assert.ok(warnings.some((w) => w.includes('names part "Gun"')), warnings.join("\n"));
  // "Wing" without the space names no part (names match verbatim but for case, as the game's do).
  assert.ok(warnings.some((w) => w.includes('names part "Wing"')), warnings.join("\n"));
  const wing = scene.getRoot().listNodes().find((n) => n.getName() === "Wing ")!;
  assert.deepEqual(wing.getTranslation(), [1, 0, 0], "the record naming 'Wing ' exactly attaches it");
  await assertValid(scene);
});

Deno.test({
  name: "monkey.3db (LancerEdit-written): its DXT5 texture decodes without a warning",
  ignore: withoutCorpus("freelancer/librelancer_monkey.3db"),
  async fn() {
    const bytes = await Deno.readFile(corpusFile("freelancer/librelancer_monkey.3db")!);
    const ctx = testContext();
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: "monkey.3db" } }, {}, ctx);
    assert.deepEqual(ctx.warnings.map((w) => w.message), []);
    const doc = scene as Document;
    const texture = doc.getRoot().listMaterials()[0].getBaseColorTexture();
    assert.ok(texture, "textured");
    assert.ok(!texture.getName().includes("undecodable"));
  },
});

if (withoutCorpus("freelancer/librelancer_monkey.3db")) {
  console.log("messy_freelancer_test: /work/shared/corpus absent; the monkey.3db check is skipped");
}
