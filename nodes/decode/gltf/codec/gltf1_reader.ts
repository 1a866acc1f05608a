/**
 * Typed reading of glTF 1.0 JSON for the upgrade to 2.0 (`gltf1.ts`): 1.0 keeps each collection as
 * a dictionary keyed by id, and refers to items by id. Every wrong type or unknown id is a
 * {@link DecodeError} at its 1.0 JSON path (`/nodes/node-Wing/children/0`), and each collection's
 * ids get the array indices they have in the 2.0 file. `null` reads as absent, as the 2.0 check
 * reads it.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import type { GltfSource } from "./container.ts";
import type { Json } from "./checker.ts";
import { Gltf1Paths } from "./gltf1_paths.ts";

/** A JSON Pointer segment: `~` and `/` escaped (RFC 6901), so an id like `a/b` names one key. */
export function pointer(id: string): string {
  return id.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A short description of a JSON value for "found" texts (as `container.ts` gives them). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  return String(value);
}

/** Reads one glTF 1.0 document's JSON, failing at 1.0 JSON paths. */
export class Gltf1Reader {
  readonly #index = new Map<string, Map<string, number>>();
  readonly #items = new Map<string, [string, Json][]>();
  /** Where the upgrade put each 1.0 item and field in the 2.0 JSON, recorded as it goes. */
  readonly paths: Gltf1Paths = new Gltf1Paths();

  /** Wraps the 1.0 JSON of the file `source`. */
  constructor(readonly json: Json, readonly source: GltfSource) {}

  /** Throws the typed error for `path`. */
  fail(path: string, expected: string, value: unknown): never {
    throw new DecodeError({
      format: this.source.format,
      at: { jsonPath: path },
      expected,
      found: describeValue(value),
      file: this.source.file,
    });
  }

  /** A collection's `[id, item]` pairs in the file's order (each item checked to be an object), [] when absent. */
  items(collection: string): [string, Json][] {
    const known = this.#items.get(collection);
    if (known) return known;
    const dict = this.json[collection] ?? {};
    if (typeof dict !== "object" || Array.isArray(dict)) {
      this.fail(`/${collection}`, "an object of items keyed by id (glTF 1.0)", dict);
    }
    const items: [string, Json][] = [];
    const index = new Map<string, number>();
    for (const [id, item] of Object.entries(dict as Json)) {
      if (item === null) continue;
      this.object(item, `/${collection}/${pointer(id)}`);
      index.set(id, items.length);
      items.push([id, item as Json]);
    }
    this.#items.set(collection, items);
    this.#index.set(collection, index);
    return items;
  }

  /** The 2.0 index of the item `id` refers to in `collection`, read at `path`. */
  ref(collection: string, id: unknown, path: string): number {
    if (typeof id !== "string") this.fail(path, `the id of one of /${collection} (a string)`, id);
    this.items(collection);
    const index = this.#index.get(collection)!.get(id);
    if (index === undefined) this.fail(path, `the id of one of /${collection}`, id);
    return index;
  }

  /** Whether `id` names an item of `collection`. */
  has(collection: string, id: unknown): boolean {
    this.items(collection);
    return typeof id === "string" && this.#index.get(collection)!.has(id);
  }

  /** An optional field that must be an object; undefined when absent or null. */
  optionalObject(item: Json, key: string, path: string): Json | undefined {
    const value = item[key];
    if (value === undefined || value === null) return undefined;
    return this.object(value, `${path}/${key}`);
  }

  /** An optional array field; [] when absent or null. */
  array(item: Json, key: string, path: string): unknown[] {
    const value = item[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(`${path}/${key}`, "an array", value);
    return value;
  }

  /** `value` as an object, or the error at `path`. */
  object(value: unknown, path: string): Json {
    if (!value || typeof value !== "object" || Array.isArray(value)) this.fail(path, "an object", value);
    return value as Json;
  }
}

/**
 * The fields of a 1.0 item that mean the same in 2.0 (`name`, `extras`, `extensions`), with the id
 * as the name where it has none, so the names a model's parts are known by survive.
 */
export function commonFields(id: string, item: Json): Json {
  const out: Json = { name: typeof item.name === "string" && item.name !== "" ? item.name : id };
  if (item.extras !== undefined && item.extras !== null) out.extras = item.extras;
  return out;
}
