/**
 * `textures.to_png`: KTX2 (Basis Universal) and WebP textures become PNGs of exactly the pixels their
 * decoders give, the extension goes, and bad image data is a typed error naming the texture.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { decode as decodePng } from "fast-png";
import { texturesToPng } from "../../../nodes/textures/to_png.ts";
import { MAX_TEXTURE_SIDE } from "../../../nodes/textures/limits.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runGraph } from "../../../mod.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode } from "../../support/context.ts";
import {
  basisuQuadGlb,
  encodedKtx2,
  type Ktx2Encoding,
  type Rgb,
  uastcKtx2,
  withKtx2Textures,
} from "../../support/ktx2.ts";
import { corpusFile } from "../../support/corpus.ts";
import { losslessWebp, webpQuadGlb, withWebpTextures } from "../../support/webp.ts";
import { avifQuadGlb, losslessAvif, withAvifTextures } from "../../support/avif.ts";
import { tempDir } from "../../support/temp.ts";
import { validateGltf } from "../../support/validator.ts";
import { fallbackGlb, glbParts, imageBytes, pixels } from "../../support/image_fallback.ts";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { HELD_OUT } from "../../support/heldout.ts";

/** Each 4 × 4 block its own colour, so a pixel out of place shows. */
const blockColour = (x: number, y: number): Rgb => [x * 60, y * 120, 255 - x * 40];

async function decodedQuad(ktx2: Uint8Array): Promise<Document> {
  return (await runNode(decodeGltf, { bytes: { bytes: await basisuQuadGlb(ktx2), name: "quad.glb" } })).scene;
}

Deno.test("a KTX2 texture becomes the PNG of its transcoded pixels, and KHR_texture_basisu goes", async () => {
  const input = await decodedQuad(uastcKtx2(16, 8, blockColour));
  const scene: Document = (await runNode(texturesToPng, { scene: input })).scene;
  const texture = scene.getRoot().listTextures()[0];
  assert.equal(texture.getMimeType(), "image/png");
  const png = decodePng(texture.getImage()!);
  assert.deepEqual([png.width, png.height, png.channels], [16, 8, 4]);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 16; x++) {
      const at = (y * 16 + x) * 4;
      assert.deepEqual(
        [...png.data.subarray(at, at + 4)],
        [...blockColour(x >> 2, y >> 2), 255],
        `pixel ${x},${y}`,
      );
    }
  }
  assert.deepEqual(scene.getRoot().listExtensionsUsed().map((e) => e.extensionName), []);
  // The input is a value: it keeps its KTX2.
  assert.equal(input.getRoot().listTextures()[0].getMimeType(), "image/ktx2");
  assert.equal(input.getRoot().listExtensionsUsed()[0].extensionName, "KHR_texture_basisu");
});

/** A picture like a texture's: smooth ramps, hard-edged panel lines, an alpha ramp. */
function picture(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4, line = x % 24 < 2 || y % 16 < 2;
      rgba.set([
        Math.round((x * 255) / width),
        Math.round((y * 255) / height),
        line ? 30 : 200,
        255 - Math.round((x * 128) / width),
      ], at);
    }
  }
  return rgba;
}

// What Binomial's encoder writes for gltfpack -tc (ETC1S), -tu (UASTC), and the KTX tools' Zstandard.
const ENCODINGS: [Ktx2Encoding, number][] = [
  [{ codec: "etc1s", mipmaps: false }, 16],
  [{ codec: "etc1s", mipmaps: true }, 16],
  [{ codec: "uastc", mipmaps: true, zstd: true }, 3],
];
for (const [encoding, meanBound] of ENCODINGS) {
  Deno.test(`a KTX2 of Binomial's encoder, ${JSON.stringify(encoding)}: the PNG is the full-size picture`, async () => {
    for (const [width, height] of [[96, 64], [50, 30]]) {
      const source = picture(width, height);
      const ktx2 = await encodedKtx2(width, height, source, encoding);
      // The file is what it claims: its header's level count and supercompression (1 BasisLZ, 2 Zstandard).
      const header = new DataView(ktx2.buffer, ktx2.byteOffset);
      const levels = Math.floor(Math.log2(Math.max(width, height))) + 1;
      assert.deepEqual(
        [header.getUint32(40, true), header.getUint32(44, true)],
        [encoding.mipmaps ? levels : 1, encoding.codec === "etc1s" ? 1 : encoding.zstd ? 2 : 0],
      );
      const scene: Document = (await runNode(texturesToPng, { scene: await decodedQuad(ktx2) })).scene;
      const png = decodePng(scene.getRoot().listTextures()[0].getImage()!);
      assert.deepEqual([png.width, png.height, png.channels], [width, height, 4]);
      let sum = 0;
      for (let i = 0; i < source.length; i++) sum += Math.abs(png.data[i] - source[i]);
      const mean = sum / source.length;
      // Block compression is lossy: close to the picture on average, not equal to it.
      assert.ok(mean <= meanBound, `${width}×${height}: mean error ${mean.toFixed(2)} per channel`);
      assert.ok(mean > 0 || encoding.codec === "uastc", "the pixels went through the codec");
    }
  });
}

Deno.test("WebP data libwebp cannot take is a DecodeError naming the texture, its size read first", async () => {
  const webp = await losslessWebp(8, 8, new Uint8Array(256).fill(128));
  const cases: [string, (bytes: Uint8Array) => Uint8Array, RegExp][] = [
    ["a torn RIFF header", (b) => (b[8] = 0, b), /WebP file/],
    ["a side beyond the limit", (b) => {
      // VP8L packs width-1 and height-1 in 14 bits each after its signature byte.
      new DataView(b.buffer).setUint32(21, (b[21] & 0) | (9000 - 1) | ((8 - 1) << 14), true);
      return b;
    }, /8192 px a side/],
    ["an animated extended header", (b) => {
      const vp8x = new Uint8Array(30 + b.length);
      vp8x.set([...new TextEncoder().encode("RIFF"), 0, 0, 0, 0, ...new TextEncoder().encode("WEBPVP8X")]);
      vp8x.set([10, 0, 0, 0, 0x02, 0, 0, 0, 7, 0, 0, 7, 0, 0], 16);
      return vp8x;
    }, /animated/],
    ["damaged image data", (b) => b.map((v, i) => i > 25 ? v ^ 0x5a : v), /libwebp decodes|declares/],
  ];
  for (const [label, damage, expected] of cases) {
    const bytes = damage(webp.slice());
    const scene: Document = (await runNode(decodeGltf, {
      bytes: { bytes: await webpQuadGlb(bytes), name: "quad.glb" },
    })).scene;
    const error = await runNode(texturesToPng, { scene }).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, `${label}: ${error}`);
    assert.equal(error.format, "webp", label);
    assert.deepEqual(error.at, { jsonPath: "/textures/0" }, label);
    assert.match(error.message, expected, label);
  }
});

const LOSSLESS = [
  { kind: "webp", extension: "EXT_texture_webp", encode: losslessWebp, quad: webpQuadGlb },
  { kind: "avif", extension: "EXT_texture_avif", encode: losslessAvif, quad: avifQuadGlb },
] as const;
for (const { kind, extension, encode, quad } of LOSSLESS) {
  Deno.test(`a lossless ${kind} texture becomes the PNG of its pixels, alpha included, and ${extension} goes`, async () => {
    const rgba = new Uint8Array(12 * 7 * 4).map((_, i) => (i * 53 + (i >> 2)) & 255);
    const glb = await quad(await encode(12, 7, rgba));
    const input: Document = (await runNode(decodeGltf, { bytes: { bytes: glb, name: "quad.glb" } })).scene;
    const scene: Document = (await runNode(texturesToPng, { scene: input })).scene;
    const texture = scene.getRoot().listTextures()[0];
    assert.equal(texture.getMimeType(), "image/png");
    const png = decodePng(texture.getImage()!);
    assert.deepEqual([png.width, png.height, png.channels], [12, 7, 4]);
    assert.deepEqual([...png.data], [...rgba]);
    assert.deepEqual(scene.getRoot().listExtensionsUsed().map((e) => e.extensionName), []);
    // `<kind>: false` leaves it.
    const kept: Document = (await runNode(texturesToPng, { scene: input }, { [kind]: false })).scene;
    assert.equal(kept.getRoot().listTextures()[0].getMimeType(), `image/${kind}`);
  });
}

Deno.test("AVIF data libavif cannot take is a DecodeError naming the texture, its sizes read first", async () => {
  const avif = await losslessAvif(8, 8, new Uint8Array(256).fill(128));
  const find = (b: Uint8Array, type: string) => {
    const code = [...new TextEncoder().encode(type)];
    return b.findIndex((_, i) => code.every((c, k) => b[i + k] === c));
  };
  const cases: [string, (bytes: Uint8Array) => Uint8Array, RegExp][] = [
    ["a torn file type box", (b) => b.subarray(0, 12), /box/],
    ["another brand", (b) => {
      const ftyp = new DataView(b.buffer).getUint32(0);
      for (let at = 8; at < ftyp; at += 4) {
        if (find(b.subarray(at, at + 4), "avif") === 0) b.set([0x68, 0x65, 0x69, 0x63], at);
      }
      return b;
    }, /AVIF still image/],
    ["a side beyond the limit", (b) => {
      new DataView(b.buffer).setUint32(find(b, "ispe") + 8, 9000);
      return b;
    }, /8192 px a side/],
    ["a box overrunning its parent", (b) => {
      new DataView(b.buffer).setUint32(find(b, "meta") - 4, 0x7fffffff);
      return b;
    }, /'meta' box within its parent/],
    [
      "no size property",
      (b) => b.map((v, i) => i >= find(b, "ispe") && i < find(b, "ispe") + 4 ? 0x78 : v),
      /ispe/,
    ],
    [
      "damaged image data",
      (b) => b.map((v, i) => i > find(b, "mdat") + 4 ? v ^ 0x5a : v),
      /libavif decodes|declares/,
    ],
  ];
  for (const [label, damage, expected] of cases) {
    const bytes = damage(avif.slice());
    const scene: Document = (await runNode(decodeGltf, {
      bytes: { bytes: await avifQuadGlb(bytes), name: "quad.glb" },
    })).scene;
    const error = await runNode(texturesToPng, { scene }).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, `${label}: ${error}`);
    assert.equal(error.format, "avif", label);
    assert.deepEqual(error.at, { jsonPath: "/textures/0" }, label);
    assert.match(error.message, expected, label);
  }
});

Deno.test("ktx2: false, or a scene without KTX2, passes the scene through as it is", async () => {
  const input = await decodedQuad(uastcKtx2(8, 8, blockColour));
  assert.equal((await runNode(texturesToPng, { scene: input }, { ktx2: false })).scene, input);
  const plain = new Document();
  plain.createTexture("t").setImage(new Uint8Array([1])).setMimeType("image/png");
  assert.equal((await runNode(texturesToPng, { scene: plain })).scene, plain);
});

Deno.test("KTX2 data the transcoder cannot take is a DecodeError naming the texture, before any allocation", async () => {
  const ktx2 = uastcKtx2(8, 8, blockColour);
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer);
  const cases: [string, (bytes: Uint8Array) => void, RegExp][] = [
    ["a torn identifier", (b) => b[5] = 0, /KTX 2.0 file/],
    ["a side beyond the limit", (b) => view(b).setUint32(20, MAX_TEXTURE_SIDE + 4, true), /8192 px a side/],
    ["a cube map", (b) => view(b).setUint32(36, 6, true), /6 faces/],
    ["a colour model that is no Basis one", (b) => b[104 + 12] = 1, /Basis Universal|transcodes/],
    [
      "a level past the file's end",
      (b) => view(b).setBigUint64(88, 1n << 40n, true),
      /levels within the file's \d+ bytes/,
    ],
    // Found by the structure sweep: the transcoder adds offset and length in 32 bits, so these wrapped
    // round its check; the first transcoded whatever lay in its memory, the second its data.
    [
      "a level offset of 2³² − 1",
      (b) => view(b).setUint32(80, 0xffffffff, true),
      /level 0 at byte 4294967295/,
    ],
    ["a level length of 2³² − 1", (b) => view(b).setUint32(88, 0xffffffff, true), /4294967295 bytes long/],
    ["more levels than the file holds", (b) => view(b).setUint32(40, 1000, true), /1000 levels/],
  ];
  for (const [label, damage, expected] of cases) {
    const bytes = ktx2.slice();
    damage(bytes);
    const scene = await decodedQuad(bytes);
    const error = await runNode(texturesToPng, { scene }).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, `${label}: ${error}`);
    assert.equal(error.format, "ktx2", label);
    assert.deepEqual(error.at, { jsonPath: "/textures/0" }, label);
    assert.match(error.message, expected, label);
  }
});

const AIRPLANE = "aircraft/sketchbook_airplane.glb";

/**
 * ETC1S encoding of the airplane's 1024² texture at the encoder's default effort (2) took 5 of the
 * file's 11 s; effort 0 takes under 1 s and writes the same layout (BasisLZ, full mip chain) to the
 * transcoder, so the suite uses it; `deno task heldout` keeps the default, as gltfpack writes.
 */
const KTX2_EFFORT = HELD_OUT ? undefined : 0;
const CONVERSIONS = [
  ["KTX2", (glb: Uint8Array) => withKtx2Textures(glb, KTX2_EFFORT)],
  ["WebP", withWebpTextures],
  ["AVIF", withAvifTextures],
] as const;
/** The airplane graph run on `model` in `dir`, PNG textures or not. */
function runAirplane(dir: string, model: string, png: boolean) {
  const graph = new URL("../../../graphs/aircraft_file.json", import.meta.url).pathname;
  return runGraph(graph, {
    inputs: { model, forward: "+Z", png_textures: png },
    outDir: dir,
    cacheDir: false,
  });
}

/** Each texture's MIME type, size and decoded pixels. */
const texturePixels = (d: Document) =>
  d.getRoot().listTextures().map((t) => {
    const png = decodePng(t.getImage()!);
    return { mime: t.getMimeType(), size: [png.width, png.height], data: png.data };
  });

/**
 * The original airplane's run and pixels, made once per process: the three conversions compare
 * against the same (deterministic) run, which each used to repeat.
 */
let plainAirplane: Promise<{ report: unknown; want: ReturnType<typeof texturePixels> }> | undefined;
function plainRun(original: Uint8Array) {
  plainAirplane ??= (async () => ({
    report: (await runAirplane(await tempDir(), corpusFile(AIRPLANE)!, false)).outputs.report,
    want: texturePixels(await readGltf(original)),
  }))();
  return plainAirplane;
}

for (const [kind, convert] of CONVERSIONS) {
  Deno.test({
    name: `the corpus airplane with ${kind} textures, rigged with png_textures: PNGs, the same rig`,
    ignore: !corpusFile(AIRPLANE),
    async fn() {
      const dir = await tempDir();
      const original = await Deno.readFile(corpusFile(AIRPLANE)!);
      const converted = join(dir, "plane.glb");
      await Deno.writeFile(converted, await convert(original));
      const run = (model: string, png: boolean) => runAirplane(dir, model, png);
      const plain = await plainRun(original);
      const rigged = await run(converted, true);
      assert.deepEqual(rigged.outputs.report, plain.report);
      const glb = (rigged.outputs.glb as { bytes: Uint8Array }).bytes;
      const got = texturePixels(await readGltf(glb)), want = plain.want;
      assert.deepEqual(got.map((t) => [t.mime, t.size]), want.map((t) => [t.mime, t.size]));
      // Lossless WebP and AVIF keep the pixels; ETC1S is lossy, so KTX2 comes back close to them on average.
      for (const [i, t] of got.entries()) {
        const w = want[i], channels = w.data.length / (w.size[0] * w.size[1]);
        let differing = 0, error = 0;
        for (let p = 0; p < w.size[0] * w.size[1]; p++) {
          for (let c = 0; c < 3; c++) {
            const source = w.data[p * channels + (channels < 3 ? 0 : c)];
            if (t.data[p * 4 + c] !== source) differing++;
            error += Math.abs(t.data[p * 4 + c] - source);
          }
        }
        const mean = error / (w.size[0] * w.size[1] * 3);
        if (kind !== "KTX2") assert.equal(differing, 0, `texture ${i}: ${differing} channel values differ`);
        else assert.ok(mean <= 16, `texture ${i}: mean error ${mean.toFixed(2)}`);
      }
      const report = await validateGltf(glb);
      assert.equal(report.errors, 0, report.messages.join("\n"));
      // Without it the texture stays, and export.gltf (v25) writes a PNG fallback beside it: the extension
      // is used, no longer required (Blender 3.4's importer refused the file when it was).
      const kept = await readGltf(
        (((await run(converted, false)).outputs.glb) as { bytes: Uint8Array }).bytes,
      );
      assert.equal(kept.getRoot().listExtensionsRequired().length, 0);
      assert.equal(kept.getRoot().listExtensionsUsed().length, 1);
    },
  });
}

Deno.test("a WebP texture with a PNG fallback takes the fallback's own bytes: no re-encoding, no unused image, the extension gone", async () => {
  await loadPngEncoder();
  // A fallback the tool wrote smaller than the WebP (as some do): only taking it gives its bytes.
  const png = encodeRgbaPng(4, 4, pixels().subarray(0, 64));
  const glb = await fallbackGlb(png, await losslessWebp(8, 8, pixels()));
  const decoded = (await runNode(decodeGltf, { bytes: { bytes: glb, name: "quad.glb" } })).scene;
  const { scene } = await runNode(texturesToPng, { scene: decoded }, { webp: true });
  const { bytes } = await runNode(exportGltf, { scene }, {});
  const written = glbParts(bytes.bytes);
  assert.deepEqual(written.json.images.map((i: { mimeType: string }) => i.mimeType), ["image/png"]);
  assert.deepEqual(imageBytes(written, 0), png, "the author's PNG, byte for byte");
  assert.equal(written.json.textures.length, 1);
  assert.equal(written.json.extensionsUsed?.includes("EXT_texture_webp") ?? false, false);
  const report = await validateGltf(bytes.bytes);
  assert.equal(report.errors + report.warnings, 0, report.messages.join("\n"));
});
