/**
 * Typed access to DSON JSON values. Every accessor takes the JSON pointer of the value it reads so
 * that a wrong type becomes a {@link DecodeError} naming exactly where it sits. Counted containers
 * (`{count, values}`) are trusted by their `values`, never by `count` (Daz files disagree).
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";

/** A JSON object as parsed. */
export type JsonRecord = Record<string, unknown>;

/** Short human description of a JSON value for error messages. */
export function describeJson(value: unknown): string {
  if (value === undefined) return "nothing (the key is absent)";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string") {
    return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  }
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/**
 * Told of a value read other than as written (at JSON pointer `path`; `what` says how), so the
 * caller can warn; the read carries on with the repaired reading.
 */
export type RepairSink = (path: string, what: string) => void;

/** A channel triple's x, y, z values. */
export type ChannelTriple = [number, number, number];

/**
 * Reads typed values out of one DSON file; failures name the file and JSON path.
 *
 * @example
 * ```ts
 * const read = new JsonReader("figure.dsf", (path, what) => console.warn(`${path}: ${what}`));
 * const positions = read.vec3Array(json.vertices, "/geometry_library/0/vertices");
 * ```
 */
export class JsonReader {
  /** File name used in errors. */
  readonly file?: string;
  readonly #repaired?: RepairSink;
  constructor(file?: string, repaired?: RepairSink) {
    this.file = file;
    this.#repaired = repaired;
  }

  /** Reports a repair at `path` (see {@link RepairSink}); without a sink, nothing is said. */
  repair(path: string, what: string): void {
    this.#repaired?.(path || "/", what);
  }

  /** Throws a DecodeError at `path`. */
  fail(path: string, expected: string, found: unknown): never {
    throw new DecodeError({
      format: "dson",
      at: { jsonPath: path || "/" },
      expected,
      found: typeof found === "string" && found.startsWith("#raw:") ? found.slice(5) : describeJson(found),
      file: this.file,
    });
  }

  /** An object (required). */
  object(value: unknown, path: string): JsonRecord {
    if (!value || typeof value !== "object" || Array.isArray(value)) this.fail(path, "an object", value);
    return value as JsonRecord;
  }

  /** An object, or undefined when absent. */
  optObject(value: unknown, path: string): JsonRecord | undefined {
    return value === undefined ? undefined : this.object(value, path);
  }

  /** An array (required). */
  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, "an array", value);
    return value;
  }

  /** An array, or an empty one when absent. */
  optArray(value: unknown, path: string): unknown[] {
    return value === undefined ? [] : this.array(value, path);
  }

  /**
   * Each element of `list` (the array at `path`) as an object, with its pointer and index. An
   * element is checked only when the loop reaches it, so a bad element is reported after the work
   * on the ones before it, exactly as an index loop would.
   */
  *objects(
    list: readonly unknown[],
    path: string,
  ): Generator<[record: JsonRecord, at: string, index: number]> {
    for (let i = 0; i < list.length; i++) {
      const at = `${path}/${i}`;
      yield [this.object(list[i], at), at, i];
    }
  }

  /** A string (required). */
  string(value: unknown, path: string): string {
    if (typeof value !== "string") this.fail(path, "a string", value);
    return value;
  }

  /** A string, or undefined when absent. */
  optString(value: unknown, path: string): string | undefined {
    return value === undefined ? undefined : this.string(value, path);
  }

  /** A finite number (required). */
  number(value: unknown, path: string): number {
    if (typeof value !== "number" || !Number.isFinite(value)) this.fail(path, "a finite number", value);
    return value;
  }

  /** A number, or `fallback` when absent. */
  optNumber(value: unknown, path: string, fallback: number): number {
    return value === undefined ? fallback : this.number(value, path);
  }

  /** A boolean, or `fallback` when absent. */
  optBoolean(value: unknown, path: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") this.fail(path, "a boolean", value);
    return value;
  }

  /** An integer in [min, max]. */
  integer(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.fail(path, `an integer in [${min}, ${max}]`, value);
    }
    return value;
  }

  /** The `values` of a counted container (`{count, values}`), or of a bare array. */
  values(value: unknown, path: string): { items: unknown[]; path: string } {
    if (Array.isArray(value)) return { items: value, path };
    const record = this.object(value, path);
    return { items: this.array(record.values ?? [], `${path}/values`), path: `${path}/values` };
  }

  /** A counted `float3_array` as a flat Float64Array `[x0, y0, z0, x1, …]`. */
  vec3Array(value: unknown, path: string): Float64Array {
    return this.tupleArray(value, path, 3);
  }

  /** A counted `float2_array` as a flat Float64Array. */
  vec2Array(value: unknown, path: string): Float64Array {
    return this.tupleArray(value, path, 2);
  }

  /**
   * One array of (at least) `size` finite numbers, e.g. a colour `[r, g, b]`; a bad element is
   * named by its own path (`<path>/1`).
   */
  tuple(value: unknown, path: string, size: number): number[] {
    if (!Array.isArray(value) || value.length < size) this.fail(path, `${size} numbers`, value);
    return value.slice(0, size).map((n, k) => this.number(n, `${path}/${k}`));
  }

  /** A counted array of fixed-length number tuples as a flat Float64Array. */
  tupleArray(value: unknown, path: string, size: number): Float64Array {
    const { items, path: at } = this.values(value, path);
    const out = new Float64Array(items.length * size);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!Array.isArray(item) || item.length < size) this.fail(`${at}/${i}`, `${size} numbers`, item);
      for (let k = 0; k < size; k++) {
        const n = item[k];
        if (typeof n !== "number" || !Number.isFinite(n)) this.fail(`${at}/${i}/${k}`, "a finite number", n);
        out[i * size + k] = n;
      }
    }
    return out;
  }

  /** A counted `int_array` whose entries are all in [0, limit). */
  indexArray(value: unknown, path: string, limit: number): Int32Array {
    const { items, path: at } = this.values(value, path);
    const out = new Int32Array(items.length);
    for (let i = 0; i < items.length; i++) out[i] = this.integer(items[i], `${at}/${i}`, 0, limit - 1);
    return out;
  }

  /** A counted `int2_array` of index pairs, each side checked against its own limit. */
  indexPairs(value: unknown, path: string, limitA: number, limitB: number): Int32Array {
    const { items, path: at } = this.values(value, path);
    const out = new Int32Array(items.length * 2);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!Array.isArray(item) || item.length < 2) this.fail(`${at}/${i}`, "an index pair", item);
      out[i * 2] = this.integer(item[0], `${at}/${i}/0`, 0, limitA - 1);
      out[i * 2 + 1] = this.integer(item[1], `${at}/${i}/1`, 0, limitB - 1);
    }
    return out;
  }

  /**
   * A counted `float_indexed_array` (`[[index, value], …]`) as parallel index and value arrays;
   * indices must be below `limit`.
   */
  indexedFloats(value: unknown, path: string, limit: number): { index: Int32Array; value: Float64Array } {
    const { items, path: at } = this.values(value, path);
    const index = new Int32Array(items.length);
    const values = new Float64Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!Array.isArray(item) || item.length < 2) this.fail(`${at}/${i}`, "[index, value]", item);
      index[i] = this.integer(item[0], `${at}/${i}/0`, 0, limit - 1);
      values[i] = this.number(item[1], `${at}/${i}/1`);
    }
    return { index, value: values };
  }

  /** A counted `float3_indexed_array` (`[[index, x, y, z], …]`), e.g. morph deltas. */
  indexedVec3(value: unknown, path: string, limit: number): { index: Int32Array; value: Float64Array } {
    const { items, path: at } = this.values(value, path);
    const index = new Int32Array(items.length);
    const values = new Float64Array(items.length * 3);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!Array.isArray(item) || item.length < 4) this.fail(`${at}/${i}`, "[index, x, y, z]", item);
      index[i] = this.integer(item[0], `${at}/${i}/0`, 0, limit - 1);
      for (let k = 0; k < 3; k++) values[i * 3 + k] = this.number(item[k + 1], `${at}/${i}/${k + 1}`);
    }
    return { index, value: values };
  }

  /** A counted `string_array`. */
  stringArray(value: unknown, path: string): string[] {
    const { items, path: at } = this.values(value, path);
    return items.map((item, i) => this.string(item, `${at}/${i}`));
  }

  /**
   * The x, y, z values of a channel triple (`[{id: "x", value, current_value}, …]`), reading
   * `current_value ?? value`; absent channels keep `fallback` (one number for all three axes, or
   * one per axis, e.g. the definition's values under an instance's override). `fallbackWhat` names
   * the fallback in the warning of a `null` value (see {@link channelNumber}).
   */
  channelVec3(
    value: unknown,
    path: string,
    fallback: number | Readonly<ChannelTriple>,
    fallbackWhat?: string,
  ): ChannelTriple {
    const base: Readonly<ChannelTriple> = typeof fallback === "number"
      ? [fallback, fallback, fallback]
      : fallback;
    const out: ChannelTriple = [base[0], base[1], base[2]];
    if (value === undefined) return out;
    const channels = this.array(value, path);
    channels.forEach((channel, i) => {
      const record = this.object(channel, `${path}/${i}`);
      const axis = ["x", "y", "z"].indexOf(String(record.id));
      if (axis < 0) return;
      out[axis] = this.channelNumber(record, `${path}/${i}`, base[axis], fallbackWhat);
    });
    return out;
  }

  /**
   * `current_value ?? value` of one channel object, or `fallback`. A `null` value is read as
   * absent, with a warning naming it: Qt's JSON writer (Daz Studio's, and its scripts') stores NaN
   * and infinity as `null`, and Diffeomorphic's importer skips such values too. `fallbackWhat`
   * names the fallback in that warning (default: "the default"), followed by its number when finite.
   */
  channelNumber(channel: unknown, path: string, fallback: number, fallbackWhat?: string): number {
    if (channel === undefined) return fallback;
    const record = this.object(channel, path);
    const nulls: string[] = [];
    for (const key of ["current_value", "value"]) {
      const value = record[key];
      if (value === null) {
        nulls.push(key);
      } else if (value !== undefined) {
        const number = this.number(value, `${path}/${key}`);
        this.#nullsRead(path, nulls, `its ${key} ${number} is used`);
        return number;
      }
    }
    const what = fallbackWhat ?? "the default";
    this.#nullsRead(path, nulls, `${Number.isFinite(fallback) ? `${what} ${fallback}` : what} is used`);
    return fallback;
  }

  /** Warns of a channel's `null` values (`keys`) read as absent; `used` says what was read instead. */
  #nullsRead(path: string, keys: readonly string[], used: string): void {
    if (keys.length === 0) return;
    this.repair(
      keys.length === 1 ? `${path}/${keys[0]}` : path,
      `${keys.join(" and ")} null (how JSON writers store NaN or infinity) read as absent; ${used}`,
    );
  }
}
