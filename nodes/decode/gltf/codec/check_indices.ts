/**
 * Index values against vertex counts, checked on the decoded scene: an index past its primitive's
 * last vertex is refused at the primitive's `indices`, whatever holds the values — a plain buffer
 * view, a sparse accessor, a meshopt-compressed view or a Draco stream (the last three are decoded
 * only by glTF-Transform, so the JSON check before it cannot see them).
 *
 * Refused rather than repaired because the tools users load such a file in disagree: Blender 3.4's
 * importer fails on it (`IndexError`), three.js hands the index to the GPU, where WebGL draws
 * nothing or an arbitrary vertex, and the Khronos validator reports `ACCESSOR_INDEX_OOB`. Nothing
 * after the decode (the rig, the export) ever sees such an index.
 *
 * @module
 */
import type { Accessor, Document } from "@gltf-transform/core";
import { gltfError, type GltfSource } from "./container.ts";

/**
 * Throws a `DecodeError` at `/meshes/m/primitives/p/indices` for the first primitive with an
 * index value at or past its vertex count, naming the value, its element, the accessor and how many
 * of its values are out of range. Time linear in the indices.
 *
 * glTF-Transform creates meshes, primitives and accessors in the order of the file's JSON, so list
 * positions are the JSON's indices.
 *
 * @example
 * ```ts
 * checkIndexValues(doc, { format: "glb", file: "plane.glb" });
 * ```
 */
export function checkIndexValues(doc: Document, source: GltfSource): void {
  const root = doc.getRoot();
  let accessorIndex: Map<Accessor, number> | undefined;
  const meshes = root.listMeshes();
  for (let m = 0; m < meshes.length; m++) {
    const primitives = meshes[m].listPrimitives();
    for (let p = 0; p < primitives.length; p++) {
      const primitive = primitives[p];
      const indices = primitive.getIndices();
      const values = indices?.getArray();
      if (!indices || !values) continue;
      // The structure check made every attribute of a primitive the same length.
      const vertices = primitive.listAttributes()[0]?.getCount() ?? 0;
      let first = -1, outside = 0;
      for (let i = 0; i < values.length; i++) {
        if (values[i] >= vertices) {
          if (first < 0) first = i;
          outside++;
        }
      }
      if (first < 0) continue;
      accessorIndex ??= new Map(root.listAccessors().map((accessor, i) => [accessor, i]));
      const of = outside > 1 ? `; ${outside} of its ${values.length} values are past the last vertex` : "";
      throw gltfError(
        source,
        { jsonPath: `/meshes/${m}/primitives/${p}/indices` },
        `index values below the ${vertices} vertices of its attributes`,
        `${values[first]} at element ${first} of accessor ${accessorIndex.get(indices)}${of}`,
      );
    }
  }
}
