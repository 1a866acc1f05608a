/**
 * One name for a picture written twice: a WebP, AVIF or KTX2 image and the PNG or JPEG its texture
 * falls back to (`export.gltf`'s PNG fallback, or one the file had). They are two glTF images of one
 * picture, and each client reads one of them — Blender 3.4 the fallback (the core `source`), three.js
 * and engines the extension's image — so the two are one name, not a clash: made unique apart, the
 * fallback became `paint_1` (or `paint_2` where the file had a `paint_1`), and Blender showed another
 * name than three.js for the same picture.
 *
 * @module
 */
import type { Document, Texture } from "@gltf-transform/core";
import type { ImageFallback } from "./webp_fallback.ts";
import { isBlankName } from "./derived_names.ts";

/** The image extensions a texture may hold a fallback for. */
const IMAGE_EXTENSIONS = ["EXT_texture_webp", "EXT_texture_avif", "KHR_texture_basisu"];

/**
 * For each texture (by index in `root.listTextures()`) that is the fallback of another texture's
 * extension image under the same name (or none), the index of that texture — the first in file order
 * when several fall back to it. A fallback under a name of its own is not paired: the user named it.
 *
 * @example
 * ```ts ignore
 * fallbackPartners(doc); // Map { 2 => 0 } when texture 2 is texture 0's PNG fallback, both `paint`
 * ```
 */
export function fallbackPartners(doc: Document): Map<number, number> {
  const textures = doc.getRoot().listTextures();
  const index = new Map<Texture, number>(textures.map((texture, i) => [texture, i]));
  const partners = new Map<number, number>();
  textures.forEach((texture, i) => {
    for (const name of IMAGE_EXTENSIONS) {
      const fallback = texture.getExtension<ImageFallback>(name)?.getFallback?.();
      const at = fallback ? index.get(fallback) : undefined;
      if (at === undefined || at === i || partners.has(at) || partners.has(i)) continue;
      // A fallback that holds an extension image of its own is a picture of its own.
      if (IMAGE_EXTENSIONS.some((other) => fallback!.getExtension(other))) continue;
      const own = fallback!.getName();
      if (own === texture.getName() || isBlankName(own)) partners.set(at, i);
    }
  });
  return partners;
}

/**
 * The unique names of a list of images, `unique` settling clashes among all but the fallbacks of
 * `partners` ({@link fallbackPartners}), which then take their partner's name.
 *
 * @example
 * ```ts ignore
 * sharingFallbackNames(["paint", "paint"], new Map([[1, 0]]), (names) => names); // ["paint", "paint"]
 * ```
 */
export function sharingFallbackNames(
  names: readonly string[],
  partners: ReadonlyMap<number, number>,
  unique: (names: readonly string[], kept: readonly number[]) => string[],
): string[] {
  const kept = names.map((_, i) => i).filter((i) => !partners.has(i));
  const settled = unique(kept.map((i) => names[i]), kept);
  const out: string[] = [];
  kept.forEach((i, k) => out[i] = settled[k]);
  for (const [fallback, partner] of partners) out[fallback] = out[partner];
  return out;
}
