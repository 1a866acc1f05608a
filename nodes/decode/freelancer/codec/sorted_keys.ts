/**
 * Extras built with their keys in the order the written file has them. The GLB writer sorts every
 * extras object's keys as `Array.prototype.sort` does (UTF-16 code units, `canonical_extras.ts`) and
 * keeps an object whose keys already enumerate so, where it copies one that is out of order and every
 * object above it (a node's extras, its `partgraph`, …): a decoder or resolver that builds them in
 * that order costs the export no copies. Only the in-memory order changes; the text is the same.
 *
 * @module
 */
import type { Property } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { extrasObject, getPartgraphExtras } from "../../../../runtime/scene/extras.ts";

type JsonObject = { [key: string]: JsonValue };

/**
 * A shallow copy of `record` with its keys in the written file's order (the values are the same
 * objects). Integer-like keys enumerate first whatever the order they were made in: such an object is
 * copied by the writer anyway.
 *
 * @example
 * ```ts
 * import { sortedCopy } from "./sorted_keys.ts";
 *
 * Object.keys(sortedCopy({ kind: "rev", at: 12, axis: [1, 0, 0] })); // ["at", "axis", "kind"]
 * ```
 */
export function sortedCopy<T extends object>(record: T): T {
  const source = record as Record<string, unknown>;
  // Entries, not assignments: a `__proto__` key (JSON.parse makes it an own key) stays a key.
  return Object.fromEntries(Object.keys(source).sort().map((key) => [key, source[key]])) as T;
}

/**
 * `{ ...base, ...fields }` (a key of both takes `fields`' value) with the keys in the written file's
 * order; `base` is left as it is.
 *
 * @example
 * ```ts
 * import { sortedMerge } from "./sorted_keys.ts";
 *
 * sortedMerge({ partgraph: {} }, { construct: "rev", min: 0 }); // { construct, min, partgraph }
 * ```
 */
export function sortedMerge(base: JsonObject, fields: JsonObject): JsonObject {
  const keys = Object.keys(base);
  for (const key in fields) if (Object.hasOwn(fields, key) && !Object.hasOwn(base, key)) keys.push(key);
  return Object.fromEntries(
    keys.sort().map((key) => [key, Object.hasOwn(fields, key) ? fields[key] : base[key]]),
  );
}

/**
 * `setPartgraphExtras` with the keys of the extras and of their `partgraph` in the written file's order:
 * `fields` merged into `extras.partgraph` of a property you own, other extras kept.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { setSortedPartgraph } from "./sorted_keys.ts";
 *
 * const scene = new Document().createScene("Scene").setExtras({ partgraph: { source: {} } });
 * setSortedPartgraph(scene, { libraries: {} }); // partgraph: { libraries, source }
 * ```
 */
export function setSortedPartgraph(prop: Property, fields: JsonObject): void {
  prop.setExtras(
    sortedMerge(extrasObject(prop), { partgraph: sortedMerge(getPartgraphExtras(prop), fields) }),
  );
}
