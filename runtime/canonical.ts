/**
 * Canonical JSON and SHA-256, the two primitives of cache keys, digests and manifests.
 *
 * @module
 */
import process from "node:process";

/**
 * JSON with object keys sorted at every level and no whitespace, so equal values give equal text.
 * `-0` is written as `0`; non-finite numbers are rejected (they have no JSON form).
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot encode ${value} as JSON`);
    return JSON.stringify(Object.is(value, -0) ? 0 : value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
  }
  throw new TypeError(`cannot encode a ${typeof value} as JSON`);
}

/**
 * SHA-256 of bytes or of a string's UTF-8, as lower-case hex. Synchronous (node:crypto): keys are
 * computed for every node of every run, and the async WebCrypto call costs more than the hashing.
 */
export function sha256Hex(data: Uint8Array | string): string {
  return newSha256().update(data).digest("hex");
}

/** A node:crypto SHA-256, the module loaded on first use: importing it costs start-up time that `partgraph nodes` never needs. */
function newSha256() {
  createHash ??= (process.getBuiltinModule("node:crypto") as typeof import("node:crypto")).createHash;
  return createHash("sha256");
}

let createHash: typeof import("node:crypto").createHash | undefined;

/**
 * An incremental {@link sha256Hex}: the parts of some bytes given in order to `update`, then `hex`.
 *
 * @example
 * ```ts
 * import { sha256Hasher, sha256Hex } from "./canonical.ts";
 *
 * const hasher = sha256Hasher();
 * hasher.update(new TextEncoder().encode("ab"));
 * hasher.update(new TextEncoder().encode("c"));
 * console.log(hasher.hex() === sha256Hex("abc")); // true
 * ```
 */
export function sha256Hasher(): { update(part: Uint8Array): void; hex(): string } {
  const hash = newSha256();
  return { update: (part) => void hash.update(part), hex: () => hash.digest("hex") };
}

/**
 * {@link sha256Hex} of a value's bytes, hashed once per array: a file read, cached and written in
 * one run is the same `Uint8Array` throughout (the read's digest, the source key, the cache blob,
 * the written file's digest), and hashing a big model costs about a second per 300 MB. Only for
 * bytes that are a node's value, which are immutable by contract; never for scratch buffers.
 *
 * @example
 * ```ts
 * import { valueDigest } from "./canonical.ts";
 *
 * const bytes = new TextEncoder().encode("abc");
 * console.log(valueDigest(bytes) === valueDigest(bytes)); // true, hashed once
 * ```
 */
export function valueDigest(bytes: Uint8Array): string {
  let digest = valueDigests.get(bytes);
  if (digest === undefined) valueDigests.set(bytes, digest = sha256Hex(bytes));
  return digest;
}

/**
 * Tells {@link valueDigest} the digest of a value's bytes, hashed as they were read (`fs.ts`'s
 * `readWholeFile` with a {@link sha256Hasher}), so they are not hashed again.
 */
export function knownValueDigest(bytes: Uint8Array, digest: string): string {
  valueDigests.set(bytes, digest);
  return digest;
}

const valueDigests = new WeakMap<Uint8Array, string>();

/**
 * A copy of a JSON value with object keys sorted at every level (for pretty, byte-stable output,
 * where {@link canonicalJson}'s compact form is not wanted).
 */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeysDeep) as T;
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((k) => [k, sortKeysDeep(record[k])])) as T;
  }
  return value;
}
