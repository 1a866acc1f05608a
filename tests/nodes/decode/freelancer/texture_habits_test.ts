/**
 * Texture libraries as modders' image tools write them, measured before any change: a Targa `MIP0` from
 * GIMP or Photoshop (run-length encoded, runs across row ends; 24-bit; an image ID and a TGA 2.0 footer;
 * top-left origin), `MIP0`–`MIPn` of odd sizes or written in another order, and a DDS `MIPS` in the
 * uncompressed formats NVIDIA's Photoshop plugin offers. All decode to the texels written (9 Targa habits
 * × 6 seeds and 8 DDS formats, right before and after this wave): these tests guard that.
 */
import assert from "node:assert/strict";
import { utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader, tgaHeader } from "../../../support/freelancer/images.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { decodeTree, triangleModel } from "./triangle_models.ts";
import { decodePng } from "./png_pixels.ts";
import { prng } from "../../../support/prng.ts";

await loadPngEncoder();

type Px = readonly number[];
type Rows = readonly (readonly Px[])[];

/** Rows of a few colours changing at random, so run-length packets form and cross row ends. */
function picture(seed: number, w: number, h: number): Rows {
  const random = prng(seed);
  const colours = [[200, 10, 10, 255], [10, 200, 10, 128], [10, 10, 200, 255]];
  let c = 0;
  return Array.from({ length: h }, () =>
    Array.from({ length: w }, () => {
      if (random() < 0.3) c = (c + 1) % colours.length;
      return colours[c];
    }));
}

const bgra = (p: Px, depth: number) => depth === 32 ? [p[2], p[1], p[0], p[3]] : [p[2], p[1], p[0]];

/** An uncompressed Targa (type 2); `id` bytes of image ID and a TGA 2.0 footer when asked. */
function rawTga(rows: Rows, depth: number, descriptor: number, id = 0, footer = false): Uint8Array {
  const header = tgaHeader(2, rows[0].length, rows.length, depth, descriptor);
  header[0] = id;
  const tail = footer ? [...new Uint8Array(8), ...new TextEncoder().encode("TRUEVISION-XFILE."), 0] : [];
  return concat(header, new Uint8Array(id).fill(65), rows.flat().flatMap((p) => bgra(p, depth)), tail);
}

/** A run-length encoded Targa (type 10), packets per row or across rows (the format allows both). */
function rleTga(rows: Rows, depth: number, descriptor: number, perRow: boolean): Uint8Array {
  const same = (a: Px, b: Px) => a.join() === b.join();
  const out: number[] = [];
  for (const line of perRow ? rows : [rows.flat()]) {
    let i = 0;
    while (i < line.length) {
      let run = 1;
      while (i + run < line.length && run < 128 && same(line[i + run], line[i])) run++;
      if (run > 1) {
        out.push(0x80 | (run - 1), ...bgra(line[i], depth));
        i += run;
        continue;
      }
      let n = 1;
      while (
        i + n < line.length && n < 128 && (i + n + 1 >= line.length || !same(line[i + n], line[i + n + 1]))
      ) n++;
      out.push(n - 1, ...line.slice(i, i + n).flatMap((p) => bgra(p, depth)));
      i += n;
    }
  }
  return concat(tgaHeader(10, rows[0].length, rows.length, depth, descriptor), out);
}

const half = (rows: Rows): Rows =>
  rows.filter((_, y) => y % 2 === 0).map((row) => row.filter((_, x) => x % 2 === 0));

const TARGA_HABITS: Record<string, (rows: Rows) => { leaves: [string, Uint8Array][]; depth: number }> = {
  retail: (r) => ({ leaves: [["MIP0", rawTga(r, 32, 8)]], depth: 32 }),
  "24-bit": (r) => ({ leaves: [["MIP0", rawTga(r, 24, 0)]], depth: 24 }),
  "image ID and footer": (r) => ({ leaves: [["MIP0", rawTga(r, 32, 8, 26, true)]], depth: 32 }),
  "RLE by row": (r) => ({ leaves: [["MIP0", rleTga(r, 32, 8, true)]], depth: 32 }),
  "RLE across rows": (r) => ({ leaves: [["MIP0", rleTga(r, 32, 8, false)]], depth: 32 }),
  "24-bit RLE across rows": (r) => ({ leaves: [["MIP0", rleTga(r, 24, 0, false)]], depth: 24 }),
  "odd-sized chain": (r) => ({
    leaves: [["MIP0", rawTga(r, 32, 8)], ["MIP1", rawTga(half(r), 32, 8)]],
    depth: 32,
  }),
  "chain written MIP1 first": (r) => ({
    leaves: [["MIP1", rawTga(half(r), 32, 8)], ["MIP0", rawTga(r, 32, 8)]],
    depth: 32,
  }),
  "top-left origin": (r) => ({ leaves: [["MIP0", rawTga(r, 32, 0x28)]], depth: 32 }),
};

/** Decodes a one-triangle model whose material draws `dir`; the texture's RGBA texels and the warnings. */
async function texels(dir: ReturnType<typeof utfDir>) {
  const root = triangleModel([{ name: "paint", dc: [1, 1, 1], dtName: dir.name }], { textures: [dir] });
  const { scene, warnings } = await decodeTree(root, "t.3db");
  const texture = scene.getRoot().listTextures()[0];
  assert.ok(texture, warnings.join("\n"));
  const png = decodePng(texture.getImage()!);
  return { width: png.width, height: png.height, data: Array.from(png.data), warnings };
}

Deno.test("Targa MIPs as GIMP and Photoshop write them decode to the texels written, rows in file order", async () => {
  for (let seed = 1; seed <= 6; seed++) {
    const w = 3 + (seed * 7) % 11, h = 2 + (seed * 5) % 9;
    const rows = picture(seed, w, h);
    for (const [habit, make] of Object.entries(TARGA_HABITS)) {
      const { leaves, depth } = make(rows);
      const got = await texels(utfDir("tex.tga", leaves.map(([n, b]) => utfLeaf(n, b))));
      const want = rows.flat().flatMap((p) => depth === 24 ? [p[0], p[1], p[2], 255] : [...p]);
      assert.deepEqual([got.width, got.height], [w, h], `${habit} seed ${seed}`);
      assert.deepEqual(got.data, want, `${habit} seed ${seed}`);
      assert.deepEqual(got.warnings, [], `${habit} seed ${seed}`);
    }
  }
});

Deno.test("uncompressed DDS in the formats NVIDIA's Photoshop plugin writes decode to the texels written", async () => {
  const px = [
    [255, 0, 0, 255],
    [0, 255, 0, 128],
    [0, 0, 255, 0],
    [255, 255, 255, 255],
    [10, 20, 30, 40],
    [
      0,
      0,
      0,
      255,
    ],
    [128, 128, 128, 200],
    [255, 255, 0, 100],
  ];
  const dds = (bits: number, masks: number[], pfFlags: number, encode: (p: number[]) => number[]) =>
    concat(ddsHeader(4, 2, { bits, masks, pfFlags }), px.flatMap(encode));
  const argb4 = (p: number[]) => {
    const v = ((p[3] >> 4) << 12) | ((p[0] >> 4) << 8) | ((p[1] >> 4) << 4) | (p[2] >> 4);
    return [v & 255, v >> 8];
  };
  const formats: [string, Uint8Array, (p: number[]) => number[]][] = [
    [
      "A8R8G8B8",
      dds(32, [0xff0000, 0xff00, 0xff, 0xff000000], 0x41, (p) => [p[2], p[1], p[0], p[3]]),
      (p) => p,
    ],
    [
      "X8R8G8B8",
      dds(32, [0xff0000, 0xff00, 0xff, 0], 0x40, (p) => [p[2], p[1], p[0], 0]),
      (p) => [...p.slice(0, 3), 255],
    ],
    ["A8B8G8R8", dds(32, [0xff, 0xff00, 0xff0000, 0xff000000], 0x41, (p) => p), (p) => p],
    [
      "R8G8B8",
      dds(24, [0xff0000, 0xff00, 0xff, 0], 0x40, (p) => [p[2], p[1], p[0]]),
      (p) => [...p.slice(0, 3), 255],
    ],
    ["A4R4G4B4", dds(16, [0xf00, 0xf0, 0xf, 0xf000], 0x41, argb4), (p) => p.map((c) => (c >> 4) * 17)],
    ["L8", dds(8, [0xff, 0, 0, 0], 0x20000, (p) => [p[0]]), (p) => [p[0], p[0], p[0], 255]],
    ["A8L8", dds(16, [0xff, 0, 0, 0xff00], 0x20001, (p) => [p[0], p[3]]), (p) => [p[0], p[0], p[0], p[3]]],
    ["A8", dds(8, [0, 0, 0, 0xff], 0x2, (p) => [p[3]]), (p) => [0, 0, 0, p[3]]],
  ];
  for (const [format, bytes, want] of formats) {
    const got = await texels(utfDir("t.dds", [utfLeaf("MIPS", bytes)]));
    assert.deepEqual([got.width, got.height], [4, 2], format);
    const expected = px.flatMap(want);
    const worst = Math.max(...expected.map((e, i) => Math.abs(e - got.data[i])));
    assert.ok(worst <= 1, `${format}: ${got.data} not ${expected}`);
  }
});
