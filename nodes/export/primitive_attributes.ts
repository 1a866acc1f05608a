/**
 * The repair scans' one look at each primitive: the check pass (nothing repaired yet, every export)
 * reads each primitive's attributes once and hands the same map to every scan (the scans asked
 * `listSemantics` 4 times and `getAttribute` 8 times per primitive); the repairing pass, whose repairs
 * rename, renumber and add attributes as it goes, reads them anew at every ask.
 *
 * @module
 */
import type { Primitive } from "@gltf-transform/core";
import { type Attributes, readAttributes } from "../../runtime/scene/primitive_attributes.ts";

export type { Attributes } from "../../runtime/scene/primitive_attributes.ts";

/** How a repair scan reads a primitive's attributes. */
export type AttributesOf = (primitive: Primitive) => Attributes;

/**
 * The attribute reader of one pass of the repairs: a snapshot per primitive, taken at its first ask,
 * when nothing is applied; else a fresh read at each ask (repairs change attributes in place).
 *
 * @example
 * ```ts
 * const attributes = attributeReader(false);
 * attributes(primitive).get("NORMAL"); // the same map for every scan of this pass
 * ```
 */
export function attributeReader(apply: boolean): AttributesOf {
  if (apply) return readAttributes;
  const seen = new Map<Primitive, Attributes>();
  return (primitive) => {
    let attributes = seen.get(primitive);
    if (!attributes) seen.set(primitive, attributes = readAttributes(primitive));
    return attributes;
  };
}
