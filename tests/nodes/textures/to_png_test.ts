/**
 * `textures.to_png`: KTX2 (Basis Universal) textures become PNGs of exactly the pixels Binomial's
 * transcoder decodes, the extension goes, and bad KTX2 data is a typed error naming the texture.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { decode as decodePng } from "fast-png";
import { texturesToPng } from "../../../nodes/textures/to_png.ts";
import { MAX_KTX2_SIDE } from "../../../nodes/textures/basis.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runGraph } from "../../../mod.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode } from "../../support/context.ts";
import { basisuQuadGlb, type Rgb, uastcKtx2, withKtx2Textures } from "../../support/ktx2.ts";
import { corpusFile } from "../../support/corpus.ts";
import { tempDir } from "../../support/temp.ts";
import { validateGltf } from "../../support/validator.ts";

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
    ["a side beyond the limit", (b) => view(b).setUint32(20, MAX_KTX2_SIDE + 4, true), /8192 px a side/],
    ["a cube map", (b) => view(b).setUint32(36, 6, true), /6 faces/],
    ["a colour model that is no Basis one", (b) => b[104 + 12] = 1, /Basis Universal|transcodes/],
    [
      "a level past the file's end",
      (b) => view(b).setBigUint64(88, 1n << 40n, true),
      /Basis Universal|transcodes/,
    ],
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

Deno.test({
  name: "the corpus airplane with KTX2 textures, rigged with png_textures: PNGs of its sizes, the same rig",
  ignore: !corpusFile(AIRPLANE),
  async fn() {
    const dir = await tempDir();
    const ktx2 = join(dir, "plane_ktx2.glb");
    await Deno.writeFile(ktx2, await withKtx2Textures(await Deno.readFile(corpusFile(AIRPLANE)!)));
    const graph = new URL("../../../graphs/aircraft_file.json", import.meta.url).pathname;
    const run = (model: string, png: boolean) =>
      runGraph(graph, { inputs: { model, forward: "+Z", png_textures: png }, outDir: dir, cacheDir: false });
    const plain = await run(corpusFile(AIRPLANE)!, false);
    const converted = await run(ktx2, true);
    assert.deepEqual(converted.outputs.report, plain.outputs.report);
    const glb = (converted.outputs.glb as { bytes: Uint8Array }).bytes;
    const doc = await readGltf(glb);
    const sizes = (d: Document) =>
      d.getRoot().listTextures().map((t) => [t.getMimeType(), ...(t.getSize() ?? [])]);
    assert.deepEqual(sizes(doc), sizes(await readGltf(await Deno.readFile(corpusFile(AIRPLANE)!))));
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    // Without it the KTX2 stays, required: what Blender's importer refuses.
    const kept = await readGltf((((await run(ktx2, false)).outputs.glb) as { bytes: Uint8Array }).bytes);
    assert.deepEqual(kept.getRoot().listExtensionsRequired().map((e) => e.extensionName), [
      "KHR_texture_basisu",
    ]);
  },
});
