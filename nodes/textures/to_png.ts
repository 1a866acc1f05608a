/**
 * `textures.to_png` — re-encodes a scene's KTX2 (`KHR_texture_basisu`, Basis Universal ETC1S or
 * UASTC), WebP (`EXT_texture_webp`) and AVIF (`EXT_texture_avif`) textures as PNG, for clients that
 * cannot read them: Blender 3.4's glTF importer refuses a file that requires any of these extensions,
 * and so do many DCC tools and older engines. KTX2 is transcoded to RGBA by Binomial's transcoder
 * (the one three.js runs), WebP decoded by libwebp, AVIF by libavif (with dav1d), and the pixels
 * stored losslessly, so a PNG shows exactly what a viewer of the original decodes; each extension is
 * dropped once no image of its type is left.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** `textures.to_png` node definition. */
export const texturesToPng = defineNode({
  type: "textures.to_png",
  // v3: a KTX2 whose level index points past the file is a DecodeError (the transcoder added offset and
  // length in 32 bits: a level at byte 2^32 − 1 passed, and it transcoded whatever lay in its memory).
  // v4: a texture the file gave a PNG or JPEG fallback for takes the fallback's own bytes (it was
  // re-encoded from the extension's image).
  version: 4,
  doc: "Re-encodes KTX2 (KHR_texture_basisu, Basis Universal; its first mip level), WebP " +
    "(EXT_texture_webp) and AVIF (EXT_texture_avif) textures as PNG of the same pixels, for clients that cannot read them " +
    "(Blender 3.4's importer); a texture the file gave a PNG or JPEG fallback for takes that image as it is; other textures are left alone, and each extension is dropped once no " +
    "image of its type is left.",
  inputs: { scene: { type: "scene", doc: "A scene, e.g. a decoded web-optimised GLB." } },
  outputs: { scene: { type: "scene", doc: "The scene with PNG where it had KTX2, WebP or AVIF textures." } },
  params: {
    ktx2: {
      type: "boolean",
      default: true,
      doc: "Re-encode KTX2 textures (false leaves them, so a graph input can leave the choice to its user).",
    },
    webp: {
      type: "boolean",
      default: true,
      doc: "Re-encode WebP textures (false leaves them).",
    },
    avif: {
      type: "boolean",
      default: true,
      doc: "Re-encode AVIF textures (false leaves them).",
    },
  },
  run: lazyRun(new URL("./to_png_run.ts", import.meta.url)),
});
