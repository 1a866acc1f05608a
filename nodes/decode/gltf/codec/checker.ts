/**
 * The reading helpers of the glTF structure check: typed access to glTF JSON where every wrong
 * type, range or index is a {@link DecodeError} naming its JSON path.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import { describe, gltfError, type GltfSource } from "./container.ts";

/** A JSON object of a glTF file. */
export type Json = Record<string, unknown>;

/** Reads one glTF document's JSON and resources; each collection is checked to hold objects once. */
export class Checker {
  /** The document's JSON. */
  readonly json: Json;
  /** Wraps a split glTF (JSON + resources) and the source it came from, for errors. */
  constructor(readonly doc: JSONDocument, readonly source: GltfSource) {
    this.json = doc.json as unknown as Json;
  }

  /**
   * What the check repaired in the JSON (messy but not damaged content: a rotation a little off unit
   * length, a factor past 1, an unknown sampler enum), each with its JSON path, for the decoder's
   * warnings.
   */
  readonly repairs: string[] = [];

  /** Records a repair made at `path`. */
  repaired(path: string, what: string): void {
    this.repairs.push(`${path}: ${what}`);
  }

  /**
   * Lists extension `name` in `extensionsUsed` when the file uses it at `path` without saying so:
   * glTF-Transform reads no extension the list leaves out, so a meshopt view would be read as raw
   * bytes and a Draco primitive as its placeholder accessors, where the file's intent is plain.
   */
  declareUsed(name: string, path: string): void {
    const used = (this.json.extensionsUsed ??= []) as string[];
    if (used.includes(name)) return;
    used.push(name);
    this.repaired("/extensionsUsed", `'${name}' added: ${path} uses it`);
  }

  fail(path: string, expected: string, value: unknown): never {
    throw gltfError(this.source, { jsonPath: path }, expected, describe(value));
  }

  readonly #lists = new Map<string, Json[]>();

  /** The collection's items (each checked to be an object, once), or [] when absent. */
  list(name: string): Json[] {
    const known = this.#lists.get(name);
    if (known) return known;
    const value = this.json[name] ?? [];
    if (!Array.isArray(value)) this.fail(`/${name}`, "an array", value);
    // The path is made only for a failure: a list of a million nodes would make a million strings.
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (!item || typeof item !== "object" || Array.isArray(item)) this.object(item, `/${name}/${i}`);
    }
    this.#lists.set(name, value);
    return value as Json[];
  }

  object(value: unknown, path: string): Json {
    if (!value || typeof value !== "object" || Array.isArray(value)) this.fail(path, "an object", value);
    return value as Json;
  }

  /** An optional non-negative integer field, below `limit` when given. */
  int(item: Json, key: string, path: string, limit = Number.MAX_SAFE_INTEGER, min = 0): number | undefined {
    const value = item[key];
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || (value as number) < min || (value as number) >= limit) {
      const range = limit === Number.MAX_SAFE_INTEGER
        ? `≥ ${min}`
        : limit > min
        ? `in ${min}..${limit - 1}`
        : `index (there are ${limit})`;
      this.fail(`${path}/${key}`, `an integer ${range}`, value);
    }
    return value as number;
  }

  index(item: Json, key: string, path: string, collection: string): number | undefined {
    return this.int(item, key, path, this.count(collection));
  }

  /** A buffer's bytes: its data URI's, or for the first buffer without one, the GLB chunk's. */
  bufferData(i: number): Uint8Array | undefined {
    const uri = this.list("buffers")[i].uri;
    return typeof uri === "string"
      ? this.doc.resources[uri]
      : i === 0
      ? this.doc.resources["@glb.bin"]
      : undefined;
  }

  count(collection: string): number {
    const value = this.json[collection];
    return Array.isArray(value) ? value.length : 0;
  }

  /**
   * An optional array of finite numbers (`length` of them, when given). A wrong element is named by
   * its own path: JSON writers write NaN and ±Infinity as `null`, and "an array of 16" alone would
   * not show where.
   */
  numbers(item: Json, key: string, path: string, length?: number): void {
    const value = item[key];
    if (value === undefined) return;
    if (!Array.isArray(value) || (length !== undefined && value.length !== length)) {
      this.fail(`${path}/${key}`, `an array of ${length ?? "any number of"} finite numbers`, value);
    }
    const bad = value.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      const wrong = value.filter((v) => !Number.isFinite(v)).length;
      const others = wrong > 1
        ? `; ${wrong - 1} more of its ${value.length} are not finite numbers either`
        : "";
      const found = value[bad] === null
        ? "null, as JSON writers write NaN and ±Infinity"
        : describe(value[bad]);
      throw gltfError(this.source, { jsonPath: `${path}/${key}/${bad}` }, "a finite number", found + others);
    }
  }

  /** An optional finite number at `item[key]`. */
  finite(item: Json, key: string, path: string): number | undefined {
    const value = item[key];
    if (value !== undefined && !Number.isFinite(value)) this.fail(`${path}/${key}`, "a finite number", value);
    return value as number | undefined;
  }

  oneOf(item: Json, key: string, path: string, values: unknown[]): void {
    if (item[key] !== undefined && !values.includes(item[key])) {
      this.fail(`${path}/${key}`, `one of ${values.join(", ")}`, item[key]);
    }
  }

  /**
   * A string field whose values glTF's schema leaves open (the Khronos validator accepts another
   * string, with a warning, and viewers read it as they can): a known value in another case is
   * given glTF's spelling (`"blend"` → `"BLEND"`); another string is left to `otherwise`, which
   * settles it in `item` and says how (the end of the repair's message), or returns undefined when
   * it cannot, and the value fails as any wrong value does.
   */
  openEnum(
    item: Json,
    key: string,
    path: string,
    values: readonly string[],
    otherwise: (value: string) => string | undefined,
  ): void {
    const value = item[key];
    if (value === undefined || values.includes(value as string)) return;
    if (typeof value === "string") {
      const known = values.find((v) => v.toLowerCase() === value.toLowerCase());
      if (known) item[key] = known;
      const settled = known ? `read as '${known}'` : otherwise(value);
      if (settled) return this.repaired(`${path}/${key}`, `${describe(value)} ${settled}`);
    }
    this.fail(`${path}/${key}`, `one of ${values.join(", ")}`, value);
  }

  indexList(item: Json, key: string, path: string, collection: string): number[] {
    const value = item[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail(`${path}/${key}`, "an array of indices", value);
    const limit = this.count(collection);
    // Paths (and the index's name) are made only for a failure, which `index` then names: a scene
    // listing a million roots would make a million strings.
    for (let i = 0; i < value.length; i++) {
      const index = value[i];
      if (!Number.isInteger(index) || index < 0 || index >= limit) {
        this.index(value as unknown as Json, String(i), `${path}/${key}`, collection);
      }
    }
    return value as number[];
  }
}

/**
 * The top-level arrays of objects glTF 2.0 defines: the same collections glTF 1.0 keys by id in
 * dictionaries.
 */
export const COLLECTIONS: readonly string[] = [
  "accessors",
  "animations",
  "buffers",
  "bufferViews",
  "cameras",
  "images",
  "materials",
  "meshes",
  "nodes",
  "samplers",
  "scenes",
  "skins",
  "textures",
];
