/**
 * `textures.to_png` — re-encodes a scene's KTX2 textures (`KHR_texture_basisu`, Basis Universal
 * ETC1S or UASTC) as PNG, for clients that cannot read them: Blender's glTF importer refuses a file
 * that requires the extension, and so do most DCC tools and older engines. The image is transcoded
 * to RGBA by Binomial's transcoder (the one three.js runs) and stored losslessly, so a PNG shows
 * exactly what a KTX2 viewer decodes to; the extension is dropped once no KTX2 image is left.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** `textures.to_png` node definition. */
export const texturesToPng = defineNode({
  type: "textures.to_png",
  version: 1,
  doc: "Re-encodes KTX2 (KHR_texture_basisu, Basis Universal) textures as PNG — the first mip level, " +
    "transcoded by Binomial's transcoder — for clients that cannot read them (Blender's importer); " +
    "other textures are left alone, and the extension is dropped once no KTX2 image is left.",
  inputs: { scene: { type: "scene", doc: "A scene, e.g. a decoded web-optimised GLB." } },
  outputs: { scene: { type: "scene", doc: "The scene with PNG where it had KTX2 textures." } },
  params: {
    ktx2: {
      type: "boolean",
      default: true,
      doc: "Re-encode KTX2 textures; false passes the scene through as it is (for a graph input that " +
        "leaves the choice to its user).",
    },
  },
  run: lazyRun(new URL("./to_png_run.ts", import.meta.url)),
});
