/**
 * Read variants: the results of one action key that differ by what the files the node read held.
 * A node that reads files its key cannot name in advance (a library found by search, a DSON content
 * folder) has one key for every state of those files, so two checkouts with different libraries, or
 * a branch and main sharing a remote cache, would replace each other's record under that key and
 * each compute again after the other. So a result is stored under its key and also under a variant
 * key made of the key and what it read; a record found stale names the paths it (and the variants
 * before it) read, and the lookup asks for the variant of what those paths hold now.
 *
 * @module
 */
import { canonicalJson, sha256Hex } from "../canonical.ts";
import type { FileDigest } from "./disk.ts";
import { READ_SETS } from "./record_schema.ts";

/**
 * The key a result of `key` is stored under as the variant that read `reads` (in any order).
 *
 * @example
 * ```ts
 * import { variantKey } from "./read_variants.ts";
 *
 * const key = "ab".repeat(32);
 * const green = variantKey(key, [{ path: "lib/paint.mat", sha256: "01".repeat(32) }]);
 * const red = variantKey(key, [{ path: "lib/paint.mat", sha256: "02".repeat(32) }]);
 * console.log(green !== red, green.length); // true 64
 * ```
 */
export function variantKey(key: string, reads: readonly FileDigest[]): string {
  const sorted = reads.map((read) => [read.path, read.sha256]).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return sha256Hex(canonicalJson({ variantOf: key, reads: sorted }));
}

/** The sorted paths of `reads`: a read set as records keep it. */
export function readPaths(reads: readonly FileDigest[]): string[] {
  return reads.map((read) => read.path).sort();
}

/** What a stale result tells of the variants of its key. */
export interface StaleResult {
  readonly reads: readonly FileDigest[];
  readonly readSets?: readonly (readonly string[])[];
}

/**
 * The distinct non-empty read sets of `stale` (each one's own reads first, then the sets it names),
 * at most {@link READ_SETS}: where a lookup looks for the variant that holds.
 *
 * @example
 * ```ts
 * import { readSetsOf } from "./read_variants.ts";
 *
 * const a = { path: "a.mat", sha256: "01".repeat(32) };
 * const b = { path: "b.mat", sha256: "02".repeat(32) };
 * console.log(readSetsOf([{ reads: [b, a], readSets: [["a.mat", "b.mat"], ["a.mat"]] }]));
 * // [["a.mat", "b.mat"], ["a.mat"]]
 * ```
 */
export function readSetsOf(stale: readonly StaleResult[]): string[][] {
  const sets = new Map<string, string[]>();
  const add = (paths: string[]) => {
    if (paths.length) sets.set(JSON.stringify(paths), paths);
  };
  for (const result of stale) add(readPaths(result.reads));
  for (const result of stale) for (const set of result.readSets ?? []) add([...set].sort());
  return [...sets.values()].slice(0, READ_SETS);
}

/** The read sets a new result of a key keeps: those seen before it, but its own. */
export function otherReadSets(seen: readonly string[][], reads: readonly FileDigest[]): string[][] {
  const own = JSON.stringify(readPaths(reads));
  return seen.filter((set) => JSON.stringify(set) !== own);
}

/** Whether two read lists record the same digests for the same paths. */
export function sameReads(a: readonly FileDigest[], b: readonly FileDigest[]): boolean {
  return a.length === b.length && variantKey("", a) === variantKey("", b);
}
