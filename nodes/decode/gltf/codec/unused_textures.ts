/**
 * Textures nothing draws, left out of the decoded scene. A Microsoft Flight Simulator material's
 * detail layer (`ASOBO_material_detail_map`) and other extensions glTF-Transform does not read are
 * dropped, but the images only they sampled stay in the file — dead weight, often megabytes of
 * tiling detail maps — as does an image a source left unused (which the Khronos validator names
 * `UNUSED_OBJECT`). Whatever glTF-Transform holds a texture from (a material's slot, a material
 * extension's: clear coat, sheen, a variant's material) keeps it.
 *
 * @module
 */
import type { Document, Texture } from "@gltf-transform/core";

/** A texture's label in a note: its name quoted, else its index in the file. */
export type TextureLabel = (texture: Texture) => string;

/**
 * Disposes of every texture only the root holds (no material, extension or other property samples
 * it), in place, and returns a note naming them and their bytes, or undefined when none was.
 * `label` must be computed on the textures as the file lists them (before any is disposed of).
 *
 * @example
 * ```ts ignore
 * const note = pruneUnusedTextures(doc, label); // "2 textures nothing draws are left out: …"
 * ```
 */
export function pruneUnusedTextures(doc: Document, label: TextureLabel): string | undefined {
  const root = doc.getRoot();
  const unused = root.listTextures().filter((texture) => texture.listParents().every((p) => p === root));
  if (unused.length === 0) return undefined;
  const bytes = unused.reduce((sum, texture) => sum + (texture.getImage()?.byteLength ?? 0), 0);
  const labels = unused.map(label);
  for (const texture of unused) texture.dispose();
  const named = labels.length > 3
    ? `${labels.slice(0, 3).join(", ")} and ${labels.length - 3} more`
    : labels.join(", ");
  return `${unused.length} texture${unused.length > 1 ? "s" : ""} nothing draws (${named}; ${bytes} bytes) ` +
    `${unused.length > 1 ? "are" : "is"} left out: no material samples ${
      unused.length > 1 ? "them" : "it"
    } ` +
    "(an extension partgraph does not read, such as a Flight Simulator detail layer, may have)";
}
