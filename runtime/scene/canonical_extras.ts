/**
 * The last step of canonicalising a written file's JSON (`gltf_io.ts`): every `extras` value with its
 * object keys sorted, and whether any of them holds an integer `writtenText` must write with a fraction
 * (`written_json.ts`), so that the text need not walk the whole file again to find out.
 *
 * @module
 */
import { sortKeysDeep } from "../canonical.ts";
import { isWideInteger } from "./written_json.ts";

/** What {@link sortExtras} found while it walked a file's extras. */
export interface ExtrasFound {
  /** Some extras value holds an integer outside 32 bits (`isWideInteger`). */
  wide: boolean;
}

/**
 * Sorts keys of every `extras` object (recursively inside them too), in place, and drops keys whose
 * value is `undefined` outside extras (glTF-Transform writes a sampler's unset filters so), which the
 * JSON text omits anyway: the value then reads as its text does, and the output check reads it in
 * place of parsing the text (`nodes/export/check/in_hand.ts`). Returns `value`, or the object that
 * replaces it without such keys; `found.wide` is set when an extras value holds a wide integer.
 *
 * @example
 * ```ts
 * import { sortExtras } from "./canonical_extras.ts";
 *
 * const found = { wide: false };
 * sortExtras({ nodes: [{ extras: { b: 1, a: 3000000000 } }] }, found);
 * // { nodes: [{ extras: { a: 3000000000, b: 1 } }] }; found.wide is true
 * ```
 */
export function sortExtras<T extends object>(value: T, found: ExtrasFound): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "object" && item !== null) {
        const sorted = sortExtras(item, found);
        if (sorted !== item) value[i] = sorted;
      }
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  let unset = false;
  for (const key in record) {
    const item = record[key];
    if (key === "extras") {
      // Most extras are written sorted already (decoders build them so, and copies keep them): those
      // are kept as they are, not copied, which was most of this walk's time and garbage. Of the rest
      // only the objects out of order and those above them are new: a node's extras whose top keys a
      // resolver added out of order share the decoder's records under them.
      const sorted = sortedSharing(item, found);
      if (sorted !== item) record[key] = sorted;
    } else if (item === undefined) unset = true;
    else if (typeof item === "object" && item !== null) {
      const sorted = sortExtras(item, found);
      if (sorted !== item) record[key] = sorted;
    }
  }
  if (!unset) return value;
  // A copy without them, not `delete`: deleting a key makes an object a dictionary, and one such object
  // takes V8's JSON.stringify off its fast path for the whole file (2-3x the time of the file's text).
  const kept: Record<string, unknown> = {};
  for (const key in record) if (record[key] !== undefined) kept[key] = record[key];
  return kept as T;
}

/** How many objects and arrays {@link sortExtras} made (a count for tests: copies of extras). */
export const extrasCopies = { count: 0 };

/**
 * `value` as `sortKeysDeep` would copy it, as `JSON.stringify` reads both, sharing what is sorted
 * already: `value` itself when it is a leaf, or a dense array (of `Array.prototype`) or plain object
 * (of `Object.prototype`) whose keys enumerate in sorted order, all the way down; else a new array or
 * object (keys sorted) over the same treatment of its items, so a sorted branch under an unsorted
 * object is kept, not copied. Anything else (a typed array, a class instance, a hole, an inherited key)
 * is copied by `sortKeysDeep`, as before. Notes a wide integer in `found` on the way.
 */
function sortedSharing(value: unknown, found: ExtrasFound): unknown {
  if (typeof value !== "object" || value === null) {
    if (isWideInteger(value)) found.wide = true;
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    const array = value as unknown[];
    let copy: unknown[] | undefined;
    for (let i = 0; i < array.length; i++) {
      if (!(i in array)) return copied(value, found);
      const item = array[i], sorted = sortedSharing(item, found);
      if (sorted !== item) (copy ??= copiedArray(array))[i] = sorted;
    }
    return copy ?? array;
  }
  if (proto !== Object.prototype) return copied(value, found);
  const record = value as Record<string, unknown>;
  // Sorted as `Array.prototype.sort` sorts keys (UTF-16 order): `sortKeysDeep` inserts them so.
  let previous: string | undefined, inOrder = true, changed: Map<string, unknown> | undefined;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) return copied(value, found);
    if (previous !== undefined && !(previous < key)) inOrder = false;
    const item = record[key], sorted = sortedSharing(item, found);
    if (sorted !== item) (changed ??= new Map()).set(key, sorted);
    previous = key;
  }
  if (inOrder && !changed) return record;
  extrasCopies.count++;
  const keys = inOrder ? Object.keys(record) : Object.keys(record).sort();
  // Entries, not assignments: a `__proto__` key (JSON.parse makes it an own key) stays a key.
  return Object.fromEntries(keys.map((key) => [key, changed?.has(key) ? changed.get(key) : record[key]]));
}

/** A copy of a plain array (counted), its items replaced by the caller. */
function copiedArray(array: unknown[]): unknown[] {
  extrasCopies.count++;
  return array.slice();
}

/** `sortKeysDeep` of `value` (counted), noting a wide integer in `found`. */
function copied(value: unknown, found: ExtrasFound): unknown {
  extrasCopies.count++;
  const sorted = sortKeysDeep(value);
  found.wide ||= holdsWide(sorted);
  return sorted;
}

/** Whether a (sorted, plain) extras value holds a wide integer anywhere. */
function holdsWide(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return isWideInteger(value);
  if (Array.isArray(value)) return value.some(holdsWide);
  for (const key in value) if (holdsWide((value as Record<string, unknown>)[key])) return true;
  return false;
}
