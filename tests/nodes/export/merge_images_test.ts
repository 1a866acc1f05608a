/**
 * `export.gltf` writes each distinct image once: images of identical bytes (and MIME type, and extras)
 * become one, the glTF textures of one image and one sampler one texture, while every material keeps
 * its name and its texture. Images that differ by a byte stay apart.
 */
import assert from "node:assert/strict";
import { Document, type Document as DocumentType, NodeIO, type Texture } from "@gltf-transform/core";
import { KHRMaterialsClearcoat } from "@gltf-transform/extensions";
import { encode } from "fast-png";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { duplicateImages } from "../../../nodes/export/merge_images.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** An 8 × 8 RGBA PNG of a pattern from `seed`; `flip` changes one pixel's red by one. */
function png(seed: number, flip = false): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(8 * 8 * 4).map((_, i) => (i * 37 + seed * 101) % 251);
  if (flip) data[5 * 4] ^= 1;
  return encode({ width: 8, height: 8, data, channels: 4 }) as Uint8Array<ArrayBuffer>;
}

/** One image of {@link texturedScene}, drawn on a triangle with node, mesh and material `mat_<name>` of its own. */
interface ImageSpec {
  readonly name: string;
  readonly image: Uint8Array<ArrayBuffer>;
  readonly mimeType?: string;
  readonly extras?: Record<string, unknown>;
  /** Sample the image with REPEAT (the default) or CLAMP_TO_EDGE. */
  readonly clamp?: boolean;
}

/** A scene of one textured triangle per image, each image its own texture. */
function texturedScene(images: readonly ImageSpec[]): DocumentType {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("s");
  images.forEach((spec, i) => {
    // The URI first: glTF-Transform's setURI sets the MIME type its extension names.
    const texture = doc.createTexture(spec.name).setImage(spec.image).setURI(`${spec.name}.png`)
      .setMimeType(spec.mimeType ?? "image/png").setExtras(spec.extras ?? {});
    const material = doc.createMaterial(`mat_${spec.name}`).setBaseColorTexture(texture);
    if (spec.clamp) material.getBaseColorTextureInfo()!.setWrapS(33071).setWrapT(33071);
    const position = doc.createAccessor().setType("VEC3").setBuffer(buffer)
      .setArray(new Float32Array([0, 0, i, 1, 0, i, 0, 1, i]));
    const uv = doc.createAccessor().setType("VEC2").setBuffer(buffer).setArray(
      new Float32Array([0, 0, 1, 0, 0, 1]),
    );
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv)
      .setMaterial(material);
    scene.addChild(doc.createNode(`part_${i}`).setMesh(doc.createMesh(`mesh_${i}`).addPrimitive(primitive)));
  });
  return doc;
}

/** The JSON chunk of a GLB, or the JSON of a .gltf. */
function jsonOf(bytes: Uint8Array): Json {
  if (bytes[0] !== 0x67) return JSON.parse(new TextDecoder().decode(bytes));
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
}

/** Exports `scene` as `format`, checks the output with the Khronos validator, returns bytes and JSON. */
async function exported(
  scene: DocumentType,
  format = "glb",
  owns = false,
): Promise<{ bytes: Uint8Array; json: Json; warnings: string[] }> {
  const ctx = { ...testContext(), owns: () => owns };
  const { bytes } = await runNode(exportGltf, { scene }, { format }, ctx);
  const report = await validateGltf(bytes.bytes);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  return { bytes: bytes.bytes, json: jsonOf(bytes.bytes), warnings: ctx.warnings.map((w) => w.message) };
}

/** Material name → the image index its base colour texture samples. */
function sampledImages(json: Json): Record<string, number> {
  return Object.fromEntries(
    json.materials.map((
      m: Json,
    ) => [m.name, json.textures[m.pbrMetallicRoughness.baseColorTexture.index].source]),
  );
}

const SKIN = png(1);

for (const format of ["glb", "gltf"]) {
  Deno.test(`${format}: a glTF input with two images of identical bytes on two textures is written with one image, both materials textured`, async () => {
    const input = await new NodeIO().writeBinary(texturedScene([
      { name: "skin", image: SKIN },
      { name: "skin.001", image: SKIN.slice() }, // a packed copy, as Blender writes `.001` duplicates
      { name: "decal", image: png(2) },
    ]));
    assert.equal(jsonOf(input).images.length, 3);
    const { scene } = await runNode(
      decodeGltf,
      { bytes: { bytes: input, name: "ship.glb" } },
      {},
      testContext(),
    );
    const { bytes, json } = await exported(scene as DocumentType, format);
    assert.deepEqual(json.images.map((image: Json) => image.name), ["skin", "decal"]);
    assert.equal(json.textures.length, 2, "one texture per (image, sampler)");
    assert.deepEqual(sampledImages(json), { "mat_skin": 0, "mat_skin.001": 0, "mat_decal": 1 });
    // The copy's bytes are gone from the file: the image views hold the two distinct PNGs.
    if (format === "glb") {
      const imageBytes = json.images.reduce(
        (sum: number, image: Json) => sum + json.bufferViews[image.bufferView].byteLength,
        0,
      );
      assert.equal(imageBytes, SKIN.byteLength + png(2).byteLength);
      assert.ok(
        bytes.byteLength < input.byteLength - SKIN.byteLength + 256,
        `${bytes.byteLength} of ${input.byteLength}`,
      );
    }
    // Read back, both materials still sample the (one) skin image.
    const back = await readGltf(bytes);
    const [skin, copy] = back.getRoot().listMaterials();
    assert.equal(skin.getBaseColorTexture(), copy.getBaseColorTexture());
    assert.deepEqual(skin.getBaseColorTexture()!.getImage(), SKIN);
    assert.equal(back.getRoot().listMeshes().length, 3, "meshes are not merged");
  });
}

Deno.test("two images differing by one byte stay two images and two textures", async () => {
  const { json } = await exported(texturedScene([
    { name: "skin", image: png(1) },
    { name: "skin_worn", image: png(1, true) },
  ]));
  assert.equal(png(1).byteLength, png(1, true).byteLength, "same length: only the bytes tell them apart");
  assert.equal(json.images.length, 2);
  assert.equal(json.textures.length, 2);
  assert.deepEqual(sampledImages(json), { "mat_skin": 0, "mat_skin_worn": 1 });
});

Deno.test("the output is the file a scene sharing one image from the start gives, byte for byte, and the same each time", async () => {
  // Repeats of one name: nothing to keep of the repeat (another name: the next test).
  const repeated = texturedScene([{ name: "skin", image: SKIN }, { name: "skin", image: SKIN.slice() }]);
  const shared = texturedScene([{ name: "skin", image: SKIN }, { name: "skin", image: SKIN }]);
  const [kept, copy] = shared.getRoot().listTextures();
  shared.getRoot().listMaterials()[1].setBaseColorTexture(kept);
  copy.dispose();
  const first = await exported(repeated);
  assert.deepEqual(first.bytes, (await exported(shared)).bytes);
  assert.deepEqual(first.bytes, (await exported(repeated)).bytes);
});

Deno.test("a repeat merged under another name keeps it in its material's extras.image_names, by slot", async () => {
  const { json } = await exported(
    texturedScene([{ name: "skin", image: SKIN }, { name: "SKIN.001", image: SKIN.slice() }]),
  );
  assert.equal(json.images.length, 1);
  assert.deepEqual(json.materials.map((m: Json) => m.extras?.image_names), [
    undefined,
    { baseColorTexture: "SKIN.001" },
  ]);
});

Deno.test("one image sampled two ways is one image and two textures", async () => {
  const { json } = await exported(texturedScene([
    { name: "hull", image: SKIN },
    { name: "hull_edge", image: SKIN.slice(), clamp: true },
  ]));
  assert.equal(json.images.length, 1);
  assert.equal(json.textures.length, 2);
  assert.deepEqual(json.textures.map((t: Json) => t.source), [0, 0]);
  assert.notEqual(json.textures[0].sampler, json.textures[1].sampler);
});

Deno.test("a repeat an extension samples (clearcoat) is replaced there too", async () => {
  const doc = texturedScene([{ name: "paint", image: SKIN }, { name: "paint.001", image: SKIN.slice() }]);
  const copy = doc.getRoot().listTextures()[1];
  const clearcoat = doc.createExtension(KHRMaterialsClearcoat).createClearcoat().setClearcoatFactor(1)
    .setClearcoatTexture(copy);
  doc.getRoot().listMaterials()[0].setExtension("KHR_materials_clearcoat", clearcoat);
  const { json } = await exported(doc);
  assert.equal(json.images.length, 1);
  const info = json.materials[0].extensions.KHR_materials_clearcoat.clearcoatTexture;
  assert.equal(json.textures[info.index].source, 0);
});

Deno.test("images of the same bytes but other extras (a decoder's placeholder notes) stay apart", async () => {
  const note = (texture: string) => ({ partgraph: { freelancer: { placeholder: true, texture } } });
  const { json } = await exported(texturedScene([
    { name: "a (undecodable)", image: SKIN, extras: note("a.tga") },
    { name: "b (undecodable)", image: SKIN.slice(), extras: note("b.tga") },
    { name: "b again", image: SKIN.slice(), extras: note("b.tga") },
  ]));
  assert.deepEqual(json.images.map((image: Json) => image.name), ["a (undecodable)", "b (undecodable)"]);
  assert.deepEqual(json.images[1].extras, note("b.tga"));
});

Deno.test("a kept image without a name takes the first name among its repeats", async () => {
  const { json } = await exported(texturedScene([
    { name: "", image: SKIN },
    { name: "hull_diffuse", image: SKIN.slice() },
    { name: "hull_diffuse_2", image: SKIN.slice() },
  ]));
  assert.deepEqual(json.images.map((image: Json) => image.name), ["hull_diffuse"]);
  assert.deepEqual(json.materials.map((m: Json) => m.name), [
    "mat_",
    "mat_hull_diffuse",
    "mat_hull_diffuse_2",
  ]);
});

Deno.test("a PNG declared JPEG is repaired first, then merged with the same PNG declared right", async () => {
  const { json, warnings } = await exported(texturedScene([
    { name: "skin", image: SKIN },
    { name: "skin_jpeg", image: SKIN.slice(), mimeType: "image/jpeg" },
  ]));
  assert.ok(
    warnings.some((w) => /skin_jpeg.*declared 'image\/jpeg' but holds image\/png/.test(w)),
    warnings.join("\n"),
  );
  assert.equal(json.images.length, 1);
  assert.equal(json.images[0].mimeType, "image/png");
});

Deno.test("images of the same bytes under two MIME types the bytes do not contradict stay apart", () => {
  // KTX2 and a made-up type: neither is recognised from these bytes, so neither is repaired.
  const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const doc = new Document();
  doc.createTexture("a").setImage(bytes).setMimeType("image/ktx2");
  doc.createTexture("b").setImage(bytes.slice()).setMimeType("image/x-custom");
  doc.createTexture("c").setImage(bytes.slice()).setMimeType("image/ktx2");
  assert.deepEqual([...duplicateImages(doc)], [[2, 0]]);
});

Deno.test("the input scene is left as it was; a scene the node owns is merged in place, same bytes", async () => {
  const make = () =>
    texturedScene([{ name: "skin", image: SKIN }, { name: "skin.001", image: SKIN.slice() }]);
  const kept = make();
  const copied = await exported(kept);
  const names = (doc: DocumentType) => doc.getRoot().listTextures().map((t: Texture) => t.getName());
  assert.deepEqual(names(kept), ["skin", "skin.001"]);
  assert.equal(kept.getRoot().listMaterials()[1].getBaseColorTexture()!.getName(), "skin.001");
  const owned = make();
  const inPlace = await exported(owned, "glb", true);
  assert.deepEqual(names(owned), ["skin"], "owned: merged without a copy");
  assert.deepEqual(inPlace.bytes, copied.bytes);
});

Deno.test("a scene of distinct images is written from the scene itself (no copy), as before", async () => {
  // The writer remembers the GLB of the scene it last wrote (the disk tier's); asking to own the scene
  // would forget it, so a scene without repeats must not ask.
  let asked = false;
  const ctx = { ...testContext(), owns: () => (asked = true) };
  const doc = texturedScene([{ name: "a", image: png(1) }, { name: "b", image: png(2) }]);
  await runNode(exportGltf, { scene: doc }, {}, ctx);
  assert.equal(asked, false);
});

/**
 * `count` DDS-shaped images of one byte length (a game's textures of one format and size share a length
 * and header; their texel blocks differ), the image at `repeat` a copy of the first.
 */
function sameLengthImages(count: number, repeat?: number): Document {
  const doc = new Document();
  const first = new Uint8Array(128 + 64 * 64 / 2);
  for (let i = 0; i < count; i++) {
    const image = i === repeat ? first.slice() : new Uint8Array(first.byteLength);
    if (i !== repeat) {
      image.set([0x44, 0x44, 0x53, 0x20]);
      for (let b = 128; b < image.byteLength; b++) image[b] = (b * 31 + i * 97 + (b >> 5) * i) & 255;
      if (i === 0) first.set(image);
    }
    doc.createTexture(`tex_${i}`).setImage(image).setMimeType("image/vnd-ms.dds");
  }
  return doc;
}

Deno.test("distinct images of one length are told apart without reading them whole; a repeat is read once", () => {
  const length = 128 + 64 * 64 / 2;
  const distinct = { bytesRead: 0 };
  assert.deepEqual([...duplicateImages(sameLengthImages(12), distinct)], []);
  // Before: every image of a shared length was hashed whole (12 × 2,176 bytes).
  assert.equal(distinct.bytesRead, 0);
  const repeated = { bytesRead: 0 };
  assert.deepEqual([...duplicateImages(sameLengthImages(12, 7), repeated)], [[7, 0]]);
  // The repeat and its original, compared once.
  assert.equal(repeated.bytesRead, 2 * length);
});

Deno.test("images alike in every sampled byte but one other stay apart, in twos and in threes", () => {
  const doc = sameLengthImages(1);
  const image = doc.getRoot().listTextures()[0].getImage()!;
  const flipped = image.slice();
  flipped[129] ^= 1; // between sampled bytes (every 34th of 2,176)
  doc.createTexture("flipped").setImage(flipped).setMimeType("image/vnd-ms.dds");
  assert.deepEqual([...duplicateImages(doc)], []);
  doc.createTexture("copy").setImage(image.slice()).setMimeType("image/vnd-ms.dds");
  assert.deepEqual([...duplicateImages(doc)], [[2, 0]]);
});
