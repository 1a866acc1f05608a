/**
 * Shape tests for JSON read back from disk or the network (records, manifests, graph files): what
 * each checker of such a file asks of its fields.
 *
 * @module
 */

/** True for a plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** True for an object whose every value is a string (versions, digests by path). */
export function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((s) => typeof s === "string");
}

/** True for an array of strings. */
export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}
