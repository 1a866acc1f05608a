/**
 * The way back from the upgraded 2.0 JSON of a glTF 1.0 file to the file's own JSON, so that what
 * the 2.0 checks find — before glTF-Transform reads the file and after (index values, joints, skin
 * attributes) — is named where the user's file has it: `/meshes/3/primitives/0/attributes/TEXCOORD_0`
 * becomes `/meshes/Geometry-mesh012/primitives/0/attributes/TEXCOORD`, "accessor 7" becomes
 * "accessor 'accessor_21'". The upgrade records each 2.0 item's 1.0 path, and each field that moved
 * or was renamed (a stride from an accessor to its view, `jointNames` to `joints`, a technique's
 * diffuse value to `baseColorTexture`, a second mesh of a node to a child node's `mesh`).
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";

/** glTF 2.0's top-level collections, by the word the checks' texts name one item with. */
const WORDS: Readonly<Record<string, string>> = {
  "accessor": "accessors",
  "buffer view": "bufferViews",
  "view": "bufferViews",
  "buffer": "buffers",
  "mesh": "meshes",
  "node": "nodes",
  "skin": "skins",
  "material": "materials",
  "texture": "textures",
  "image": "images",
  "sampler": "samplers",
  "animation": "animations",
  "camera": "cameras",
  "scene": "scenes",
};
const COLLECTION_NAMES = [...new Set(Object.values(WORDS))];
/**
 * A 2.0 JSON path into a collection (`/accessors/3/count`), or a word and index naming an item
 * (`accessor 3`, `buffer view 2`), in one pass so a 1.0 id put in is never read again.
 */
const REFERENCE = new RegExp(
  `(\\/(?:${COLLECTION_NAMES.join("|")})\\/\\d+(?:\\/[A-Za-z0-9_]+)*)` +
    `|\\b(${Object.keys(WORDS).join("|")}) (\\d+)\\b`,
  "g",
);

/** 1.0 paths of the upgraded JSON's items and moved fields. */
export class Gltf1Paths {
  readonly #items = new Map<string, readonly string[]>();
  readonly #moved = new Map<string, string>();

  /** Records the 1.0 path of each item of a 2.0 collection, by its 2.0 index. */
  items(collection: string, paths: readonly string[]): void {
    this.#items.set(collection, paths);
  }

  /** Records that the 2.0 path `upgraded` (and what lies below it) is `original` in the 1.0 file. */
  moved(upgraded: string, original: string): void {
    if (upgraded !== original) this.#moved.set(upgraded, original);
  }

  /**
   * The 1.0 path of a 2.0 JSON path: the longest recorded moved field it lies in, else its item's
   * path with the rest kept; a path outside every item as it is.
   *
   * @example
   * ```ts
   * const paths = new Gltf1Paths();
   * paths.items("nodes", ["/nodes/node-Wing"]);
   * paths.pathOf("/nodes/0/rotation"); // "/nodes/node-Wing/rotation"
   * ```
   */
  pathOf(path: string): string {
    const segments = path.split("/");
    for (let k = segments.length; k >= 3; k--) {
      const known = this.#moved.get(segments.slice(0, k).join("/"));
      if (known !== undefined) return [known, ...segments.slice(k)].join("/");
    }
    if (!/^\d+$/.test(segments[2] ?? "")) return path;
    const item = this.#items.get(segments[1])?.[Number(segments[2])];
    return item === undefined ? path : [item, ...segments.slice(3)].join("/");
  }

  /**
   * `text` with every 2.0 path and item it names ("accessor 3", "skin 0") named as in the 1.0 file:
   * an item by its id (`accessor 'accessor_21'`), or by its path where it has no id of its own (a
   * node made for a node's second mesh: `node at /nodes/node-Wing/meshes/1`).
   */
  textOf(text: string): string {
    return text.replace(REFERENCE, (match, path?: string, word?: string, index?: string) => {
      if (path) return this.pathOf(path);
      const collection = WORDS[word!];
      const original = this.#items.get(collection)?.[Number(index)];
      if (original === undefined) return match;
      const id = new RegExp(`^/${collection}/([^/]*)$`).exec(original)?.[1];
      return id === undefined ? `${word} at ${original}` : `${word} '${unpointer(id)}'`;
    });
  }

  /**
   * A {@link DecodeError} at a 2.0 path, moved to its 1.0 path and with its texts naming the 1.0
   * file's items; anything else as it is.
   */
  relocate(error: unknown): unknown {
    if (!(error instanceof DecodeError)) return error;
    const at = "jsonPath" in error.at ? { jsonPath: this.pathOf(error.at.jsonPath) } : error.at;
    const expected = this.textOf(error.expected);
    const found = this.textOf(error.found);
    if (
      expected === error.expected && found === error.found &&
      (!("jsonPath" in at) || !("jsonPath" in error.at) || at.jsonPath === error.at.jsonPath)
    ) {
      return error;
    }
    return new DecodeError({ format: error.format, at, expected, found, file: error.file }, { cause: error });
  }
}

/** A JSON Pointer segment's text (RFC 6901). */
function unpointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}
