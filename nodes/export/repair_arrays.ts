/**
 * Copy on write for the export repair: `repairForExport` works on a copy of the scene that shares
 * every accessor array with the input (`copyScene` with `shareData`), and a repair that writes into
 * an accessor first gives it an array of its own through {@link ownArray}. Only repaired accessors
 * are copied: a scene with one NaN among a million vertices copies one array, not all of them.
 *
 * @module
 */
import type { Accessor, TypedArray } from "@gltf-transform/core";

/** Arrays the repair allocated as copies to write into (no other scene has them). */
const owned = new WeakSet<TypedArray>();

/** Arrays copied by {@link ownArray} (a count for tests). */
export const arraysOwned = { count: 0 };

/**
 * The accessor's array, ready to be written into: a copy it is given on the first call, the same
 * array after that.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { ownArray } from "./repair_arrays.ts";
 *
 * const shared = new Float32Array([NaN, 1, 2]);
 * const accessor = new Document().createAccessor().setArray(shared);
 * ownArray(accessor)[0] = 0; // `shared` still holds NaN
 * ```
 */
export function ownArray(accessor: Accessor): TypedArray {
  const array = accessor.getArray()!;
  if (owned.has(array)) return array;
  const copy = array.slice();
  owned.add(copy);
  arraysOwned.count++;
  accessor.setArray(copy);
  return copy;
}

/**
 * Whether the repair allocated `array` to write into: its contents may still change, so nothing
 * about it may be remembered (`array_facts.ts`) until the repair is done.
 */
export function isOwned(array: TypedArray): boolean {
  return owned.has(array);
}
