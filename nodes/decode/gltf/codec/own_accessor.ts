/**
 * An accessor a repair may change in place: a primitive's own, or a copy of one it shares with other
 * primitives or morph targets (Blender shares one NORMAL or UV accessor between a mesh's primitives; a
 * repair meant for one of them must not reach the others).
 *
 * @module
 */
import type { Accessor, Primitive } from "@gltf-transform/core";

/** Whether anything but `primitive` (and the document's root) holds `accessor`. */
function shared(accessor: Accessor, primitive: Primitive): boolean {
  return accessor.listParents().some((parent) => parent !== primitive && parent.propertyType !== "Root");
}

/** `primitive`'s attribute `semantic`, copied first when another property holds it too. */
export function ownAttribute(primitive: Primitive, semantic: string): Accessor {
  const accessor = primitive.getAttribute(semantic)!;
  if (!shared(accessor, primitive)) return accessor;
  const copy = accessor.clone();
  primitive.setAttribute(semantic, copy);
  return copy;
}

/** `primitive`'s indices, copied first when shared; null for an unindexed primitive. */
export function ownIndices(primitive: Primitive): Accessor | null {
  const indices = primitive.getIndices();
  if (!indices || !shared(indices, primitive)) return indices;
  const copy = indices.clone();
  primitive.setIndices(copy);
  return copy;
}
