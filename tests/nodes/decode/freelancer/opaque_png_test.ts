/**
 * Textures whose every alpha is 255 (an opaque 32-bit DDS, a DXT1 without punch-through) become RGB
 * PNGs (colour type 2) with the same colours; any texel with alpha below 255 keeps the RGBA PNG and
 * its alpha, and a DXT1 cut-out stays RGBA and alpha-tested. Colours are checked by decoding the
 * PNGs with fast-png, an independent decoder.
 */
import assert from "node:assert/strict";
import { decode } from "fast-png";
import type { Document } from "@gltf-transform/core";
import { createHash } from "node:crypto";
import { dxt1Dds } from "./fixtures.ts";
import { encodeUtf, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import {
  assertValid,
  decodeTree,
  materialNamed,
  texelDds,
  texelTexture,
  triangleModel,
} from "./triangle_models.ts";
import { rememberDerived, withDerivedStore } from "../../../../runtime/derived.ts";
import { forgetPngEncodings } from "../../../../runtime/scene/png.ts";
import { resolveTexture } from "../../../../nodes/decode/freelancer/codec/texture.ts";
import { readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";

/** A 4×4 DXT1 whose first block row uses the transparent index 3 in colour-0 ≤ colour-1 mode. */
function dxt1Cutout(): Uint8Array {
  const dds = dxt1Dds(0, 4, 4);
  const view = new DataView(dds.buffer);
  view.setUint16(128, 0x001f, true); // colour 0 (blue) ≤ colour 1 (red): three-colour mode
  view.setUint16(130, 0xf800, true);
  view.setUint32(132, 0xff, true); // first row: index 3, transparent
  return dds;
}

const PNG_COLOUR_TYPE_AT = 25;

function imageOf(scene: Document, material: string) {
  const png = materialNamed(scene, material).getBaseColorTexture()!.getImage()!;
  return { type: png[PNG_COLOUR_TYPE_AT], pixels: decode(png) };
}

Deno.test("opaque textures are RGB PNGs with the same colours; any alpha below 255 keeps RGBA", async () => {
  const opaque = [[[10, 20, 30, 255], [40, 50, 60, 255]], [[70, 80, 90, 255], [200, 210, 220, 255]]];
  const translucent = [[[10, 20, 30, 255], [40, 50, 60, 254]], [[70, 80, 90, 255], [200, 210, 220, 0]]];
  const model = triangleModel(
    [
      { name: "opaque", dtName: "opaque.dds" },
      { name: "translucent", type: "DcDtOcOt", dtName: "translucent.dds" },
      { name: "dxt1", dtName: "dxt1.dds" },
      { name: "cutout", dtName: "cutout.dds" },
    ],
    {
      textures: [
        texelTexture("opaque.dds", opaque),
        texelTexture("translucent.dds", translucent),
        utfDir("dxt1.dds", [utfLeaf("MIPS", dxt1Dds(0x07e0))]), // pure green, four-colour blocks
        utfDir("cutout.dds", [utfLeaf("MIPS", dxt1Cutout())]),
      ],
    },
  );
  const { scene } = await decodeTree(model, "alpha.3db");

  const rgb = imageOf(scene, "opaque");
  assert.equal(rgb.type, 2);
  assert.equal(rgb.pixels.channels, 3);
  assert.deepEqual([...rgb.pixels.data], opaque.flat().flatMap(([r, g, b]) => [r, g, b]));

  const rgba = imageOf(scene, "translucent");
  assert.equal(rgba.type, 6);
  assert.deepEqual([...rgba.pixels.data], translucent.flat().flat());

  const green = imageOf(scene, "dxt1");
  assert.equal(green.type, 2);
  assert.deepEqual([...green.pixels.data.slice(0, 3)], [0, 255, 0]);

  const cutout = imageOf(scene, "cutout");
  assert.equal(cutout.type, 6);
  assert.deepEqual([...cutout.pixels.data.slice(0, 16)].filter((_, i) => i % 4 === 3), [0, 0, 0, 0]);
  assert.equal(materialNamed(scene, "cutout").getAlphaMode(), "MASK");
  assert.equal(materialNamed(scene, "opaque").getAlphaMode(), "OPAQUE");
  assert.equal(materialNamed(scene, "translucent").getAlphaMode(), "BLEND");

  // The same file decodes to the same image bytes.
  const again = await decodeTree(model, "alpha.3db");
  for (const name of ["opaque", "translucent", "dxt1", "cutout"]) {
    assert.deepEqual(
      materialNamed(again.scene, name).getBaseColorTexture()!.getImage(),
      materialNamed(scene, name).getBaseColorTexture()!.getImage(),
    );
  }
  await assertValid(scene);
});

Deno.test("an RGBA PNG a v14 decoder kept in the disk cache is not served for an opaque texture", async () => {
  const dds = texelDds([[[1, 2, 3, 255]]]);
  const digest = createHash("sha256").update(dds).digest("base64");
  const entries = new Map<string, Uint8Array>();
  const store = {
    recall: (key: string) => entries.get(key),
    remember: (key: string, bytes: Uint8Array) => entries.set(key, bytes),
  };
  const dir = readUtf(encodeUtf(utfDir("\\", [utfDir("t.dds", [utfLeaf("MIPS", dds)])]))).children![0];
  const png = await withDerivedStore(store, () => {
    forgetPngEncodings();
    rememberDerived("PNG of a stored dds v2 image, v1", digest, new Uint8Array([1, 2, 3]));
    return resolveTexture(dir, "Texture library/t.dds", () => undefined);
  });
  assert.equal(png.kind, "png");
  const bytes = (png as { png: Uint8Array }).png;
  assert.equal(bytes[PNG_COLOUR_TYPE_AT], 2);
  assert.deepEqual([...decode(bytes).data], [1, 2, 3]);
});
