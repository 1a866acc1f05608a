/**
 * glTF 1.0 grey and alpha textures drawn as 1.0 draws them. A 1.0 texture says how WebGL 1 uploads
 * its image (`format`, `internalFormat`), and a shader samples what was uploaded: `LUMINANCE` (6409)
 * as (L, L, L, 1), `LUMINANCE_ALPHA` (6410) as (L, L, L, A) and `ALPHA` (6406) as (0, 0, 0, A), where
 * L is the image's red channel (browsers keep red alone when they upload a colour image as
 * luminance: Chromium's `WebGLImageConversion` packs `LUMINANCE` as R8, `ALPHA` as A8). glTF 2.0 has
 * no such field: it samples the image as stored. So a colour image declared `LUMINANCE` drew in grey
 * in 1.0 and would draw in colour, and an `ALPHA` one drew black and would draw its colours.
 *
 * Here each material slot (base colour, emissive) using such a texture is made to draw what 1.0
 * drew: an `ALPHA` base colour is made black by its factor (the image still gives the alpha), an
 * `ALPHA` emission (black) is left out, and a colour PNG declared `LUMINANCE`/`LUMINANCE_ALPHA` is
 * given a grey copy of its red channel (and alpha). A grey image needs nothing; a colour JPEG, which
 * partgraph does not decode, is named in a warning and drawn in colour.
 *
 * @module
 */
import type { Document, Material, Texture } from "@gltf-transform/core";
import { loadPngEncoder, pngOfEncodedImage } from "../../../../runtime/scene/png.ts";
import { type FormatSlot, GL_ALPHA, GL_LUMINANCE, GL_LUMINANCE_ALPHA } from "./gltf1_materials.ts";
import type { Gltf1Paths } from "./gltf1_paths.ts";
import {
  MAX_PIXELS,
  type PngDecoder,
  pngFailure,
  pngHeader,
  rgbaOfPng,
} from "../../../../runtime/scene/png_pixels.ts";

const NAMES: Readonly<Record<number, string>> = {
  [GL_ALPHA]: "ALPHA",
  [GL_LUMINANCE]: "LUMINANCE",
  [GL_LUMINANCE_ALPHA]: "LUMINANCE_ALPHA",
};

/**
 * Makes each of `slots` draw its texture as 1.0 samples it (see the module's doc). Returns one note
 * per slot changed, or left because its image could not be read, at the slot's 1.0 path.
 *
 * @example
 * ```ts
 * const upgrade = checkGltfStructure(jsonDoc, source).gltf1;
 * if (upgrade) notes.push(...await drawTextureFormatsAsGltf1(doc, upgrade.formatSlots, upgrade.paths));
 * ```
 */
export async function drawTextureFormatsAsGltf1(
  doc: Document,
  slots: readonly FormatSlot[],
  paths: Gltf1Paths,
): Promise<string[]> {
  const materials = doc.getRoot().listMaterials();
  const notes: string[] = [];
  // The slots each (texture, format) conversion serves, so a texture used otherwise is copied, not changed.
  const greyUses = new Map<Texture, Map<number, FormatSlot[]>>();
  for (const use of slots) {
    const material = materials[use.material];
    const texture = material && textureIn(material, use.slot);
    if (!texture) continue;
    if (use.format === GL_ALPHA) {
      const at = `${atOf(use, paths)}: ${said(use.texture, use.format)}`;
      if (use.slot === "baseColorTexture") {
        const [, , , alpha] = material.getBaseColorFactor();
        material.setBaseColorFactor([0, 0, 0, alpha]);
        notes.push(`${at}, which draws black with the image's alpha: base colour made black, as in 1.0`);
      } else {
        material.setEmissiveTexture(null).setEmissiveFactor([0, 0, 0]);
        notes.push(`${at}, which emits black: emission left out, as in 1.0`);
      }
      continue;
    }
    const byFormat = greyUses.get(texture) ?? new Map<number, FormatSlot[]>();
    greyUses.set(texture, byFormat);
    byFormat.set(use.format, [...byFormat.get(use.format) ?? [], use]);
  }
  let decode: PngDecoder | undefined;
  for (const [texture, byFormat] of greyUses) {
    for (const [format, uses] of byFormat) {
      const alphaMatters = uses.some((use) =>
        use.slot === "baseColorTexture" && materials[use.material].getAlphaMode() !== "OPAQUE"
      );
      const image = texture.getImage();
      const mime = texture.getMimeType();
      let grey: Uint8Array | "same" | string;
      if (!image) continue;
      if (mime === "image/jpeg") {
        // A JPEG holds no alpha: only a colour one draws otherwise.
        const components = jpegComponents(image);
        grey = components === 1
          ? "same"
          : `its image is a ${components === 3 ? "colour " : ""}JPEG, which partgraph does not decode`;
      } else {
        const header = mime === "image/png" ? pngHeader(image) : undefined;
        if (!header) grey = `its image (${mime || "of no type"}) is no PNG partgraph can read`;
        else if (
          header.colourType === 0 && (format === GL_LUMINANCE_ALPHA || !header.alpha || !alphaMatters)
        ) {
          grey = "same";
        } else if (header.colourType === 4 && (format === GL_LUMINANCE_ALPHA || !alphaMatters)) grey = "same";
        else if (header.width * header.height > MAX_PIXELS) grey = "its image is past 8192² pixels";
        else {
          if (!decode) [{ decode }] = await Promise.all([import("fast-png"), loadPngEncoder()]);
          grey = greyPng(image, format, alphaMatters, decode!) ?? "its image (a PNG) could not be decoded";
        }
      }
      if (grey === "same") continue;
      const what = format === GL_LUMINANCE
        ? "which draws the image's red channel as grey, without its alpha"
        : "which draws the image's red channel as grey, with its alpha";
      if (typeof grey === "string") {
        for (const use of uses) {
          notes.push(`${atOf(use, paths)}: ${said(use.texture, format)}, ${what}; ${grey}: drawn in colour`);
        }
        continue;
      }
      const copy = usedOtherwise(doc, texture, uses, materials) ? texture.clone() : texture;
      copy.setImage(grey).setMimeType("image/png");
      for (const use of uses) {
        const material = materials[use.material];
        if (use.slot === "baseColorTexture") material.setBaseColorTexture(copy);
        else material.setEmissiveTexture(copy);
        notes.push(
          `${atOf(use, paths)}: ${said(use.texture, format)}, ${what}: ` +
            "given a grey copy of the image, as 1.0 draws it",
        );
      }
    }
  }
  return notes;
}

function textureIn(material: Material, slot: FormatSlot["slot"]): Texture | null {
  return slot === "baseColorTexture" ? material.getBaseColorTexture() : material.getEmissiveTexture();
}

function said(texture: string, format: number): string {
  return `texture '${texture}' is ${NAMES[format]} in glTF 1.0 (format ${format})`;
}

/** The 1.0 path of `use`'s slot (the material value naming the texture). */
function atOf(use: FormatSlot, paths: Gltf1Paths): string {
  return paths.pathOf(
    use.slot === "baseColorTexture"
      ? `/materials/${use.material}/pbrMetallicRoughness/baseColorTexture`
      : `/materials/${use.material}/emissiveTexture`,
  );
}

/**
 * `png` as WebGL 1 uploads it in `format`: grey of its red channel, with its alpha for
 * LUMINANCE_ALPHA, opaque for LUMINANCE; "same" when that draws as the image does (every pixel grey,
 * and for LUMINANCE either opaque or its alpha unread); undefined when it cannot be decoded, or what
 * is damaged in it ({@link pngFailure}).
 */
function greyPng(
  png: Uint8Array,
  format: number,
  alphaMatters: boolean,
  decode: PngDecoder,
): Uint8Array | string | undefined {
  let pixels;
  try {
    pixels = rgbaOfPng(png, decode);
  } catch (error) {
    return pngFailure(error, "") || undefined;
  }
  const { data } = pixels;
  let same = true;
  for (let o = 0; o < data.length && same; o += 4) {
    same = data[o] === data[o + 1] && data[o] === data[o + 2] &&
      (format === GL_LUMINANCE_ALPHA || !alphaMatters || data[o + 3] === 255);
  }
  if (same) return "same";
  return pngOfEncodedImage(png, `gltf 1.0 ${NAMES[format]} texture v1`, () => {
    for (let o = 0; o < data.length; o += 4) {
      data[o + 1] = data[o + 2] = data[o];
      if (format === GL_LUMINANCE) data[o + 3] = 255;
    }
    return pixels;
  }, { opaqueAsRgb: true });
}

/** Whether anything but `uses`' slots holds `texture`. */
function usedOtherwise(
  doc: Document,
  texture: Texture,
  uses: readonly FormatSlot[],
  materials: readonly Material[],
): boolean {
  const root = doc.getRoot();
  return doc.getGraph().listParentEdges(texture).some((edge) =>
    edge.getParent() !== root &&
    !uses.some((use) => materials[use.material] === edge.getParent() && use.slot === edge.getName())
  );
}

/**
 * The number of components a JPEG's frame header gives (1 grey, 3 colour), or undefined when no
 * frame header is found among its marker segments.
 */
function jpegComponents(jpeg: Uint8Array): number | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  for (let at = 2; at + 9 < jpeg.length;) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Start of frame: C0–CF but for C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding).
    if ((marker & 0xf0) === 0xc0 && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return jpeg[at + 9];
    }
    at += 2 + ((jpeg[at + 2] << 8) | jpeg[at + 3]);
  }
  return undefined;
}
