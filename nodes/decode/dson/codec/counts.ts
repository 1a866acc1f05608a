/**
 * Counted containers (`{count, values}`) whose `count` disagrees with their `values`. The decoder
 * reads `values`, as Diffeomorphic's importer does (Daz's own files are not held to `count`), but a
 * `values` list shorter than its count is what a truncated download or a bad hand edit leaves, and
 * drops polygons, weights or deltas without a word — so every disagreement is named here.
 *
 * @module
 */
import { describeJson, type JsonReader } from "./read_json.ts";

/** One kind of disagreeing container: its path with indices as `*`, and the first of that kind. */
interface Disagreement {
  first: string;
  count: unknown;
  length: number;
  more: number;
}

/**
 * Warns, through `read`'s repair sink, of every counted container in `json` whose `count` is not
 * the length of its `values`: one warning per kind (containers alike but for their indices, e.g.
 * every joint's `node_weights` of one binding), at the first one's JSON path, saying how many more.
 *
 * @example
 * ```ts
 * warnCountMismatches(file.json, file.read); // "… at /geometry_library/0/polylist: count 12 but 11 values …"
 * ```
 */
export function warnCountMismatches(json: unknown, read: JsonReader): void {
  const kinds = new Map<string, Disagreement>();
  const visit = (value: unknown, path: string, pattern: string): void => {
    if (Array.isArray(value)) {
      // Arrays of numbers or tuples (vertices, polygons, deltas: most of a file) hold no container;
      // DSON's arrays are of one kind, so the first element says which.
      const first = value[0];
      if (!first || typeof first !== "object" || Array.isArray(first)) return;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item && typeof item === "object" && !Array.isArray(item)) {
          visit(item, `${path}/${i}`, `${pattern}/*`);
        }
      }
      return;
    }
    if (!value || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if ("count" in record && (record.values === undefined || Array.isArray(record.values))) {
      const length = (record.values as unknown[] | undefined)?.length ?? 0;
      if (record.count !== length) {
        const seen = kinds.get(pattern);
        if (seen) seen.more++;
        else kinds.set(pattern, { first: path, count: record.count, length, more: 0 });
      }
    }
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child && typeof child === "object") visit(child, `${path}/${key}`, `${pattern}/${key}`);
    }
  };
  visit(json, "", "");
  for (const [pattern, { first, count, length, more }] of kinds) {
    const written = typeof count === "number" ? String(count) : describeJson(count);
    const others = more === 0 ? "" : `; ${more} more alike (${pattern || "/"})`;
    read.repair(
      first,
      `count ${written} but ${length} values${others}: the values are used and the count ignored, as ` +
        `importers read Daz content; a list shorter than its count is what a truncated or hand-edited ` +
        `file leaves`,
    );
  }
}
