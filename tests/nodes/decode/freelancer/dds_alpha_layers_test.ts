/**
 * DDS textures beyond one straight-alpha 2D image: DXT2/DXT4 and DX10 files whose colour is stored
 * premultiplied by alpha come out straight (colour × 255 / alpha, rounded, at most 255; 0 where
 * alpha is 0), as PNG and glTF take it; cube maps (legacy caps, DX10 flag, a `CUBE` entry) leave
 * the material untextured with a warning; texture arrays and volumes give their first slice with a
 * warning. Images are built by code; expected pixels are worked out in the comments.
 */
import assert from "node:assert/strict";
import { decodePng } from "./png_pixels.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { ddsSurfaces, decodeDds } from "../../../../runtime/image/dds.ts";
import { utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader, dx10Header } from "../../../support/freelancer/images.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { assertValid, decodeTree, materialNamed, triangleModel } from "./triangle_models.ts";
import { dxt1Dds, withPngKept } from "./fixtures.ts";

await loadPngEncoder();

const win = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "dds");
const pixels = (data: Uint8Array, count: number) =>
  Array.from({ length: count }, (_, p) => Array.from(data.subarray(4 * p, 4 * p + 4)));

/**
 * A DXT3-layout block: first row alpha nibbles 15, 8, 4, 0 (255, 136, 68, 0), every other texel
 * 15; colour c0 = 0x8410 (R 16/31 → 132, G 32/63 → 130, B 16/31 → 132) on every texel (index 0).
 */
const DXT3_BLOCK = [0x8f, 0x04, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x10, 0x84, 0, 0, 0, 0, 0, 0];
/**
 * A DXT5-layout block: alpha endpoints 255 and 0 (eight-value mode: index 0 → 255, 1 → 0,
 * 2 → ⌊6·255/7⌋ = 218), first row indices 0, 2, 1, 0, the rest 0; colour as above.
 */
const DXT5_BLOCK = [255, 0, 0b01_010_000, 0, 0, 0, 0, 0, 0x10, 0x84, 0, 0, 0, 0, 0, 0];

const STORED = [132, 130, 132];

Deno.test("DXT2 and DXT4 are un-premultiplied; DXT3 and DXT5 with the same blocks are not", () => {
  const dxt3 = decodeDds(win(concat(ddsHeader(4, 4, { fourCC: "DXT3" }), DXT3_BLOCK)));
  assert.deepEqual(pixels(dxt3.data, 4), [[...STORED, 255], [...STORED, 136], [...STORED, 68], [
    ...STORED,
    0,
  ]]);
  const dxt2 = decodeDds(win(concat(ddsHeader(4, 4, { fourCC: "DXT2" }), DXT3_BLOCK)));
  assert.deepEqual(pixels(dxt2.data, 4), [
    [132, 130, 132, 255], // alpha 255: unchanged
    [248, 244, 248, 136], // 132·255/136 = 247.5 → 248, 130·255/136 = 243.75 → 244
    [255, 255, 255, 68], // 132·255/68 = 495: more than alpha was stored, so at most 255
    [0, 0, 0, 0], // alpha 0: no colour
  ]);
  assert.deepEqual(Array.from(dxt2.data.subarray(16, 20)), [...STORED, 255], "the second row is opaque");

  const dxt5 = decodeDds(win(concat(ddsHeader(4, 4, { fourCC: "DXT5" }), DXT5_BLOCK)));
  assert.deepEqual(pixels(dxt5.data, 3), [[...STORED, 255], [...STORED, 218], [...STORED, 0]]);
  const dxt4 = decodeDds(win(concat(ddsHeader(4, 4, { fourCC: "DXT4" }), DXT5_BLOCK)));
  // 132·255/218 = 154.4 → 154, 130·255/218 = 152.1 → 152.
  assert.deepEqual(pixels(dxt4.data, 3), [[132, 130, 132, 255], [154, 152, 154, 218], [0, 0, 0, 0]]);
});

Deno.test("a DX10 header's premultiplied alpha mode is undone; straight and unknown modes are kept", () => {
  // R8G8B8A8 (DXGI 28), 2×2: (100, 50, 0, 200), (200, 0, 0, 100), (30, 30, 30, 0), (10, 20, 30, 255).
  const texels = [100, 50, 0, 200, 200, 0, 0, 100, 30, 30, 30, 0, 10, 20, 30, 255];
  const image = (alphaMode: number) =>
    pixels(decodeDds(win(concat(dx10Header(2, 2, 28, { alphaMode }), texels))).data, 4);
  assert.deepEqual(image(2), [
    [128, 64, 0, 200], // 100·255/200 = 127.5 → 128, 50·255/200 = 63.75 → 64
    [255, 0, 0, 100], // 510, at most 255
    [0, 0, 0, 0],
    [10, 20, 30, 255],
  ]);
  for (const mode of [0, 1, 4]) assert.deepEqual(image(mode).flat(), texels, `alpha mode ${mode}`);
  // BC2 (DXGI 74) blocks are DXT3's: premultiplied mode gives DXT2's result.
  const bc2 = decodeDds(win(concat(dx10Header(4, 4, 74, { alphaMode: 2 }), DXT3_BLOCK)));
  assert.deepEqual(pixels(bc2.data, 2), [[132, 130, 132, 255], [248, 244, 248, 136]]);
});

Deno.test("a DXT2 diffuse texture reaches the glTF as straight alpha", async () => {
  const root = triangleModel([{ name: "glass", type: "DcDtOcOt", dtName: "glass.dds" }], {
    textures: [
      utfDir("glass.dds", [utfLeaf("MIPS", concat(ddsHeader(4, 4, { fourCC: "DXT2" }), DXT3_BLOCK))]),
    ],
  });
  const { scene, warnings } = await decodeTree(root, "glass.3db");
  assert.deepEqual(warnings, []);
  const png = decodePng(materialNamed(scene, "glass").getBaseColorTexture()!.getImage()!);
  assert.deepEqual(pixels(png.data as Uint8Array, 2), [[132, 130, 132, 255], [248, 244, 248, 136]]);
  await assertValid(scene);
});

/** A one-material model whose diffuse texture directory is `dir`; decoded. */
async function withTexture(dir: UtfNode) {
  const root = triangleModel([{ name: "paint", dc: [1, 1, 1], dtName: "tex.dds" }], { textures: [dir] });
  const { scene, warnings } = await decodeTree(root, "tex.3db");
  await assertValid(scene);
  return { material: materialNamed(scene, "paint"), warnings };
}

Deno.test("cube maps (legacy caps, DX10 flag, a CUBE entry) leave the material untextured with a warning", async () => {
  const faces = Array.from({ length: 6 }, () => [0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0]).flat(); // red DXT1
  const cubes: [string, UtfNode, string][] = [
    [
      "legacy",
      utfDir("tex.dds", [utfLeaf("MIPS", concat(ddsHeader(4, 4, { fourCC: "DXT1", caps2: 0xfe00 }), faces))]),
      "a DDS cube map (MIPS)",
    ],
    [
      "DX10",
      utfDir("tex.dds", [utfLeaf("MIPS", concat(dx10Header(4, 4, 71, { miscFlag: 0x4 }), faces))]),
      "a DDS cube map (MIPS)",
    ],
    [
      "CUBE",
      utfDir("tex.dds", [utfLeaf("CUBE", concat(ddsHeader(4, 4, { fourCC: "DXT1", caps2: 0xfe00 }), faces))]),
      "a cube map (CUBE)",
    ],
  ];
  for (const [kind, dir, what] of cubes) {
    const { material, warnings } = await withTexture(dir);
    assert.equal(material.getBaseColorTexture(), null, kind);
    assert.deepEqual(warnings, [
      `texture 'tex.dds' (Texture library/tex.dds in tex.3db) holds ${what}, which a glTF material cannot ` +
      "take; its material is untextured; used by material 'paint' (part 'Root' LOD 0)",
    ], kind);
  }
});

Deno.test("texture arrays and volumes give their first slice, with a warning", async () => {
  // Three 2×2 RGBA8 slices (DXGI 28): red, green, blue; the first is stored first.
  const slice = (rgb: number[]) => Array.from({ length: 4 }, () => [...rgb, 255]).flat();
  const slices = [...slice([255, 0, 0]), ...slice([0, 255, 0]), ...slice([0, 0, 255])];
  const cases: [string, Uint8Array, string][] = [
    ["array", concat(dx10Header(2, 2, 28, { arraySize: 3 }), slices), "a texture array of 3 slices"],
    [
      "DX10 volume",
      concat(dx10Header(2, 2, 28, { dimension: 4, depth: 3 }), slices),
      "a volume texture 3 layers deep",
    ],
    [
      "legacy volume",
      concat(
        ddsHeader(2, 2, {
          bits: 32,
          masks: [0xff, 0xff00, 0xff0000, 0xff000000],
          pfFlags: 0x41,
          caps2: 0x200000,
          depth: 3,
        }),
        slices,
      ),
      "a volume texture 3 layers deep",
    ],
  ];
  for (const [kind, dds, what] of cases) {
    const { material, warnings } = await withTexture(utfDir("tex.dds", [utfLeaf("MIPS", dds)]));
    const png = decodePng(material.getBaseColorTexture()!.getImage()!);
    assert.deepEqual([png.width, png.height], [2, 2], kind);
    assert.deepEqual(pixels(png.data as Uint8Array, 4).flat(), slice([255, 0, 0]), kind);
    assert.deepEqual(warnings, [
      `Texture library/tex.dds/MIPS holds ${what}; the first is used, as a glTF image is one 2D picture ` +
      "(tex.3db); used by material 'paint' (part 'Root' LOD 0)",
    ], kind);
  }
});

Deno.test("ddsSurfaces never throws: short headers and a plain image are plain 2D", () => {
  const plain = dxt1Dds(0xf800);
  assert.deepEqual(ddsSurfaces(win(plain)), { cube: false });
  for (let length = 0; length <= 156; length++) {
    const cut = concat(dx10Header(4, 4, 71, { miscFlag: 0x4 }), new Array(8).fill(0)).slice(0, length);
    const surfaces = ddsSurfaces(win(cut));
    assert.equal(surfaces.cube, length >= 148, `${length} bytes`);
  }
});

Deno.test("a PNG the earlier DDS decoder kept in the disk cache is not reused for a DXT2 texture", async () => {
  const dds = concat(ddsHeader(4, 4, { fourCC: "DXT2" }), DXT3_BLOCK);
  // What the decoder before un-premultiplying kept is not reused; what this one keeps is (the control).
  const { stale, kept } = await withPngKept(dds, "dds", "dds v2");
  assert.deepEqual(pixels(decodePng(stale).data as Uint8Array, 2), [[132, 130, 132, 255], [
    248,
    244,
    248,
    136,
  ]]);
  assert.equal(kept, true);
});
