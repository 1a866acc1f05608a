/**
 * Bytes derived from bytes by a pure function — a texture's PNG from the DDS or Targa image a model
 * stores — remembered across runs by the disk cache of the node run in progress. A decoder asks
 * {@link recallDerived} before the work and hands the result to {@link rememberDerived} after; the
 * executor runs every node inside {@link withDerivedStore}, so the store is the one of the run the
 * node belongs to (none with `--no-cache` or without a disk tier: then both do nothing).
 *
 * Why: deflating a model's textures is a third of decoding a textured Freelancer compound, and ship
 * families share texture libraries, so every process that decodes one of them encoded the same
 * images again.
 *
 * @module
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { TOOL_VERSIONS } from "./version.ts";

/** Where derived bytes are kept: a disk cache (`DiskCache.derivedStore`). */
export interface DerivedStore {
  /** The bytes kept under `key`, verified, or undefined. */
  recall(key: string): Uint8Array | undefined;
  /** Keeps `bytes` under `key` (written in the background; a failure only costs the next run time). */
  remember(key: string, bytes: Uint8Array): void;
}

/** The store of the node run in progress; made with the first store (a run without a disk tier needs none). */
let current: AsyncLocalStorage<DerivedStore | undefined> | undefined;

/** Runs `work` (a node's run) with `store` as the store its derived bytes go to. */
export async function withDerivedStore<T>(
  store: DerivedStore | undefined,
  work: () => T | Promise<T>,
): Promise<T> {
  if (!store && !current) return await work();
  // Loaded on first use: a run without a disk cache never pays for node:async_hooks.
  current ??= new (await import("node:async_hooks")).AsyncLocalStorage();
  return await current.run(store, work);
}

/**
 * The bytes `kind` (a name for the function, with its version: `"png-of-stored-image 1"`) derived
 * from the input identified by `input` (a digest of it) in an earlier run, if the cache kept them.
 *
 * @example
 * ```ts
 * import { recallDerived, rememberDerived } from "./derived.ts";
 *
 * const input = "0f".repeat(32); // the digest of what the bytes are made from
 * const png = recallDerived("png-of-stored-image 1", input) ?? new Uint8Array([1, 2, 3]);
 * rememberDerived("png-of-stored-image 1", input, png);
 * ```
 */
export function recallDerived(kind: string, input: string): Uint8Array | undefined {
  return current?.getStore()?.recall(derivedKey(kind, input));
}

/** Keeps what {@link recallDerived} would give for `kind` and `input` next time. */
export function rememberDerived(kind: string, input: string, bytes: Uint8Array): void {
  current?.getStore()?.remember(derivedKey(kind, input), bytes);
}

/** The cache key of derived bytes: the function, its input, and the versions of every tool (fflate's too). */
function derivedKey(kind: string, input: string): string {
  return sha256Hex(canonicalJson({ derived: kind, input, tools: TOOL_VERSIONS }));
}
