/**
 * One parsed DSON file with every addressable id indexed: library entries (geometry, node, uv_set,
 * modifier, material, image) and the instances of its `scene`. DSON ids are unique per file
 * across all kinds (spec "Asset Addressing"), so one map serves every lookup.
 *
 * @module
 */
import type { JsonReader, JsonRecord } from "./read_json.ts";
import { fileKey, parseDsonUri } from "./uri.ts";

/** The kinds of thing a DSON id can name. */
export type DsonKind =
  | "geometry"
  | "node"
  | "uv_set"
  | "modifier"
  | "material"
  | "image"
  | "node_instance"
  | "geometry_instance"
  | "modifier_instance"
  | "material_instance"
  | "uv_set_instance";

/** An indexed object: its kind, JSON and JSON pointer. */
export interface DsonEntry {
  readonly kind: DsonKind;
  readonly value: JsonRecord;
  readonly path: string;
  /** The file holding it. */
  readonly file: DsonFile;
}

/** A parsed, indexed DSON file. */
export interface DsonFile {
  /** Cache key (lower-case content path), or the asset id for the file being decoded. */
  readonly key: string;
  /** Where it was read from (a content-root path or the input name). */
  readonly source: string;
  readonly json: JsonRecord;
  readonly read: JsonReader;
  /** Every id in the file. */
  readonly ids: Map<string, DsonEntry>;
}

const LIBRARIES: readonly [string, DsonKind][] = [
  ["geometry_library", "geometry"],
  ["node_library", "node"],
  ["uv_set_library", "uv_set"],
  ["modifier_library", "modifier"],
  ["material_library", "material"],
  ["image_library", "image"],
];

const SCENE_LISTS: readonly [string, DsonKind][] = [
  ["nodes", "node_instance"],
  ["modifiers", "modifier_instance"],
  ["materials", "material_instance"],
];

/**
 * Checks the top-level shape of a DSON file and indexes its ids.
 *
 * @example
 * ```ts
 * const file = indexDsonFile(json, new JsonReader("a.duf"), "/data/a.duf", "a.duf");
 * file.ids.get("hip")?.kind; // "node"
 * ```
 */
export function indexDsonFile(value: unknown, read: JsonReader, key: string, source: string): DsonFile {
  const json = read.object(value, "");
  const ids = new Map<string, DsonEntry>();
  const file: DsonFile = { key, source, json, read, ids };
  const add = (kind: DsonKind, item: unknown, path: string) => {
    const record = read.object(item, path);
    const id = read.string(record.id, `${path}/id`);
    // First definition wins, as Daz does when a file repeats an id.
    if (!ids.has(id)) ids.set(id, { kind, value: record, path, file });
  };
  for (const [library, kind] of LIBRARIES) {
    read.optArray(json[library], `/${library}`).forEach((item, i) => add(kind, item, `/${library}/${i}`));
  }
  const scene = read.optObject(json.scene, "/scene");
  if (scene) {
    for (const [list, kind] of SCENE_LISTS) {
      read.optArray(scene[list], `/scene/${list}`).forEach((item, i) =>
        add(kind, item, `/scene/${list}/${i}`)
      );
    }
    // The spec's uv_set_instance (`{id, url, parent}`), which a material instance's `uv_set` may
    // name. Read only where it is needed: an entry without a string id was never an error.
    if (Array.isArray(scene.uvs)) {
      scene.uvs.forEach((item, i) => {
        const id = (item as { id?: unknown } | null)?.id;
        if (typeof id === "string") add("uv_set_instance", item, `/scene/uvs/${i}`);
      });
    }
    read.optArray(scene.nodes, "/scene/nodes").forEach((item, i) => {
      const node = read.object(item, `/scene/nodes/${i}`);
      read.optArray(node.geometries, `/scene/nodes/${i}/geometries`).forEach((geometry, g) => {
        const path = `/scene/nodes/${i}/geometries/${g}`;
        if (read.object(geometry, path).id !== undefined) add("geometry_instance", geometry, path);
      });
    });
  }
  return file;
}

/**
 * The id a URI names inside `file`, or undefined when the URI points into another file (an empty
 * file path means "this file").
 *
 * @example
 * ```ts
 * idInFile("#hip", file); // "hip"
 * idInFile("/data/other.dsf#hip", file); // undefined, unless `file` is /data/other.dsf
 * ```
 */
export function idInFile(uri: string, file: DsonFile): string | undefined {
  const parts = parseDsonUri(uri);
  return parts.filePath !== "" && fileKey(parts.filePath) !== file.key ? undefined : parts.id;
}
