/**
 * glTF 1.0 grey and alpha textures. WebGL 1 uploads a 1.0 texture in its `format`: LUMINANCE
 * (6409) samples as (R, R, R, 1), LUMINANCE_ALPHA (6410) as (R, R, R, A), ALPHA (6406) as
 * (0, 0, 0, A) — R and A the image's red and alpha. The upgraded 2.0 material must draw the same.
 * Fixtures are code-made 1.0 files (`tests/support/gltf1.ts`) of the skinned wing, its texture
 * replaced by a colour PNG made here (or a JPEG header), and the expected pixels computed from it.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decode as decodePng, encode as encodePng } from "fast-png";
import type { Document } from "@gltf-transform/core";
import type { Json } from "../../support/gltf1.ts";
import { decodedWing } from "./gltf1_wing.ts";

/** A 2×2 RGBA image of four different colours and alphas. */
const COLOUR = new Uint8Array([200, 40, 10, 128, 30, 220, 90, 255, 0, 0, 250, 64, 255, 255, 255, 0]);
const colourPng = () => encodePng({ width: 2, height: 2, data: COLOUR, channels: 4 });
const dataUri = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${bytes.toBase64()}`;

/** Every texture uploaded as `format`, its image `uri`, and every material's edit. */
function declared(format: number, uri: string, material: (values: Json, technique: Json) => void = () => {}) {
  return (json: Json) => {
    for (const texture of Object.values(json.textures) as Json[]) {
      texture.format = texture.internalFormat = format;
    }
    for (const image of Object.values(json.images) as Json[]) image.uri = uri;
    for (const m of Object.values(json.materials) as Json[]) material(m.values, json.techniques[m.technique]);
  };
}

const blend = (_: Json, technique: Json) => technique.states.enable.push(3042);

/** The wing's material and its base colour image as RGBA pixels (channels as stored). */
function wingLook(scene: Document) {
  const material = scene.getRoot().listMaterials().find((m) => m.getName() === "painted")!;
  const png = decodePng(material.getBaseColorTexture()!.getImage()!);
  const rgba: number[] = [];
  for (let i = 0; i < 4; i++) {
    const px = [...png.data.subarray(i * png.channels, (i + 1) * png.channels)];
    rgba.push(...px.slice(0, 3), px[3] ?? 255);
  }
  return { material, rgba };
}

/** What WebGL 1 samples of COLOUR uploaded as LUMINANCE (alpha 1) or LUMINANCE_ALPHA. */
function luminance(withAlpha: boolean): number[] {
  const out: number[] = [];
  for (let o = 0; o < COLOUR.length; o += 4) {
    out.push(COLOUR[o], COLOUR[o], COLOUR[o], withAlpha ? COLOUR[o + 3] : 255);
  }
  return out;
}

Deno.test("glTF 1.0 LUMINANCE texture: a colour PNG draws as its red channel in grey, opaque", async () => {
  const { scene, warnings, errors } = await decodedWing(
    declared(6409, dataUri("image/png", colourPng()), blend),
  );
  const { material, rgba } = wingLook(scene);
  assertEquals(rgba, luminance(false));
  assertEquals(material.getAlphaMode(), "BLEND");
  assert(
    warnings.some((w) =>
      /at \/materials\/material_0\/values\/diffuse: texture 'texture_0' is LUMINANCE in glTF 1\.0 \(format 6409\).*grey copy/
        .test(w)
    ),
    warnings.join("\n"),
  );
  assertEquals(errors, []);
});

Deno.test("glTF 1.0 LUMINANCE_ALPHA texture: a colour PNG draws as its red channel in grey, with its alpha", async () => {
  const { scene, warnings, errors } = await decodedWing(
    declared(6410, dataUri("image/png", colourPng()), blend),
  );
  assertEquals(wingLook(scene).rgba, luminance(true));
  assert(
    warnings.some((w) => /is LUMINANCE_ALPHA in glTF 1\.0 \(format 6410\)/.test(w)),
    warnings.join("\n"),
  );
  assertEquals(errors, []);
});

Deno.test("glTF 1.0 ALPHA texture: the base colour is black, the image's alpha kept", async () => {
  const { scene, warnings, errors } = await decodedWing(
    declared(6406, dataUri("image/png", colourPng()), (values, technique) => {
      blend(values, technique);
      values.transparency = 0.5;
    }),
  );
  const { material, rgba } = wingLook(scene);
  // Drawn colour = factor × texel: black, alpha 0.5 × the image's.
  assertEquals(material.getBaseColorFactor(), [0, 0, 0, 0.5]);
  assertEquals(rgba, [...COLOUR]);
  assert(
    warnings.some((w) => /is ALPHA in glTF 1\.0 \(format 6406\), which draws black/.test(w)),
    warnings.join("\n"),
  );
  assertEquals(errors, []);
});

Deno.test("glTF 1.0 LUMINANCE emission: the emissive texture is grey of its red channel; ALPHA emission is left out", async () => {
  const emissive = (format: number) =>
    decodedWing((json) => {
      json.textures.texture_glow = { ...json.textures.texture_0, format, internalFormat: format };
      json.images.image_0.uri = dataUri("image/png", colourPng());
      for (const m of Object.values(json.materials) as Json[]) m.values.emission = "texture_glow";
    });
  const lit = await emissive(6409);
  const material = lit.scene.getRoot().listMaterials()[0];
  const glow = decodePng(material.getEmissiveTexture()!.getImage()!);
  assertEquals([...glow.data.subarray(0, 3)], [200, 200, 200]);
  // The base colour (RGBA) shares the image and keeps its colours.
  assertEquals([...decodePng(material.getBaseColorTexture()!.getImage()!).data.subarray(0, 4)], [
    200,
    40,
    10,
    128,
  ]);
  assert(lit.warnings.some((w) => /\/values\/emission: texture 'texture_glow' is LUMINANCE/.test(w)));
  assertEquals(lit.errors, []);
  const dark = await emissive(6406);
  const darkMaterial = dark.scene.getRoot().listMaterials()[0];
  assertEquals([darkMaterial.getEmissiveTexture(), darkMaterial.getEmissiveFactor()], [null, [0, 0, 0]]);
  assert(
    dark.warnings.some((w) => /texture 'texture_glow' is ALPHA .*emits black/.test(w)),
    dark.warnings.join("\n"),
  );
  assertEquals(dark.errors, []);
});

Deno.test("glTF 1.0 LUMINANCE texture: a grey image needs nothing and is not warned about", async () => {
  const grey = encodePng({ width: 2, height: 2, data: new Uint8Array([10, 80, 160, 255]), channels: 1 });
  const { scene, warnings } = await decodedWing(declared(6409, dataUri("image/png", grey), blend));
  assertEquals(scene.getRoot().listMaterials()[0].getBaseColorTexture()!.getImage(), grey);
  assert(warnings.every((w) => !/LUMINANCE/.test(w)), warnings.join("\n"));
});

Deno.test("glTF 1.0 LUMINANCE texture: a colour JPEG, which partgraph does not decode, is named and drawn in colour", async () => {
  // SOI, then a baseline frame header of 3 components (enough for the header read; the image is never drawn).
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xc0,
    0,
    17,
    8,
    0,
    2,
    0,
    2,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  const { warnings } = await decodedWing(declared(6409, dataUri("image/jpeg", jpeg)));
  assert(
    warnings.some((w) =>
      /texture 'texture_0' is LUMINANCE .*a colour JPEG, which partgraph does not decode: drawn in colour/
        .test(w)
    ),
    warnings.join("\n"),
  );
});

Deno.test("glTF 1.0 texture format: a value 1.0 does not define is named and read as RGBA", async () => {
  const { scene, warnings } = await decodedWing((json) => json.textures.texture_0.format = 32993);
  assertEquals(wingLook(scene).rgba.slice(0, 4), [200, 200, 200, 200]);
  assert(
    warnings.some((w) =>
      /at \/textures\/texture_0\/format: 32993 is no texture format glTF 1\.0 defines/.test(w)
    ),
    warnings.join("\n"),
  );
});
