/**
 * glTF 1.0 RGB textures drawn as 1.0 draws them. A 1.0 texture says how WebGL uploads its image
 * (`format`, `internalFormat`); RGB (6407) uploads no alpha, so the shader reads 1 there and a
 * blended material is as transparent as its `transparency` alone. glTF 2.0 has no such field: a
 * blended material's alpha is its base colour factor's times the image's, so an image with alpha
 * (a PNG holding a cut-out, say) would be drawn with holes 1.0 never showed. Here such a material is
 * made opaque when its factor's alpha is 1 (blending by 1 everywhere is opaque), and otherwise
 * given an RGB copy of its image, so it still blends by its transparency alone. An image without
 * alpha (a JPEG, an RGB PNG) needs nothing: 2.0 draws it as 1.0 did.
 *
 * @module
 */
import type { Document, Material, Texture } from "@gltf-transform/core";
import { loadPngEncoder, pngOfEncodedImage } from "../../../../runtime/scene/png.ts";
import type { Gltf1Paths } from "./gltf1_paths.ts";
import {
  MAX_PIXELS,
  type PngDecoder,
  pngFailure,
  pngHeader,
  rgbaOfPng,
} from "../../../../runtime/scene/png_pixels.ts";

/**
 * Draws the blended `materials` (2.0 indices) whose 1.0 diffuse texture is RGB without their
 * images' alpha, as 1.0 draws them (see the module's doc). Returns one note per material changed,
 * or left because its image could not be read, at its 1.0 path.
 *
 * @example
 * ```ts
 * const upgrade = checkGltfStructure(jsonDoc, source).gltf1;
 * if (upgrade) notes.push(...await drawRgbTexturesAsGltf1(doc, upgrade.rgbDiffuse, upgrade.paths));
 * ```
 */
export async function drawRgbTexturesAsGltf1(
  doc: Document,
  materials: readonly number[],
  paths: Gltf1Paths,
): Promise<string[]> {
  const list = doc.getRoot().listMaterials();
  const targets = new Map<Material, Texture>();
  for (const m of materials) {
    const texture = list[m]?.getBaseColorTexture();
    if (texture) targets.set(list[m], texture);
  }
  const notes: string[] = [];
  // A copy, or why there is none (undefined: unreadable or too large; a string: what is damaged).
  const copies = new Map<Texture, Texture | string | undefined>();
  let decode: PngDecoder | undefined;
  for (const [material, texture] of targets) {
    const path = paths.pathOf(`/materials/${list.indexOf(material)}`);
    const rgb =
      `its blended diffuse texture is RGB in glTF 1.0 (format 6407), which draws it without the image's alpha`;
    const image = texture.getImage();
    const mime = texture.getMimeType();
    if (!image || mime === "image/jpeg") continue;
    const header = mime === "image/png" ? pngHeader(image) : undefined;
    if (header && !header.alpha) continue;
    if (material.getBaseColorFactor()[3] === 1) {
      material.setAlphaMode("OPAQUE");
      notes.push(`${path}: ${rgb}: drawn opaque, as 1.0 draws it (its transparency is 1)`);
      continue;
    }
    if (!copies.has(texture)) {
      if (header && header.width * header.height <= MAX_PIXELS) {
        if (!decode) [{ decode }] = await Promise.all([import("fast-png"), loadPngEncoder()]);
        copies.set(texture, opaqueCopy(doc, texture, image, decode!, targets));
      } else copies.set(texture, undefined);
    }
    const copy = copies.get(texture);
    if (!copy || typeof copy === "string") {
      const why = copy ?? `its image (${mime}) could not be read (or is past 8192² pixels)`;
      notes.push(`${path}: ${rgb}; ${why}: glTF 2.0 blends by the image's alpha`);
      continue;
    }
    material.setBaseColorTexture(copy);
    notes.push(
      `${path}: ${rgb}: given an RGB copy of the image, so it blends by its transparency alone, as in 1.0`,
    );
  }
  return notes;
}

/**
 * `texture` with its PNG's alpha left out (an RGB PNG): the texture itself when nothing but the
 * `targets`' base colour slots uses it, else a copy; undefined when the PNG cannot be read, or what
 * is damaged in it ({@link pngFailure}).
 */
function opaqueCopy(
  doc: Document,
  texture: Texture,
  png: Uint8Array,
  decode: PngDecoder,
  targets: ReadonlyMap<Material, Texture>,
): Texture | string | undefined {
  let opaque: Uint8Array;
  try {
    opaque = pngOfEncodedImage(png, "gltf 1.0 RGB texture v1", () => {
      const pixels = rgbaOfPng(png, decode);
      for (let o = 3; o < pixels.data.length; o += 4) pixels.data[o] = 255;
      return pixels;
    }, { opaqueAsRgb: true });
  } catch (error) {
    return pngFailure(error, "") || undefined;
  }
  const root = doc.getRoot();
  const sharedOtherwise = doc.getGraph().listParentEdges(texture).some((edge) =>
    edge.getParent() !== root &&
    !(edge.getName() === "baseColorTexture" && targets.get(edge.getParent() as Material) === texture)
  );
  const target = sharedOtherwise ? texture.clone() : texture;
  return target.setImage(opaque).setMimeType("image/png");
}
