/**
 * Texture libraries (`Texture library/`, embedded or in a `.txm` file): entries by name, decoded on
 * demand from `MIPS` (DDS) or `MIP0` (Targa) to PNG.
 *
 * @module
 */
import { pngOfEncodedImage } from "../../../../runtime/scene/png.ts";
import { decodeDds } from "./dds.ts";
import { decodeTga } from "./tga.ts";
import type { ByteWindow } from "../../../../runtime/binary.ts";
import { findChild, requireLeaf, type UtfEntry } from "./utf.ts";

/** Adds every texture directory of a library to `into`, keyed by lower-cased name (first wins). */
export function readTextureLibrary(library: UtfEntry, into: Map<string, UtfEntry>): void {
  for (const dir of library.children ?? []) {
    const key = dir.name.toLowerCase();
    if (dir.children && !into.has(key)) into.set(key, dir);
  }
}

/**
 * Decodes a texture directory's top mip level to PNG bytes, or undefined when it holds neither
 * `MIPS` nor `MIP0` (cube maps, animated textures).
 *
 * @example
 * ```ts
 * const png = textureToPng(textures.get("default.dds")!);
 * ```
 */
export function textureToPng(dir: UtfEntry): Uint8Array | undefined {
  const mips = findChild(dir, "MIPS");
  const mip0 = findChild(dir, "MIP0");
  if (!mips && !mip0) return undefined;
  // Re-window the leaf so errors name the image format, at offsets that are still absolute.
  const image = mips
    ? asFormat(requireLeaf(mips, "a MIPS leaf"), "dds")
    : asFormat(requireLeaf(mip0!, "a MIP0 leaf"), "tga");
  const decode = () => mips ? decodeDds(image) : decodeTga(image);
  return pngOfEncodedImage(image.view(0, image.length), image.format, decode);
}

function asFormat(leaf: ByteWindow, format: string): ByteWindow {
  return leaf.sub(0, leaf.length, "image", format);
}
