/**
 * The work of `textures.to_png` (declared in `to_png.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Texture } from "@gltf-transform/core";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import type { texturesToPng } from "./to_png.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";
import { loadPngEncoder, pngOfEncodedImageAsync } from "../../runtime/scene/png.ts";
import { ktx2ToRgba, loadBasisTranscoder } from "./basis.ts";
import { loadWebpDecoder, webpToRgba } from "./webp.ts";
import { avifToRgba, loadAvifDecoder } from "./avif.ts";
import type { ImageFallback } from "../../runtime/scene/webp_fallback.ts";

/** The image types re-encoded, with the extension each needs and the parameter that turns it on. */
const CONVERTED = [
  { mimeType: "image/ktx2", extension: "KHR_texture_basisu", param: "ktx2", suffix: /\.ktx2$/i },
  { mimeType: "image/webp", extension: "EXT_texture_webp", param: "webp", suffix: /\.webp$/i },
  { mimeType: "image/avif", extension: "EXT_texture_avif", param: "avif", suffix: /\.avif$/i },
] as const;

/** Turns each KTX2, WebP and AVIF texture into a PNG one; a scene without any passes through as it is. */
export const run: NodeRun<typeof texturesToPng> = async ({ inputs, params, ctx }) => {
  // The scene shares its vertex data with the input and each PNG is kept apart, as derived bytes
  // (`pngOfEncodedImage`): running again costs less than loading a stored copy of the scene.
  ctx.cheapToRecompute();
  const kinds = CONVERTED.filter((k) => params[k.param]);
  const converted = (t: Texture) => kinds.find((k) => k.mimeType === t.getMimeType() && t.getImage());
  const found = new Set(inputs.scene.getRoot().listTextures().map(converted).filter((k) => k));
  if (!found.size) return { scene: inputs.scene };
  // Each decoder is WebAssembly loaded on first use: only the ones this scene needs.
  const needs = (param: string) => [...found].some((k) => k!.param === param);
  const [basis, webp, avif] = await Promise.all([
    needs("ktx2") ? loadBasisTranscoder() : undefined,
    needs("webp") ? loadWebpDecoder() : undefined,
    needs("avif") ? loadAvifDecoder() : undefined,
    loadPngEncoder(),
  ]);
  const scene = sceneToChange(inputs.scene, ctx.owns("scene"));
  const textures = scene.getRoot().listTextures();
  for (const [i, texture] of textures.entries()) {
    const kind = converted(texture);
    if (!kind) continue;
    if (takeFallback(texture, kind.extension)) continue;
    const image = texture.getImage()!, at = `/textures/${i}`;
    // Decoded only when asked: an image seen before (this process, or the disk cache) is not.
    const png = await pngOfEncodedImageAsync(
      image,
      kind.param,
      async () =>
        kind.param === "webp"
          ? await webpToRgba(webp!, image, at)
          : kind.param === "avif"
          ? await avifToRgba(avif!, image, at)
          : ktx2ToRgba(basis!, image, at),
    );
    texture.setImage(png).setMimeType("image/png").setURI(texture.getURI().replace(kind.suffix, ".png"));
  }
  for (const extension of scene.getRoot().listExtensionsUsed()) {
    const kind = kinds.find((k) => k.extension === extension.extensionName);
    if (kind && !textures.some((t) => t.getMimeType() === kind.mimeType)) extension.dispose();
  }
  return { scene };
};

/**
 * Gives `texture` its fallback's image when the file had one for clients without the extension (a PNG
 * or JPEG as the texture's `source`, linked by `decode.gltf`): the author's own picture, not a
 * re-encoding, and no unused image left behind. The fallback texture goes when nothing else uses it.
 */
function takeFallback(texture: Texture, extension: string): boolean {
  const link = texture.getExtension<ImageFallback>(extension), fallback = link?.getFallback();
  const mimeType = fallback?.getMimeType();
  if (!fallback?.getImage() || (mimeType !== "image/png" && mimeType !== "image/jpeg")) return false;
  texture.setImage(fallback.getImage()!).setMimeType(mimeType).setURI(fallback.getURI());
  link!.dispose();
  const used = fallback.listParents().some((p) => p.propertyType !== "Root");
  if (!used) fallback.dispose();
  return true;
}
