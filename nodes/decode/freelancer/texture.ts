/**
 * Texture libraries (`Texture library/`, embedded or in a `.txm` file): entries by name, decoded on
 * demand from `MIPS` (DDS) or `MIP0` (Targa) to PNG.
 *
 * @module
 */
import { encode } from "fast-png";
import { decodeDds } from "./dds.ts";
import { decodeTga } from "./tga.ts";
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
  const image = mips
    ? decodeDds(requireLeaf(mips, "a MIPS leaf").sub(0, mips.data!.length, "DDS", "dds"))
    : mip0
    ? decodeTga(requireLeaf(mip0, "a MIP0 leaf").sub(0, mip0.data!.length, "Targa", "tga"))
    : undefined;
  if (!image) return undefined;
  return encode({ width: image.width, height: image.height, data: image.data, channels: 4, depth: 8 });
}
