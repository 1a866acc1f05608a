/**
 * Deterministic sharding: each input belongs to one shard, decided by a stable hash of its path
 * relative to the batch's base, so N machines split a batch with no coordinator — a CI matrix, an
 * indexed Kubernetes Job or a loop over hosts just passes `--shard I/N`.
 *
 * @module
 */
import { sha256Hex } from "../runtime/canonical.ts";

/** A shard: `index` of `count`, counting from 1. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Parses `I/N` (1 ≤ I ≤ N); throws a `RangeError` naming what was wrong.
 *
 * @example
 * ```ts
 * parseShard("2/3"); // { index: 2, count: 3 }
 * ```
 */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]), count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || count > 1_000_000) {
    throw new RangeError(`--shard expects I/N with 1 <= I <= N, found '${text}'`);
  }
  return { index, count };
}

/** The shard (1-based) that `rel` belongs to among `count`: the first 48 bits of SHA-256(rel) mod count. */
export function shardOf(rel: string, count: number): number {
  return parseInt(sha256Hex(rel).slice(0, 12), 16) % count + 1;
}

/** The inputs of `shard` (all of them without one), in their order. */
export function inShard<T extends { readonly rel: string }>(
  inputs: readonly T[],
  shard?: Shard,
): readonly T[] {
  return shard ? inputs.filter((input) => shardOf(input.rel, shard.count) === shard.index) : inputs;
}

/** Formats a shard as `I/N`. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
