/**
 * Typed reading of a written glTF's JSON for the fast output check: every value that is not of the
 * one shape the check understands (an unknown key, an extension, a wrong type, an index out of range)
 * ends the check as "outside", so the Khronos validator judges the file with its own codes.
 *
 * @module
 */
import { outside } from "./verdict.ts";

/** A JSON object of the written glTF. */
export type Json = Record<string, unknown>;

/** The object at `pointer`, else outside. */
export function object(value: unknown, pointer: string): Json {
  if (!value || typeof value !== "object" || Array.isArray(value)) outside("not an object", pointer);
  return value as Json;
}

/**
 * The object at `pointer` with only `allowed` keys (plus `name` and `extras`, checked here); an
 * `extensions` object or any other key is outside the check.
 */
export function shaped(value: unknown, pointer: string, allowed: ReadonlySet<string>): Json {
  const item = object(value, pointer);
  for (const key in item) {
    if (key === "name") {
      if (typeof item.name !== "string") outside("name not a string", `${pointer}/name`);
    } else if (key === "extras") {
      object(item.extras, `${pointer}/extras`); // the validator looks no further into extras
    } else if (!allowed.has(key)) outside(`property '${key}' the check does not cover`, `${pointer}/${key}`);
  }
  return item;
}

/** A top-level collection: absent → [], else a non-empty array. */
export function collection(root: Json, name: string): unknown[] {
  const value = root[name];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) outside("not a non-empty array", `/${name}`);
  return value;
}

/** An integer in [min, limit), else outside. */
export function int(value: unknown, pointer: string, limit = Number.MAX_SAFE_INTEGER, min = 0): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) >= limit) {
    outside(`not an integer in ${min}..${limit - 1}`, pointer);
  }
  return value as number;
}

/**
 * {@link int} of `object[key]`, the pointer `${pointer}/${key}` spelt only when it is not one: the
 * check reads several integers of each of a file's thousand accessors and views.
 */
export function intAt(
  object: Json,
  key: string,
  pointer: string,
  limit = Number.MAX_SAFE_INTEGER,
  min = 0,
): number {
  const value = object[key];
  if (Number.isInteger(value) && (value as number) >= min && (value as number) < limit) {
    return value as number;
  }
  return int(value, `${pointer}/${key}`, limit, min);
}

/** {@link optionalInt} of `object[key]`, the pointer spelt as {@link intAt} does. */
export function optionalIntAt(
  object: Json,
  key: string,
  pointer: string,
  limit?: number,
  min = 0,
): number | undefined {
  return object[key] === undefined ? undefined : intAt(object, key, pointer, limit, min);
}

/** An optional integer in [min, limit): undefined when absent. */
export function optionalInt(value: unknown, pointer: string, limit?: number, min = 0): number | undefined {
  return value === undefined ? undefined : int(value, pointer, limit, min);
}

/** A finite number in [low, high], else outside. */
export function number(value: unknown, pointer: string, low = -Infinity, high = Infinity): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < low || value > high) {
    outside(`not a number in ${low}..${high}`, pointer);
  }
  return value;
}

/** An array of `length` finite numbers in [low, high] (any length when `length` is 0). */
export function numbers(value: unknown, pointer: string, length: number, low = -Infinity, high = Infinity) {
  if (!Array.isArray(value) || (length > 0 && value.length !== length) || value.length === 0) {
    outside(`not an array of ${length || "some"} numbers`, pointer);
  }
  value.forEach((v, i) => number(v, `${pointer}/${i}`, low, high));
  return value as number[];
}

/** A non-empty array of distinct indices below `limit`. */
export function indexList(value: unknown, pointer: string, limit: number): number[] {
  if (!Array.isArray(value) || value.length === 0) outside("not a non-empty array of indices", pointer);
  const seen = new Set<number>();
  value.forEach((v, i) => seen.add(int(v, `${pointer}/${i}`, limit)));
  if (seen.size !== value.length) outside("duplicate indices", pointer);
  return value as number[];
}

/** The set of names a {@link shaped} object may carry besides `name` and `extras`. */
export function keys(...names: string[]): ReadonlySet<string> {
  return new Set(names);
}
