/**
 * Textures in formats glTF does not carry, as converters leave them beside a `.gltf` (Assimp copies a
 * game's `.tga`, `.bmp` and `.dds` paths as they are): `decode.gltf` stores each as PNG, its rows top
 * first whatever origin the file declares (Blender 3.4 reads the originals and these PNGs to the same
 * pixels); one it cannot decode, and a format it does not convert (GIF), are left out with a warning,
 * the materials drawn with their factors. Before, the export refused its own output.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { decode } from "fast-png";
import { deflateSync, zstdCompressSync } from "node:zlib";
import { runGraph } from "../../../mod.ts";
import type { GraphFile } from "../../../runtime/graph.ts";
import { gltfIO, readGltf } from "../../../runtime/scene/gltf_io.ts";
import { tempDir } from "../../support/temp.ts";
import { validateGltf } from "../../support/validator.ts";
import { ddsHeader, tgaHeader } from "../../support/freelancer/images.ts";
import { bmpFile, bmpInfo40, u32 } from "../../support/bmp.ts";
import { embeddedView, messyGlb } from "../../support/messy_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";

/** The picture every file holds, top row first: red, green / blue, white (RGBA). */
const PICTURE = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255];
const RED = [0, 0, 255], GREEN = [0, 255, 0], BLUE = [255, 0, 0], WHITE = [255, 255, 255];

/** An 8-bit 2×2 bitmap's header declaring a palette of four colours. */
const paletted = bmpInfo40(2, 2, 8).with(28, 4);
const PALETTE = [...RED, 0, ...GREEN, 0, ...BLUE, 0, ...WHITE, 0];

/** `file` with its pixel data offset set to `offset`. */
function pixelsAt(offset: number, file: Uint8Array): Uint8Array {
  file.set(u32(offset), 10);
  return file;
}

const bytes = (...parts: (Uint8Array | number[])[]) => new Uint8Array(parts.flatMap((part) => [...part]));

const IMAGES: Record<string, Uint8Array> = {
  // Bottom-left origin (the Targa default): the bottom row is stored first.
  "bottom.tga": bytes(tgaHeader(2, 2, 2, 32, 0x08), [
    ...BLUE,
    255,
    ...WHITE,
    255,
    ...RED,
    255,
    ...GREEN,
    255,
  ]),
  "top.tga": bytes(tgaHeader(2, 2, 2, 24, 0x20), [...RED, ...GREEN, ...BLUE, ...WHITE]),
  // Rows padded to 4 bytes, bottom first.
  "plain.bmp": bmpFile(bmpInfo40(2, 2, 24), [...BLUE, ...WHITE, 0, 0, ...RED, ...GREEN, 0, 0]),
  // A 108-byte (V4) header with bit-field masks and a negative height: top first, alpha kept.
  "masked.bmp": bmpFile(
    [
      ...bmpInfo40(2, -2, 32, 3),
      ...u32(0xff0000),
      ...u32(0xff00),
      ...u32(0xff),
      ...u32(0xff000000),
      ...new Array(52).fill(0),
    ],
    [...RED, 128, ...GREEN, 255, ...BLUE, 255, ...WHITE, 255],
  ),
  "plain.dds": bytes(
    ddsHeader(2, 2, { bits: 32, masks: [0xff0000, 0xff00, 0xff, 0xff000000], pfFlags: 0x41 }),
    [...RED, 255, ...GREEN, 255, ...BLUE, 255, ...WHITE, 255],
  ),
  // A four-colour palette (red, green, blue, white as BGRA) and a pixel offset left 0: the rows follow the palette.
  "unset-offset.bmp": pixelsAt(0, bmpFile(paletted, [2, 3, 0, 0, 0, 1, 0, 0], PALETTE)),
  // An offset into the palette: the palette would be drawn as pixels.
  "inside.bmp": pixelsAt(60, bmpFile(paletted, [2, 3, 0, 0, 0, 1, 0, 0], PALETTE)),
  // Plain 32 bits: the fourth byte is alpha (the first pixel half transparent)…
  "bgra.bmp": bmpFile(bmpInfo40(2, -2, 32), [...RED, 128, ...GREEN, 255, ...BLUE, 255, ...WHITE, 255]),
  // …unless it is zero throughout, as most writers leave it: opaque.
  "bgrx.bmp": bmpFile(bmpInfo40(2, -2, 32), [...RED, 0, ...GREEN, 0, ...BLUE, 0, ...WHITE, 0]),
  // Run-length encoded: not read.
  "packed.bmp": bmpFile(bmpInfo40(2, 2, 8, 1), new Array(16).fill(0)),
  "anim.gif": bytes([..."GIF89a"].map((c) => c.charCodeAt(0)), new Array(20).fill(0)),
};

/** A .gltf with one textured triangle per image, each image a file beside it. */
async function gltfWithImages(dir: string): Promise<void> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: "VEC2" | "VEC3", values: number[]) =>
    doc.createAccessor().setType(type).setBuffer(buffer).setArray(new Float32Array(values));
  const scene = doc.createScene("s");
  for (const file of Object.keys(IMAGES)) {
    const png = Uint8Array.fromBase64(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    );
    const texture = doc.createTexture(file).setImage(png).setMimeType("image/png").setURI(file);
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("VEC3", [0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setAttribute("TEXCOORD_0", accessor("VEC2", [0, 0, 1, 0, 0, 1]))
      .setMaterial(doc.createMaterial(file).setBaseColorTexture(texture));
    scene.addChild(doc.createNode(file).setMesh(doc.createMesh(file).addPrimitive(primitive)));
  }
  const { json, resources } = await (await gltfIO()).writeJSON(doc, { basename: "model" });
  for (const image of json.images ?? []) delete image.mimeType;
  for (const [uri, data] of Object.entries(resources)) {
    await Deno.writeFile(join(dir, uri), IMAGES[uri] ?? data);
  }
  await Deno.writeTextFile(join(dir, "model.gltf"), JSON.stringify(json));
}

const graph: GraphFile = {
  version: 1,
  inputs: { model: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "model" } } },
    decode: { type: "decode.gltf", inputs: { bytes: "read.bytes" } },
    export: { type: "export.gltf", inputs: { scene: "decode.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

Deno.test("Targa, BMP and DDS textures beside a .gltf are stored as PNG, top row first; GIF and a packed BMP are left out", async () => {
  const dir = await tempDir();
  await gltfWithImages(dir);
  const run = await runGraph(graph, { inputs: { model: join(dir, "model.gltf") } });
  const glb = (run.outputs.glb as { bytes: Uint8Array }).bytes;
  const report = await validateGltf(glb);
  assertEquals(report.errors, 0, report.messages.join("\n"));
  const out = await readGltf(glb);
  const pixels = Object.fromEntries(
    out.getRoot().listMaterials().map((material) => {
      const texture = material.getBaseColorTexture();
      if (!texture) return [material.getName(), null];
      assertEquals(texture.getMimeType(), "image/png");
      return [material.getName(), [...decode(texture.getImage()!).data]];
    }),
  );
  const masked = [...PICTURE];
  masked[3] = 128;
  assertEquals(pixels, {
    "bottom.tga": PICTURE,
    "top.tga": PICTURE,
    "plain.bmp": PICTURE,
    "masked.bmp": masked,
    "unset-offset.bmp": PICTURE,
    "inside.bmp": null,
    "bgra.bmp": masked,
    "bgrx.bmp": PICTURE,
    "plain.dds": PICTURE,
    "packed.bmp": null,
    "anim.gif": null,
  });
  const warnings = run.warnings.map((w) => w.message);
  for (const [texture, format] of [["bottom.tga", "Targa"], ["plain.bmp", "BMP"], ["plain.dds", "DDS"]]) {
    assert(
      warnings.includes(
        `model.gltf: image '${texture}' is a ${format}, which glTF does not carry: stored as PNG`,
      ),
      warnings.join("\n"),
    );
  }
  assert(
    warnings.some((w) =>
      /image 'packed\.bmp' is a BMP that cannot be read \(uncompressed BMP pixels.*found compression 1\); materials are drawn without it/
        .test(w)
    ),
    warnings.join("\n"),
  );
  assert(
    warnings.includes(
      "model.gltf: image 'inside.bmp' is a BMP that cannot be read (a BMP pixel data offset past the " +
        "headers and palette (70..) or 0, found 60); materials are drawn without it",
    ),
    warnings.join("\n"),
  );
  assert(
    warnings.some((w) =>
      /image 'anim\.gif' cannot be read \(its bytes are a GIF, no image format glTF carries/.test(w)
    ),
    warnings.join("\n"),
  );
});

Deno.test("a texture whose image is a DDS by MSFT_texture_dds (Flight Simulator's packages) is drawn from it, stored as PNG", async () => {
  const dds = IMAGES["plain.dds"];
  const glb = await messyGlb((json) => {
    json.extensionsUsed = json.extensionsRequired = ["MSFT_texture_dds"];
    const image = json.images.push({ bufferView: embeddedView(json, dds), mimeType: "image/vnd-ms.dds" }) - 1;
    // The wing's texture has the DDS alone; a second, with its own PNG too, keeps the PNG.
    json.textures[0] = { extensions: { MSFT_texture_dds: { source: image } } };
    json.textures.push({ source: 0, extensions: { MSFT_texture_dds: { source: image } } });
    json.materials[0].emissiveTexture = { index: 1 };
  });
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb, name: "msfs.glb" } }, {}, ctx);
  const out = await readGltf((await runNode(exportGltf, { scene })).bytes.bytes);
  const [material] = out.getRoot().listMaterials();
  assertEquals([...decode(material.getBaseColorTexture()!.getImage()!).data], PICTURE);
  assertEquals(decode(material.getEmissiveTexture()!.getImage()!).width, 2);
  assertEquals([...decode(material.getEmissiveTexture()!.getImage()!).data], new Array(16).fill(200));
  assertEquals(out.getRoot().listExtensionsUsed().map((e) => e.extensionName), []);
  assertEquals(ctx.warnings.map((w) => w.message), [
    "msfs.glb: image #1 is a DDS, which glTF does not carry: stored as PNG",
  ]);
});

/** The note on the wing's own PNG, which the file's texture no longer samples once it takes the DDS. */
const UNUSED_PAINT = (file: string) =>
  `${file}: 1 texture nothing draws ('paint'; 70 bytes) is left out: no material samples it ` +
  "(an extension partgraph does not read, such as a Flight Simulator detail layer, may have)";

Deno.test("a DDS whose header's height no longer fits its data is drawn as it reads, and named as probably damaged", async () => {
  // 2×2 32-bit: 16 bytes of picture. Written with height 1, the 2×1 chain (8 + 4 bytes) leaves 4 over,
  // less than its top level: padding, not flagged. A 2×2 header over 80 bytes (60 past its 16 + 4) is.
  const header = (height: number) =>
    ddsHeader(2, height, { bits: 32, masks: [0xff0000, 0xff00, 0xff, 0xff000000], pfFlags: 0x41 });
  const warningsFor = async (dds: Uint8Array) => {
    const glb = await messyGlb((json) => {
      json.extensionsUsed = json.extensionsRequired = ["MSFT_texture_dds"];
      const image = json.images.push({ bufferView: embeddedView(json, dds), mimeType: "image/vnd-ms.dds" }) -
        1;
      json.textures[0] = { extensions: { MSFT_texture_dds: { source: image } } };
    });
    const ctx = testContext();
    await runNode(decodeGltf, { bytes: { bytes: glb, name: "msfs.glb" } }, {}, ctx);
    return ctx.warnings.map((w) => w.message);
  };
  assertEquals(await warningsFor(bytes(header(1), IMAGES["plain.dds"].subarray(128))), [
    "msfs.glb: image #1 is a DDS, which glTF does not carry: stored as PNG",
    UNUSED_PAINT("msfs.glb"),
  ]);
  const tall = bytes(header(2), new Array(16 * 5).fill(128));
  assertEquals((await warningsFor(tall)).length, 2);
  assert(
    (await warningsFor(tall))[0].includes(
      "stored as PNG; it holds 80 bytes of pixels where its header (2×2, 32 bits per pixel) describes 20 at most",
    ),
  );
});

/** A KTX 2.0 file of one 2D level in Vulkan format `vkFormat`, its data `level` stored under `scheme`. */
function blockKtx2(
  vkFormat: number,
  width: number,
  height: number,
  level: Uint8Array,
  scheme = 0,
): Uint8Array {
  const stored = scheme === 2 ? zstdCompressSync(level) : scheme === 3 ? deflateSync(level) : level;
  const header = new Uint8Array(104);
  const view = new DataView(header.buffer);
  header.set([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]);
  [vkFormat, 1, width, height, 0, 0, 1, 1, scheme].forEach((v, i) => view.setUint32(12 + 4 * i, v, true));
  view.setUint32(80, header.length, true); // level 0: byteOffset, byteLength, uncompressedByteLength
  view.setUint32(88, stored.length, true);
  view.setUint32(96, level.length, true);
  return bytes(header, stored);
}

Deno.test("Flight Simulator 2024's block-compressed KTX2 (not Basis) is drawn from, stored as PNG; a bomb is refused", async () => {
  // A BC1 block of solid red (both endpoints red, every index 0) for a 2×2 image.
  const redBlock = new Uint8Array([0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0]);
  const cases: [string, Uint8Array, number[]][] = [
    ["RGBA8", blockKtx2(37, 2, 2, new Uint8Array(PICTURE)), PICTURE],
    ["RGBA8, Zstandard", blockKtx2(43, 2, 2, new Uint8Array(PICTURE), 2), PICTURE],
    ["BC1, zlib", blockKtx2(133, 2, 2, redBlock, 3), new Array(4).fill([255, 0, 0, 255]).flat()],
  ];
  for (const [name, ktx2, pixels] of cases) {
    const glb = await messyGlb((json) => {
      json.extensionsUsed = json.extensionsRequired = ["MSFT_texture_dds"];
      const image = json.images.push({ bufferView: embeddedView(json, ktx2), mimeType: "image/ktx2" }) - 1;
      json.textures[0] = { extensions: { MSFT_texture_dds: { source: image } } };
    });
    const ctx = testContext();
    const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb, name: "fs24.glb" } }, {}, ctx);
    const out = await runNode(exportGltf, { scene });
    assertEquals((await validateGltf(out.bytes.bytes)).errors, 0, name);
    const material = (await readGltf(out.bytes.bytes)).getRoot().listMaterials()[0];
    assertEquals([...decode(material.getBaseColorTexture()!.getImage()!).data], pixels, name);
    assertEquals(ctx.warnings.map((w) => w.message), [
      "fs24.glb: image #1 is a block-compressed KTX2, which glTF does not carry: stored as PNG",
      UNUSED_PAINT("fs24.glb"),
    ]);
  }
  // Zstandard data that would decompress to 4 MB where the level needs 16 bytes: refused, not inflated.
  const bomb = blockKtx2(37, 2, 2, new Uint8Array(4 << 20), 2);
  const glb = await messyGlb((json) => {
    json.textures[0].source =
      json.images.push({ bufferView: embeddedView(json, bomb), mimeType: "image/ktx2" }) - 1;
  });
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb, name: "bomb.glb" } }, {}, ctx);
  assertEquals((scene as Document).getRoot().listMaterials()[0].getBaseColorTexture(), null);
  assert(
    /image #1 is a block-compressed KTX2 that cannot be read \(level 0 Zstandard data of 16 bytes/.test(
      ctx.warnings[0].message,
    ),
    ctx.warnings[0].message,
  );
});
