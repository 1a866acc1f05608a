/**
 * `export.gltf` writes a PNG fallback beside a WebP or KTX2 image that has none (`png_fallback.ts`): the
 * texture names the WebP/KTX2 image in its extension and a PNG of the same pixels as its core `source`,
 * the extension is used but no longer required, and the Blender warning of an image-only texture goes.
 * `png_fallback: false` writes them as before, warned of. Blender's side (the picture comes in):
 * `tests/clients/blender_odd_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decode as decodePng } from "fast-png";
import { Document } from "@gltf-transform/core";
import { EXTTextureWebP } from "@gltf-transform/extensions";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { losslessWebp } from "../../support/webp.ts";
import { prng } from "../../support/prng.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function glb(bytes: Uint8Array): { json: Json; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const length = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
  return { json, bin: bytes.subarray(20 + length + 8) };
}

/** A quad textured by a lossless WebP of `rgba` (`size`²), the extension required. */
async function webpQuad(size: number, rgba: Uint8Array): Promise<Document> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  doc.createExtension(EXTTextureWebP).setRequired(true);
  const accessor = (type: "VEC2" | "VEC3", values: number[]) =>
    doc.createAccessor().setBuffer(buffer).setType(type).setArray(new Float32Array(values));
  const texture = doc.createTexture("paint").setImage(await losslessWebp(size, size, rgba))
    .setMimeType("image/webp");
  const primitive = doc.createPrimitive().setMaterial(doc.createMaterial("hull").setBaseColorTexture(texture))
    .setAttribute("POSITION", accessor("VEC3", [0, 0, 0, 1, 0, 0, 1, 1, 0]))
    .setAttribute("TEXCOORD_0", accessor("VEC2", [0, 0, 1, 0, 1, 1]));
  const scene = doc.createScene("Scene");
  scene.addChild(doc.createNode("panel").setMesh(doc.createMesh("panel").addPrimitive(primitive)));
  return doc;
}

Deno.test("a WebP-only image is written with a PNG fallback of its very pixels, the extension optional", async () => {
  const rng = prng(5);
  const size = 8;
  const rgba = new Uint8Array(size * size * 4).map((_, i) => (i % 4 === 3 ? 255 : Math.floor(rng() * 256)));
  const ctx = testContext();
  const input = await webpQuad(size, rgba);
  const { json, bin } = glb((await runNode(exportGltf, { scene: input }, {}, ctx)).bytes.bytes);
  assertEquals(json.extensionsRequired, undefined);
  assert(json.extensionsUsed.includes("EXT_texture_webp"));
  const [texture] = json.textures;
  const webp = json.images[texture.extensions.EXT_texture_webp.source];
  const png = json.images[texture.source];
  assertEquals([webp.mimeType, png.mimeType], ["image/webp", "image/png"]);
  const view = json.bufferViews[png.bufferView];
  const decoded = decodePng(bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength));
  assertEquals([decoded.width, decoded.height, decoded.channels], [size, size, 4]);
  assertEquals(new Uint8Array(decoded.data), rgba);
  assert(
    !ctx.warnings.some((w) => w.message.includes("EXT_texture_webp")),
    `${ctx.warnings.map((w) => w.message)}`,
  );
  // The input scene is left as it was: one texture, the extension still required.
  assertEquals(input.getRoot().listTextures().length, 1);
  assert(input.getRoot().listExtensionsUsed()[0].isRequired());
});

Deno.test("png_fallback: false writes the WebP alone, and names what Blender makes of it", async () => {
  const ctx = testContext();
  const rgba = new Uint8Array(16 * 4).fill(200);
  const { json } = glb(
    (await runNode(exportGltf, { scene: await webpQuad(4, rgba) }, { png_fallback: false }, ctx)).bytes.bytes,
  );
  assertEquals(json.extensionsRequired, ["EXT_texture_webp"]);
  assertEquals(json.images.length, 1);
  assert(ctx.warnings.some((w) => w.message.startsWith("the file requires EXT_texture_webp")));
});

Deno.test("an image whose URI is a data: URI (a script's, an older decode's) gets a PNG fallback declared as PNG", async () => {
  const rgba = new Uint8Array(16 * 4).map((_, i) => (i * 37) % 256);
  const input = await webpQuad(4, rgba);
  const texture = input.getRoot().listTextures()[0];
  texture.setURI(`data:image/webp;base64,${btoa(String.fromCharCode(...texture.getImage()!))}`);
  const { json } = glb((await runNode(exportGltf, { scene: input }, {}, testContext())).bytes.bytes);
  const png = json.images[json.textures[0].source];
  assertEquals(png.mimeType, "image/png");
  // Named after the texture, not after the data: URI's text (which said image/webp).
  assertEquals(png.uri, undefined);
  assert(!String(png.name ?? "").startsWith("data:"), String(png.name));
});
