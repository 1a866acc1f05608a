/**
 * A primitive's attributes read in one look: `listSemantics` and `getAttribute` each go through
 * glTF-Transform's getters (a copied key list, a megamorphic `get` per semantic), and the export's
 * repair scans and the GLB writer asked them 5 and 11 times per primitive of every file written.
 *
 * @module
 */
import type { Accessor, Primitive, PrimitiveTarget } from "@gltf-transform/core";
import { ATTRIBUTES } from "./graph_internals.ts";

/** A primitive's attributes: semantic → accessor, in `listSemantics`' order. */
export type Attributes = ReadonlyMap<string, Accessor>;

/** How many times a primitive's (or target's) attributes were read (a count for tests). */
export const attributeReads = { count: 0 };

/** property-graph 4's RefMap: its refs by key, each with the accessor as its child. */
type RefMap = { map?: Record<string, { getChild?: () => unknown }> };

/**
 * `primitive`'s attributes, read from property-graph's attribute store where it is kept as 4.1 keeps
 * it (a RefMap under `attributes`), else through `listSemantics` and `getAttribute`. A new map each
 * call: it does not follow later changes to the primitive.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { readAttributes } from "./primitive_attributes.ts";
 *
 * const doc = new Document();
 * const position = doc.createAccessor().setType("VEC3").setArray(new Float32Array(3));
 * const primitive = doc.createPrimitive().setAttribute("POSITION", position);
 * readAttributes(primitive).get("POSITION") === position; // true
 * ```
 */
export function readAttributes(primitive: Primitive | PrimitiveTarget): Map<string, Accessor> {
  attributeReads.count++;
  const out = new Map<string, Accessor>();
  const store = ATTRIBUTES && (primitive as unknown as Record<symbol, { attributes?: RefMap }>)[ATTRIBUTES];
  const refs = store?.attributes?.map;
  if (refs && typeof refs === "object") {
    let found = true;
    for (const key in refs) {
      const ref = refs[key];
      if (typeof ref?.getChild !== "function") {
        found = false;
        break;
      }
      out.set(key, ref.getChild() as Accessor);
    }
    if (found) return out;
    out.clear();
  }
  for (const semantic of primitive.listSemantics()) out.set(semantic, primitive.getAttribute(semantic)!);
  return out;
}
