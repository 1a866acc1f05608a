/**
 * The repair scans' one look at each primitive: the check pass (nothing repaired yet, every export)
 * reads each primitive's attributes once and hands the same map to every scan (the scans asked
 * `listSemantics` 4 times and `getAttribute` 8 times per primitive); the repairing pass, whose repairs
 * rename, renumber and add attributes as it goes, reads them anew at every ask.
 *
 * @module
 */
import type { Mesh, Primitive } from "@gltf-transform/core";
import { type Attributes, readAttributes } from "../../runtime/scene/primitive_attributes.ts";

export type { Attributes } from "../../runtime/scene/primitive_attributes.ts";

/**
 * How a repair scan reads a primitive's attributes (called with the primitive), and a mesh's primitives
 * (`primitives`: glTF-Transform's `listPrimitives` makes two arrays per call, and six scans asked it of
 * every mesh).
 */
export interface AttributesOf {
  (primitive: Primitive): Attributes;
  /** `mesh.listPrimitives()`, read once per pass when nothing is applied. */
  primitives(mesh: Mesh): readonly Primitive[];
}

/** How many times a mesh's primitives were listed through a reader (a count for tests). */
export const primitiveListings = { count: 0 };

function listPrimitives(mesh: Mesh): readonly Primitive[] {
  primitiveListings.count++;
  return mesh.listPrimitives();
}

/**
 * The attribute reader of one pass of the repairs: a snapshot per primitive, taken at its first ask,
 * when nothing is applied; else a fresh read at each ask (repairs change attributes in place).
 *
 * @example
 * ```ts
 * const attributes = attributeReader(false);
 * attributes(primitive).get("NORMAL"); // the same map for every scan of this pass
 * attributes.primitives(mesh); // the same list too
 * ```
 */
export function attributeReader(apply: boolean): AttributesOf {
  if (apply) {
    return Object.assign((primitive: Primitive) => readAttributes(primitive), { primitives: listPrimitives });
  }
  const seen = new Map<Primitive, Attributes>();
  const lists = new Map<Mesh, readonly Primitive[]>();
  const reader = (primitive: Primitive) => {
    let attributes = seen.get(primitive);
    if (!attributes) seen.set(primitive, attributes = readAttributes(primitive));
    return attributes;
  };
  return Object.assign(reader, {
    primitives: (mesh: Mesh) => {
      let list = lists.get(mesh);
      if (!list) lists.set(mesh, list = listPrimitives(mesh));
      return list;
    },
  });
}
