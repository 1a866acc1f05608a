/**
 * The JSON value a writer serialised, judged in place of parsing its text again: `JSON.parse` of the
 * 3 MB of JSON a batch of Freelancer GLBs carries was a third of the fast check. The value is used
 * only when a walk proves that everything the check reads is what the parsed text would hold.
 *
 * **Why the walk suffices.** Outside `extras`, the check reads objects (by key, and their keys with
 * `for … in`), dense arrays (by index and length) and strings, booleans, null and numbers. Parsing
 * `JSON.stringify(value)` gives back exactly those when every object is plain (`Object.prototype`, no
 * `toJSON` function), every array is a dense `Array`, and every leaf is a string, boolean, null or
 * finite number: the walk accepts nothing else (no `undefined`, NaN, ±Infinity, function, symbol,
 * bigint, typed array, Map, sparse array, …), and key order, strings and finite numbers survive the
 * round trip exactly. The one finite number that does not, −0 (parsed as 0), is accepted because the
 * check never tells it from 0: it only compares numbers (`===`, `<`, Sets and Maps), squares them and
 * puts them in messages (`String(-0)` is `"0"`). An `extras` object is only checked to be an object,
 * so the walk stops there once it is a plain one (the parsed text holds a plain object then too).
 * Objects here come from glTF-Transform's writer and `gltf_io.ts` as literals and spreads: no
 * getters or non-enumerable keys to differ between the two. Anything the walk is unsure of (also a
 * nesting deeper than {@link MAX_DEPTH}) means the text is parsed, as before.
 *
 * @module
 */

/** Nesting the walk follows; glTF's core JSON is a few levels deep outside extras and extensions. */
const MAX_DEPTH = 16;

/**
 * `value` when the fast check may read it instead of the parsed JSON text it was serialised to,
 * else undefined (then the text is parsed).
 *
 * @example
 * ```ts
 * import { jsonInHand } from "./in_hand.ts";
 *
 * jsonInHand({ asset: { version: "2.0" } }); // the object itself
 * jsonInHand({ asset: { version: "2.0" }, scene: undefined }); // undefined: the text lacks `scene`
 * ```
 */
export function jsonInHand(value: unknown): Record<string, unknown> | undefined {
  // A toJSON on the shared prototypes would change every object's text.
  if ("toJSON" in Object.prototype || "toJSON" in Array.prototype) return undefined;
  return isPlainObject(value) && plainObjectSurvives(value, 0) ? value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

function plainObjectSurvives(object: Record<string, unknown>, depth: number): boolean {
  for (const key in object) {
    const value = object[key];
    if (key === "extras" && isPlainObject(value)) continue; // read no further than "an object"
    if (!survives(value, depth + 1)) return false;
  }
  return true;
}

function survives(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (value === null) return true;
      if (depth > MAX_DEPTH) return false;
      if (Array.isArray(value)) return arraySurvives(value, depth);
      return isPlainObject(value) && plainObjectSurvives(value, depth);
    default:
      return false; // undefined, function, symbol, bigint
  }
}

function arraySurvives(array: unknown[], depth: number): boolean {
  if (Object.getPrototypeOf(array) !== Array.prototype) return false;
  for (let i = 0; i < array.length; i++) {
    if (!(i in array) || !survives(array[i], depth + 1)) return false;
  }
  return true;
}
