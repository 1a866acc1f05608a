/**
 * A texture with a WebP image in `EXT_texture_webp` (or AVIF in `EXT_texture_avif`) and a PNG fallback as its core `source` (the
 * extension optional: what glTF's spec asks of a file for clients without WebP) keeps both through
 * `decode.gltf` → `export.gltf` → `decode.gltf`, so Blender 3.4, which cannot read WebP, still gets the
 * PNG. Before, glTF-Transform's reader took the WebP only: the PNG was an unused image, left out with a
 * warning, and the file came out WebP-only (Blender: an empty image node).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { EXTTextureAVIF, EXTTextureWebP } from "@gltf-transform/extensions";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import type { ImageFallback } from "../../../runtime/scene/webp_fallback.ts";
import { runNode, testContext } from "../../support/context.ts";
import { fallbackGlb, glbParts, imageBytes, pixels } from "../../support/image_fallback.ts";
import { texturedQuadGlb } from "../../support/textured.ts";
import { losslessWebp } from "../../support/webp.ts";
import { losslessAvif } from "../../support/avif.ts";
import { throughBlender } from "../../clients/blender.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function decoded(bytes: Uint8Array) {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "quad.glb" } }, {}, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

async function exported(scene: Document) {
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene }, {}, ctx);
  return { glb: bytes.bytes as Uint8Array, warnings: ctx.warnings.map((w) => w.message) };
}

async function fixture() {
  await loadPngEncoder();
  const png = encodeRgbaPng(8, 8, pixels());
  const webp = await losslessWebp(8, 8, pixels());
  return { png, webp, glb: await fallbackGlb(png, webp) };
}

/** The base colour texture of the scene's one material, and its fallback image. */
function baseColour(scene: Document, extension = "EXT_texture_webp") {
  const texture = scene.getRoot().listMaterials()[0].getBaseColorTexture()!;
  return { texture, fallback: texture.getExtension<ImageFallback>(extension)?.getFallback() ?? null };
}

/** The written texture's WebP and fallback images. */
function writtenTexture(glb: Uint8Array) {
  const parts = glbParts(glb);
  const textureDef = parts.json.textures[parts.json.materials[0].pbrMetallicRoughness.baseColorTexture.index];
  const webp = textureDef.extensions?.EXT_texture_webp?.source;
  return {
    json: parts.json,
    webp: webp === undefined ? undefined : imageBytes(parts, webp),
    fallback: textureDef.source === undefined ? undefined : imageBytes(parts, textureDef.source),
    fallbackType: textureDef.source === undefined ? undefined : parts.json.images[textureDef.source].mimeType,
  };
}

Deno.test("a WebP texture's PNG fallback is kept by decode.gltf, linked to the WebP image; nothing is left out", async () => {
  const { png, webp, glb } = await fixture();
  const { scene, warnings } = await decoded(glb);
  const { texture, fallback } = baseColour(scene);
  assertEquals(texture.getMimeType(), "image/webp");
  assertEquals(texture.getImage(), webp);
  assert(fallback, "the fallback is linked");
  assertEquals(fallback.getMimeType(), "image/png");
  assertEquals(fallback.getImage(), png);
  assertEquals(warnings.filter((w) => /nothing draws/.test(w)), [], warnings.join("\n"));
});

Deno.test("decode → export.gltf → decode writes both images: the WebP in the extension (optional), the PNG as source", async () => {
  const { png, webp, glb } = await fixture();
  const first = await exported((await decoded(glb)).scene);
  const written = writtenTexture(first.glb);
  assertEquals(written.webp, webp);
  assertEquals(written.fallback, png);
  assertEquals(written.fallbackType, "image/png");
  assert(
    !(written.json.extensionsRequired ?? []).includes("EXT_texture_webp"),
    "the extension stays optional",
  );
  assertEquals(first.warnings.filter((w) => /WebP/.test(w)), [], first.warnings.join("\n"));
  // And again: the same two images.
  const again = writtenTexture((await exported((await decoded(first.glb)).scene)).glb);
  assertEquals([again.webp, again.fallback], [webp, png]);
});

Deno.test("a WebP-only texture is written with a PNG fallback of its pixels (export.gltf v25), WebP-only and required with png_fallback off", async () => {
  await loadPngEncoder();
  const webp = await losslessWebp(8, 8, pixels());
  const { scene } = await decoded(await texturedQuadGlb(webp, "image/webp", EXTTextureWebP));
  assertEquals(baseColour(scene).fallback, null);
  const written = writtenTexture((await exported(scene)).glb);
  assertEquals([written.webp, written.fallback, written.fallbackType], [
    webp,
    encodeRgbaPng(8, 8, pixels()),
    "image/png",
  ]);
  assertEquals(written.json.extensionsRequired, undefined);
  const alone = writtenTexture((await runNode(exportGltf, { scene }, { png_fallback: false })).bytes.bytes);
  assertEquals([alone.webp, alone.fallback], [webp, undefined]);
  assert(alone.json.extensionsRequired.includes("EXT_texture_webp"));
});

Deno.test("through Blender 3.4, the exported quad keeps its PNG texture (Blender cannot read the WebP)", async () => {
  const { glb } = await fixture();
  const trip = await throughBlender([{
    glb: (await exported((await decoded(glb)).scene)).glb,
    extras: false,
  }]);
  if ("skip" in trip) return console.warn(`skipped: ${trip.skip}`);
  const out = trip.outputs[0];
  if ("error" in out) throw new Error(out.error);
  const json = glbParts(out.glb).json;
  const info = json.materials?.[0]?.pbrMetallicRoughness?.baseColorTexture;
  assert(info, `Blender wrote a base colour texture: ${JSON.stringify(json.materials)}`);
  const image = json.images[json.textures[info.index].source];
  assertEquals(image.mimeType, "image/png");
  // The pixels are the PNG's (Blender re-encodes it).
  const { scene } = await decoded(out.glb);
  const back = scene.getRoot().listMaterials()[0].getBaseColorTexture()!;
  assertEquals(back.getSize(), [8, 8]);
});

Deno.test("the link survives the scene cache's GLB (writeGlb → readGltf) and a copy (copyScene), as nodes after decode pass it on", async () => {
  const { png, glb } = await fixture();
  const { scene } = await decoded(glb);
  const cached = await readGltf(await writeGlb(scene, { generator: "test" }));
  assertEquals(baseColour(cached).fallback?.getImage(), png);
  const copy = copyScene(scene);
  assertEquals(baseColour(copy).fallback?.getImage(), png);
  assertEquals(writtenTexture((await exported(copy)).glb).fallback, png);
});

Deno.test("an AVIF texture's PNG fallback (EXT_texture_avif beside source) is kept and written too", async () => {
  await loadPngEncoder();
  const png = encodeRgbaPng(8, 8, pixels());
  const avif = await losslessAvif(8, 8, pixels());
  const { scene, warnings } = await decoded(await fallbackGlb(png, avif, "image/avif", EXTTextureAVIF));
  assertEquals(baseColour(scene, "EXT_texture_avif").fallback?.getImage(), png);
  assertEquals(warnings.filter((w) => /nothing draws/.test(w)), []);
  const { json, bin } = glbParts((await exported(scene)).glb);
  const textureDef = json.textures[0];
  assertEquals(imageBytes({ json, bin }, textureDef.extensions.EXT_texture_avif.source), avif);
  assertEquals(imageBytes({ json, bin }, textureDef.source), png);
});
