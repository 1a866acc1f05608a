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

/** An object of `Object.prototype` without a `toJSON` of its own (the prototype has none: checked above). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "toJSON");
}

/**
 * Every value of a plain object survives. An own `toJSON` function is a value that does not; a
 * `toJSON` that is not a function is an ordinary key to `JSON.stringify`.
 */
function plainObjectSurvives(object: Record<string, unknown>, depth: number): boolean {
  for (const key in object) {
    const value = object[key];
    if (typeof value !== "object" || value === null) {
      if (!leafSurvives(value)) return false;
    } else if (key === "extras" && isPlainObject(value)) {
      continue; // read no further than "an object"
    } else if (!objectSurvives(value, depth + 1)) return false;
  }
  return true;
}

/** A string, boolean, null or finite number; nothing else that is not an object. */
function leafSurvives(value: unknown): boolean {
  const type = typeof value;
  return type === "string" || type === "boolean" || value === null ||
    (type === "number" && Number.isFinite(value));
}

function objectSurvives(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) return arraySurvives(value as unknown[], depth);
  return proto === Object.prototype && plainObjectSurvives(value as Record<string, unknown>, depth);
}

/** Every element survives; a hole reads as `undefined`, which does not. */
function arraySurvives(array: unknown[], depth: number): boolean {
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    if (typeof value !== "object" || value === null) {
      if (!leafSurvives(value)) return false;
    } else if (!objectSurvives(value, depth + 1)) return false;
  }
  return true;
}
