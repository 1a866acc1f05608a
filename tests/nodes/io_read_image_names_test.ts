/**
 * `io.read` embeds a `.gltf`'s image files as `data:` URIs; an image with no name of its own is named
 * after its file (without the extension), so the exported images are called what the user's files are
 * (before: `Skin0_baseColor`, `image_3`). Generated folders (`gltf_image_files.ts`): held-out seeds.
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { EXTTextureWebP } from "@gltf-transform/extensions";
import { runGraph } from "../../mod.ts";
import { gltfIO } from "../../runtime/scene/gltf_io.ts";
import { losslessWebp } from "../support/webp.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";
import { type ImageFile, writeImageFolder } from "./gltf_image_files.ts";

const graph: GraphFile = {
  version: 1,
  inputs: { model: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "model" } } },
    decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
    export: { type: "export.gltf", inputs: { scene: "decode.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

/** The output's image names beside the expected ones, for the folder of `seed`. */
async function imageNames(seed: number): Promise<{ images: ImageFile[]; written: string[] }> {
  const dir = await tempDir();
  const images = await writeImageFolder(dir, seed);
  const run = await runGraph(graph, {
    inputs: { model: join(dir, "model.gltf") },
    cacheDir: join(dir, "cache"),
  });
  const glb = (run.outputs.glb as { bytes: Uint8Array }).bytes;
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  return { images, written: json.images.map((image: { name?: string }) => image.name) };
}

Deno.test("a .gltf's unnamed images are written under their files' names (held-out seeds 101-120)", async () => {
  let unnamed = 0, wrong = 0;
  const lost: string[] = [];
  for (let seed = 101; seed <= 120; seed++) {
    const { images, written } = await imageNames(seed);
    equal(written.length, images.length);
    images.forEach((image, i) => {
      if (!image.named) unnamed++;
      if (written[i] === image.expected) return;
      wrong++;
      lost.push(`seed ${seed}: '${image.uri}' written '${written[i]}', expected '${image.expected}'`);
    });
  }
  console.log(`unnamed images ${unnamed}; wrongly named ${wrong}`);
  assert(unnamed > 30, "the folders hold unnamed images");
  equal(lost, []);
});

Deno.test("a .gltf's unnamed WebP image and the PNG fallback export.gltf writes beside it are named after its file", async () => {
  const dir = await tempDir();
  const doc = new Document();
  doc.createExtension(EXTTextureWebP).setRequired(true);
  const buffer = doc.createBuffer();
  const texture = doc.createTexture("").setImage(await losslessWebp(4, 4, new Uint8Array(64).fill(200)))
    .setMimeType("image/webp").setURI("wing diffuse.webp");
  const accessor = (type: "VEC2" | "VEC3", array: number[]) =>
    doc.createAccessor().setBuffer(buffer).setType(type).setArray(new Float32Array(array));
  const primitive = doc.createPrimitive().setAttribute(
    "POSITION",
    accessor("VEC3", [0, 0, 0, 1, 0, 0, 0, 0, 1]),
  )
    .setAttribute("TEXCOORD_0", accessor("VEC2", [0, 0, 1, 0, 0, 1]))
    .setMaterial(doc.createMaterial("Skin").setBaseColorTexture(texture));
  doc.createScene().addChild(doc.createNode("Wing").setMesh(doc.createMesh("Wing").addPrimitive(primitive)));
  const { json, resources } = await (await gltfIO()).writeJSON(doc, { basename: "model" });
  for (const [uri, bytes] of Object.entries(resources)) {
    await Deno.writeFile(join(dir, decodeURI(uri)), bytes);
  }
  // As converters write it: the image named by its URI alone.
  delete json.images![0].name;
  json.images![0].uri = "wing%20diffuse.webp";
  await Deno.writeTextFile(join(dir, "model.gltf"), JSON.stringify(json));
  const run = await runGraph(graph, {
    inputs: { model: join(dir, "model.gltf") },
    cacheDir: join(dir, "cache"),
  });
  const glb = (run.outputs.glb as { bytes: Uint8Array }).bytes;
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const out = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  const named = out.images.map((image: { name: string; mimeType: string; extras?: { name?: string } }) => [
    image.mimeType,
    image.extras?.name ?? image.name,
  ]);
  equal(named, [["image/webp", "wing diffuse"], ["image/png", "wing diffuse"]]);
});
