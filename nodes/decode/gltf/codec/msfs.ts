/**
 * Microsoft Flight Simulator's models, read as the sim reads them: Asobo's packing of attributes
 * (`convertMsfsAttributes`) and primitives ({@link splitPackedPrimitives}, {@link windTriangles}),
 * what its material extensions say ({@link readMsfsLooks}, {@link applyMsfsLooks}), and its normal
 * maps' convention ({@link hasDirectXNormalMaps}, {@link turnDirectXNormalMaps}).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { MsfsAttributeCounts } from "./msfs_attributes.ts";
import { windTriangles } from "./msfs_primitives.ts";
import { MSFS_MATERIAL_EXTENSIONS } from "./msfs_materials.ts";

export { convertMsfsAttributes, isMsfsPacked } from "./msfs_attributes.ts";
export { splitPackedPrimitives } from "./msfs_primitives.ts";
export { applyMsfsLooks, readMsfsLooks } from "./msfs_materials.ts";
export { hasDirectXNormalMaps, turnDirectXNormalMaps } from "./msfs_normal_maps.ts";

/** The `ASOBO_` extensions whose meaning the decoder keeps, so none is warned about as unread. */
export const MSFS_READ_EXTENSIONS: ReadonlySet<string> = new Set([
  ...MSFS_MATERIAL_EXTENSIONS,
  "ASOBO_normal_map_convention",
]);

/** Paths named in a note before the rest are counted. */
const NAMED = 3;

/**
 * Finishes reading a packed model whose primitives `splitPackedPrimitives` gave their ranges
 * (`split` of them) and whose attributes `convertMsfsAttributes` read as floats (`attributes`, its
 * counts; undefined when the file is not packed): its triangles facing along its normals. Returns
 * one note per kind of thing read differently from glTF, for the decoder's warnings — once for the
 * file, where a real model would repeat it for hundreds of primitives.
 */
export function readMsfsPacking(
  doc: Document,
  { split, attributes }: { split: number; attributes?: MsfsAttributeCounts },
): string[] {
  const notes: string[] = [];
  if (split) {
    notes.push(
      `${split} primitive${
        split === 1 ? "" : "s"
      } share an index list (MSFS packing, extras ASOBO_primitive): ` +
        "each given its own range of it",
    );
  }
  if (!attributes) return notes;
  const { half, bytes, halfWeights, oneWeight, byteColours, nonFinite } = attributes;
  if (half) {
    notes.push(
      `${half} accessor${
        half === 1 ? "" : "s"
      } of texture coordinates or colours in 16-bit half floats filed ` +
        "as integers (MSFS packing): read as floats" +
        (nonFinite ? `, ${nonFinite} values that were not finite numbers as 0` : ""),
    );
  }
  if (bytes) {
    notes.push(
      `${bytes} accessor${bytes === 1 ? "" : "s"} of normals or tangents in signed bytes (MSFS packing): ` +
        "read as normalized, a VEC4 normal's fourth (padding) byte dropped",
    );
  }
  const accessors = (n: number) => `${n} accessor${n === 1 ? "" : "s"}`;
  if (halfWeights) {
    notes.push(
      `${
        accessors(halfWeights)
      } of skin weights in 16-bit half floats filed as unnormalized UNSIGNED_SHORT ` +
        "(MSFS packing, BLEND4 vertices): read as floats",
    );
  }
  if (oneWeight) {
    notes.push(
      `${accessors(oneWeight)} of one float skin weight per vertex (MSFS packing, BLEND1 vertices): ` +
        "read as the first joint's weight, the other three 0",
    );
  }
  if (byteColours) {
    notes.push(
      `${accessors(byteColours)} of vertex colours in unsigned bytes filed as BYTE (MSFS packing, skinned ` +
        "vertices): read as normalized unsigned bytes",
    );
  }
  const turned = windTriangles(doc);
  if (turned.length) {
    const more = turned.length > NAMED ? ` and ${turned.length - NAMED} more` : "";
    notes.push(
      `the triangles of ${turned.slice(0, NAMED).join(", ")}${more} were wound against their own normals ` +
        "(MSFS packing): turned round",
    );
  }
  return notes;
}
