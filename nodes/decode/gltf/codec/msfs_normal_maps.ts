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

type PngDecoder = typeof import("fast-png").decode;

/** The largest normal map turned (pixels): 8K², past any the sim loads; larger ones are left as they are. */
const MAX_PIXELS = 8192 * 8192;
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
  const turned: string[] = [], left: string[] = [];
  for (const [texture, slots] of uses) {
    const image = texture.getImage();
    const flipped = image && texture.getMimeType() === "image/png" ? greenInverted(image, decode) : undefined;
    if (!flipped) {
      left.push(label(texture));
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
  return notes;
}

function usesOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, list = []);
  return list;
}

/** The PNG `png` with its green channel inverted, as 8-bit RGBA; undefined when it cannot be read. */
function greenInverted(png: Uint8Array, decode: PngDecoder): Uint8Array | undefined {
  // The size IHDR declares, before anything is allocated.
  if (png.length < 24) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(16) * view.getUint32(20) > MAX_PIXELS) return undefined;
  try {
    return pngOfEncodedImage(png, "gltf normal map green inverted v1", () => invertGreen(png, decode));
  } catch {
    return undefined;
  }
}

/** Decodes `png` to 8-bit RGBA with green inverted (16-bit channels rounded to 8 bits). */
function invertGreen(png: Uint8Array, decode: PngDecoder): RgbaPixels {
  const { width, height, data, channels, depth, palette } = decode(png);
  const pixels = width * height;
  const out = new Uint8Array(4 * pixels);
  if (palette) {
    // Indices of fewer than 8 bits are packed, each row starting on a byte.
    const rowBytes = Math.ceil((width * depth) / 8), mask = (1 << depth) - 1;
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0; x < width; x++, o += 4) {
        const bit = x * depth;
        const entry = palette[(data[y * rowBytes + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask];
        out[o] = entry?.[0] ?? 0;
        out[o + 1] = 255 - (entry?.[1] ?? 0);
        out[o + 2] = entry?.[2] ?? 0;
        out[o + 3] = entry?.[3] ?? 255;
      }
    }
    return { width, height, data: out };
  }
  if (channels < 3) throw new Error("a grey image is no normal map");
  if (data.length < pixels * channels) throw new Error("fewer samples than the image's size");
  const to8 = depth === 16 ? (v: number) => Math.round(v / 257) : (v: number) => v;
  for (let i = 0, s = 0, o = 0; i < pixels; i++, s += channels, o += 4) {
    out[o] = to8(data[s]);
    out[o + 1] = 255 - to8(data[s + 1]);
    out[o + 2] = to8(data[s + 2]);
    out[o + 3] = channels === 4 ? to8(data[s + 3]) : 255;
  }
  return { width, height, data: out };
}
