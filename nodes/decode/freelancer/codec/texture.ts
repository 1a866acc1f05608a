/**
 * Texture libraries (`Texture library/`, embedded or in a `.txm` file): entries by name, decoded on
 * demand from `MIPS` (DDS) or `MIP0` (Targa) to PNG.
 *
 * A Targa's rows are kept in file order, whatever origin its descriptor declares, because the game
 * does not reorder them: it samples a Targa's rows in file order with the mesh's V, as it does a
 * DDS's. Retail Targas (all but nine bottom-left) store the picture bottom row first, like its DDS
 * files, and the UVs beside them are 3ds Max's, with 0 at the image bottom: the two cancel, and a PNG
 * of the rows in file order under the unflipped UVs shows what the game shows. Flipping bottom-left
 * Targas turned every such texture upside down on its mesh (against the DDS textures beside it).
 * Librelancer, checked against the running game, keeps its row reversal commented out ("Technically
 * we should flip these, but Freelancer does not"), and the tiled animated atlases run their frames in
 * order only without it.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { encodePng, pngOfEncodedImage, type RgbaPixels } from "../../../../runtime/scene/png.ts";
import { ddsSurfaces, ddsUnexplainedBytes, decodeDds, dxt1Cutout } from "../../../../runtime/image/dds.ts";
import { decodeTga } from "../../../../runtime/image/tga.ts";
import type { ByteWindow } from "../../../../runtime/binary.ts";
import { findChild, requireLeaf, type UtfEntry } from "./utf.ts";
import { textureKey } from "./texture_names.ts";

/** Adds every texture directory of a library to `into`, keyed by {@link textureKey} (first wins). */
export function readTextureLibrary(library: UtfEntry, into: Map<string, UtfEntry>): void {
  for (const dir of library.children ?? []) {
    const key = textureKey(dir.name);
    if (dir.children && !into.has(key)) into.set(key, dir);
  }
}

function asFormat(leaf: ByteWindow, format: string): ByteWindow {
  return leaf.sub(0, leaf.length, "image", format);
}

/** What {@link resolveTexture} made of a texture directory. */
export type TextureOutcome = ImageOutcome<Uint8Array>;

/** What {@link resolveTexturePixels} made of a texture directory. */
export type PixelsOutcome = ImageOutcome<RgbaPixels>;

/** A texture directory resolved to `T` (PNG bytes or RGBA pixels), or why not. */
export type ImageOutcome<T> =
  /**
   * Decoded; `notes` name the repairs made on the way (each becomes a warning). `cutout`: a DXT1
   * image with transparent texels ({@link dxt1Cutout}), drawn alpha-tested as a diffuse texture.
   */
  | { readonly kind: "png"; readonly png: T; readonly notes: readonly string[]; readonly cutout?: boolean }
  /** No image glTF can take (a cube map, an empty directory): the material stays untextured. */
  | { readonly kind: "none"; readonly reason: string }
  /** An image that does not decode: `reason` is the DecodeError's message. */
  | { readonly kind: "undecodable"; readonly reason: string; readonly entry: string };

/** Entries of an animated texture (its frames are sibling textures `<name>_<i>`). */
const ANIMATION_ENTRIES = ["Frame count", "Texture count", "Frame rects", "FPS"];

/**
 * Decodes a texture directory as the game would show it: `MIPS` first (four retail entries carry
 * both, and the game draws `MIPS`), then `MIP0`; a `MIPS` that does not decode falls back to a
 * `MIP0` beside it; an animated texture shows its first frame, the sibling `<name>_0` found by
 * `lookUp`. `path` names the directory in messages (`Texture library/<name>`).
 *
 * @example
 * ```ts
 * const outcome = resolveTexture(dir, "Texture library/hull.dds", (name) => textures.get(name));
 * ```
 */
export function resolveTexture(
  dir: UtfEntry,
  path: string,
  lookUp: (lowerName: string) => UtfEntry | undefined,
): TextureOutcome {
  return resolveImage(
    dir,
    path,
    lookUp,
    // An opaque image is an RGB PNG (decode.cmp v15): a material's alpha mode never depends on an
    // alpha that is 255 everywhere, and glTF reads a missing alpha as 1.
    (image, decode) =>
      pngOfEncodedImage(image.view(0, image.length), DECODERS[image.format], decode, { opaqueAsRgb: true }),
  );
}

/**
 * What PNGs of stored images are remembered under, in the process and in the disk cache across
 * runs: the format and the version of its decoder. A version goes up whenever the pixels some
 * stored image decodes to change, so that no PNG an older decoder made is reused. DDS v2: DXT2,
 * DXT4 and DX10 premultiplied alpha come out straight (`decode.cmp` v9). Targa v2: a bottom-left
 * Targa's rows stay in file order (`decode.cmp` v8).
 */
const DECODERS: Readonly<Record<string, string>> = { dds: "dds v2", tga: "tga v2" };

/**
 * {@link resolveTexture}'s RGBA pixels instead of a PNG, for images that are repacked before they
 * are stored (LancerEdit's metallic and roughness maps become one glTF metallic-roughness image).
 */
export function resolveTexturePixels(
  dir: UtfEntry,
  path: string,
  lookUp: (lowerName: string) => UtfEntry | undefined,
): PixelsOutcome {
  return resolveImage(dir, path, lookUp, (_image, decode) => decode());
}

function resolveImage<T>(
  dir: UtfEntry,
  path: string,
  lookUp: (lowerName: string) => UtfEntry | undefined,
  make: (image: ByteWindow, decode: () => RgbaPixels) => T,
  depth = 0,
): ImageOutcome<T> {
  const mips = findChild(dir, "MIPS");
  const mip0 = findChild(dir, "MIP0");
  const attempt = (leaf: UtfEntry, format: "dds" | "tga"): T | DecodeError => {
    try {
      const image = asFormat(requireLeaf(leaf, `a ${leaf.name} leaf`), format);
      return make(image, () => format === "dds" ? decodeDds(image) : decodeTga(image));
    } catch (error) {
      if (error instanceof DecodeError) return error;
      throw error;
    }
  };
  if (mips) {
    const surfaces = mips.data ? ddsSurfaces(asFormat(mips.data, "dds")) : { cube: false };
    // A cube map's first face is a view from the centre of a box, not a picture laid out for the
    // mesh's UVs: like a `CUBE` entry, it leaves the material untextured.
    if (surfaces.cube) {
      return { kind: "none", reason: "a DDS cube map (MIPS), which a glTF material cannot take" };
    }
    const png = attempt(mips, "dds");
    if (!(png instanceof DecodeError)) {
      const dds = asFormat(mips.data!, "dds");
      const leftover = ddsUnexplainedBytes(dds);
      const notes = [
        ...(surfaces.more
          ? [`${path}/MIPS holds ${surfaces.more}; the first is used, as a glTF image is one 2D picture`]
          : []),
        ...(leftover ? [`${path}/MIPS ${leftover}`] : []),
      ];
      const cutout = dxt1Cutout(dds);
      return { kind: "png", png, notes, ...(cutout ? { cutout } : {}) };
    }
    if (mip0) {
      const fallback = attempt(mip0, "tga");
      if (!(fallback instanceof DecodeError)) {
        return {
          kind: "png",
          png: fallback,
          notes: [`${path}/MIPS does not decode (${png.message}); its MIP0 Targa is used instead`],
        };
      }
    }
    return { kind: "undecodable", reason: png.message, entry: `${path}/MIPS` };
  }
  if (mip0) {
    const png = attempt(mip0, "tga");
    return png instanceof DecodeError
      ? { kind: "undecodable", reason: png.message, entry: `${path}/MIP0` }
      : { kind: "png", png, notes: [] };
  }
  if (depth === 0 && ANIMATION_ENTRIES.some((name) => findChild(dir, name))) {
    const frameName = `${dir.name}_0`;
    const frame = lookUp(textureKey(frameName));
    if (!frame) {
      return {
        kind: "none",
        reason: `an animated texture whose first frame '${frameName}' is in no library`,
      };
    }
    const outcome = resolveImage(frame, path.replace(/[^/]*$/, frameName), lookUp, make, depth + 1);
    if (outcome.kind !== "png") return outcome;
    return {
      ...outcome,
      notes: [...outcome.notes, `${path} is an animated texture; its first frame '${frameName}' is used`],
    };
  }
  if (findChild(dir, "CUBE")) {
    return { kind: "none", reason: "a cube map (CUBE), which a glTF material cannot take" };
  }
  return {
    kind: "none",
    reason: `neither MIPS nor MIP0 (entries: ${JSON.stringify((dir.children ?? []).map((c) => c.name))})`,
  };
}

let placeholderPng: Uint8Array | undefined;

/**
 * The image that stands in for a texture that does not decode: an 8×8 magenta and black
 * checkerboard, the colours engines use for a missing texture, so that it is seen, not mistaken
 * for paint.
 */
export function placeholderTexturePng(): Uint8Array {
  if (!placeholderPng) {
    const data = new Uint8Array(8 * 8 * 4);
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const o = (y * 8 + x) * 4, on = ((x >> 1) + (y >> 1)) % 2 === 0;
        data.set(on ? [255, 0, 255, 255] : [0, 0, 0, 255], o);
      }
    }
    placeholderPng = encodePng(8, 8, data);
  }
  return placeholderPng;
}
