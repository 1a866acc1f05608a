/**
 * A PNG whose header declares another size than its image data holds (a palette PNG one pixel wider,
 * as a hand-edited or truncated texture is) is named — where, expected and found — by the decoder's
 * repairs that redraw textures, instead of being drawn sheared: `fast-png` decodes it without an error.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { decode as decodePng } from "fast-png";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { pngDataBytes, pngDataSizeFault } from "../../../runtime/scene/png_data_size.ts";
import { rgbaOfPng } from "../../../runtime/scene/png_pixels.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode, testContext } from "../../support/context.ts";
import { packedBoxGlb } from "../../support/msfs_packed.ts";
import { palettePng } from "./gltf_png_fixtures.ts";

/** The IDAT's offset in {@link palettePng}: signature, IHDR (25), PLTE (12 + 12). */
const IDAT_AT = 8 + 25 + 24;

Deno.test("a palette PNG one pixel wider than its data is a DecodeError at its IDAT, expected vs found", () => {
  const wide = palettePng(8, 4, 9);
  // fast-png reads it without a word: the rows shear by a byte each, the last one short.
  const sheared = decodePng(wide);
  assertEquals([sheared.width, sheared.height], [9, 4]);
  const fault = pngDataSizeFault(wide);
  assert(fault instanceof DecodeError);
  assertEquals(fault.at, { offset: IDAT_AT });
  assertEquals(fault.found, "36 (a header of another size than its data)");
  assert(
    fault.expected.startsWith("40 bytes of image data, as its header's 9 × 4 palette image"),
    fault.expected,
  );
  throws(() => rgbaOfPng(wide, decodePng), (e) => e instanceof DecodeError);
  // One narrower: more data than the header's rows.
  assertEquals(pngDataSizeFault(palettePng(8, 4, 7))?.found, "more than 32");
  // The same PNG with its true header has no fault and decodes.
  assertEquals(pngDataSizeFault(palettePng(8, 4)), undefined);
  assertEquals(rgbaOfPng(palettePng(8, 4), decodePng).data.slice(4, 8), new Uint8Array([0, 255, 0, 255]));
});

Deno.test("Adam7 data sizes are each pass's rows: 8 × 8 grey takes 79 bytes, 1 × 1 takes 2", () => {
  // Passes of 8 × 8: 1×1, 1×1, 2×1, 2×2, 4×2, 4×4, 8×4 pixels, each row one filter byte more.
  assertEquals(pngDataBytes(8, 8, 8, true), 2 + 2 + 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9);
  assertEquals(pngDataBytes(1, 1, 8, true), 2);
  assertEquals(pngDataBytes(8, 8, 8, false), 8 * 9);
  assertEquals(pngDataBytes(3, 2, 1, false), 2 * 2, "1-bit rows pack into bytes");
});

Deno.test("a DirectX normal map whose palette PNG is one pixel wider is left as it is, with a warning saying so", async () => {
  const glb = packedBoxGlb({
    edit: (json) => {
      json.asset.extensions = { ASOBO_normal_map_convention: { tangent_space_convention: "DirectX" } };
      json.images.push({ uri: `data:image/png;base64,${palettePng(8, 4, 9).toBase64()}` });
      json.textures.push({ source: json.images.length - 1 });
      json.materials[0].normalTexture = { index: json.textures.length - 1 };
    },
  });
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb, name: "bumps.glb" } }, {}, ctx);
  const warning = ctx.warnings.map((w) => w.message).find((w) => w.includes("its PNG is damaged"));
  assert(warning, ctx.warnings.map((w) => w.message).join("\n"));
  assert(
    warning.includes(`png at byte ${IDAT_AT}: expected 40 bytes of image data`) &&
      warning.includes("found 36"),
    warning,
  );
  const map = (scene as Document).getRoot().listMaterials()[0].getNormalTexture()!;
  assertEquals(map.getImage(), palettePng(8, 4, 9), "left as it was, not redrawn from sheared pixels");
});
