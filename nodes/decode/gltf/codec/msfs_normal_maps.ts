/**
 * Flight Simulator's normal maps, turned to glTF's convention. Every model Asobo's exporters write
 * says `asset.extensions.ASOBO_normal_map_convention: { tangent_space_convention: "DirectX" }`: its
 * normal maps store the bitangent component (green) pointing down the texture, DirectX's way, while
 * glTF's point it up (OpenGL's way). Asobo's own Blender add-on shows such a texture by inverting its
 * green channel in the material ("blender can only render openGL normal textures"); a viewer reading
 * the file as glTF lights every panel line, rivet and dent inside out along V. Here the green channel
 * of each texture used as a normal map is inverted once, so the scene is plain glTF.
 *
 * @module
 */
import type { Document, Material, Texture } from "@gltf-transform/core";
import { type Clearcoat, KHRMaterialsClearcoat } from "@gltf-transform/extensions";
import { loadPngEncoder, pngOfEncodedImage, type RgbaPixels } from "../../../../runtime/scene/png.ts";
import type { Json } from "./checker.ts";
import {
  MAX_PIXELS,
  type PngDecoder,
  pngFailure,
  pngHeader,
  rgbaOfPng,
} from "../../../../runtime/scene/png_pixels.ts";
/** The slots a texture is a normal map in, by the names glTF-Transform gives their graph edges. */
const NORMAL_SLOTS = new Set(["normalTexture", "clearcoatNormalTexture"]);

/** True when the file says its normal maps are DirectX's (green down), as MSFS models do. */
export function hasDirectXNormalMaps(file: object): boolean {
  const asset = (file as Json).asset as Json | undefined;
  const extension = (asset?.extensions as Json | undefined)?.ASOBO_normal_map_convention as Json | undefined;
  const convention = extension?.tangent_space_convention;
  return typeof convention === "string" && convention.toLowerCase() === "directx";
}

/**
 * Inverts the green channel of every texture the materials use as a normal map (their own or their
 * clear coat's). A texture also used otherwise (as a colour, say) is copied, and only the normal-map
 * slots take the copy. Returns one note for what was turned and one naming what could not be (an
 * image format partgraph does not decode, one past {@link MAX_PIXELS}).
 */
export async function turnDirectXNormalMaps(
  doc: Document,
  label: (texture: Texture) => string,
): Promise<string[]> {
  const uses = new Map<Texture, { material: Material; clearcoat?: Clearcoat }[]>();
  for (const material of doc.getRoot().listMaterials()) {
    const normal = material.getNormalTexture();
    if (normal) usesOf(uses, normal).push({ material });
    const clearcoat = material.getExtension<Clearcoat>(KHRMaterialsClearcoat.EXTENSION_NAME);
    const coatNormal = clearcoat?.getClearcoatNormalTexture();
    if (coatNormal) usesOf(uses, coatNormal).push({ material, clearcoat: clearcoat! });
  }
  if (!uses.size) return [];
  const [{ decode }] = await Promise.all([import("fast-png"), loadPngEncoder()]); // only for such files
  const turned: string[] = [], left: string[] = [], damaged: string[] = [];
  for (const [texture, slots] of uses) {
    const image = texture.getImage();
    const flipped = image && texture.getMimeType() === "image/png" ? greenInverted(image, decode) : undefined;
    if (typeof flipped === "string") damaged.push(`${label(texture)}: ${flipped}`);
    if (!flipped || typeof flipped === "string") {
      if (!flipped) left.push(label(texture));
      continue;
    }
    const sharedOtherwise = doc.getGraph().listParentEdges(texture).some((edge) =>
      edge.getParent() !== doc.getRoot() && !NORMAL_SLOTS.has(edge.getName())
    );
    const target = sharedOtherwise ? texture.clone() : texture;
    target.setImage(flipped).setMimeType("image/png");
    if (target !== texture) {
      for (const { material, clearcoat } of slots) {
        if (clearcoat) clearcoat.setClearcoatNormalTexture(target);
        else material.setNormalTexture(target);
      }
    }
    turned.push(label(texture));
  }
  const notes: string[] = [];
  if (turned.length) {
    notes.push(
      `normal map${turned.length > 1 ? "s" : ""} ${turned.join(", ")} in DirectX's convention ` +
        "(ASOBO_normal_map_convention): green inverted to glTF's",
    );
  }
  if (left.length) {
    notes.push(
      `normal map${left.length > 1 ? "s" : ""} ${left.join(", ")} in DirectX's convention ` +
        "(ASOBO_normal_map_convention) left as they are (not a PNG partgraph can turn, or past 8192² pixels): " +
        "viewers light their bumps inside out along V",
    );
  }
  for (const fault of damaged) {
    notes.push(
      `normal map ${fault}: left as it is, though in DirectX's convention (ASOBO_normal_map_convention)`,
    );
  }
  return notes;
}

function usesOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, list = []);
  return list;
}

/**
 * The PNG `png` with its green channel inverted, as 8-bit RGBA; undefined when it cannot be read, or
 * what is damaged in it ({@link pngFailure}).
 */
function greenInverted(png: Uint8Array, decode: PngDecoder): Uint8Array | string | undefined {
  // The size IHDR declares, before anything is allocated; a grey image is no normal map.
  const header = pngHeader(png);
  if (
    !header || header.width * header.height > MAX_PIXELS || header.colourType === 0 || header.colourType === 4
  ) {
    return undefined;
  }
  try {
    return pngOfEncodedImage(png, "gltf normal map green inverted v1", () => invertGreen(png, decode));
  } catch (error) {
    const failure = pngFailure(error, "");
    return failure || undefined;
  }
}

/** Decodes `png` to 8-bit RGBA with green inverted. */
function invertGreen(png: Uint8Array, decode: PngDecoder): RgbaPixels {
  const pixels = rgbaOfPng(png, decode);
  const data = pixels.data;
  for (let o = 1; o < data.length; o += 4) data[o] = 255 - data[o];
  return pixels;
}
