/**
 * Action records as stored on disk and on a remote cache: how one is packed from a node's encoded
 * outputs, and how one read back is parsed (its shape is checked by `record_schema.ts`). A record is
 * untrusted input (a damaged disk, a hostile or buggy server): anything else is a miss.
 *
 * @module
 */
import type { JsonValue, SocketType } from "../node.ts";
import { sha256Hex, valueDigest } from "../canonical.ts";
import type { ActionRecord, StoredOutput } from "./disk.ts";
import { type RecordExpectation, recordProblem } from "./record_schema.ts";

/** Values up to this size are stored inline in the action record. */
export const INLINE_LIMIT = 2048;

/** An encoded output ready to store. */
export interface EncodedOutput {
  /** The socket type, which selects the codec that decodes the bytes again. */
  readonly type: SocketType;
  /** The encoded value. */
  readonly bytes: Uint8Array;
  /** Codec metadata kept beside the bytes (e.g. a `bytes` value's file name). */
  readonly meta?: JsonValue;
}

/** A packed action: the record, and the blobs (by digest) it refers to that are not inline. */
export interface PackedAction {
  /** The record, with small outputs inline. */
  readonly record: ActionRecord;
  /** The bytes of every output not inline, by SHA-256 (hex). */
  readonly blobs: ReadonlyMap<string, Uint8Array>;
}

/** Whether `bytes` are what `stored` records of them: its size and SHA-256. */
export function holdsStored(bytes: Uint8Array, stored: StoredOutput): boolean {
  return bytes.byteLength === stored.size && sha256Hex(bytes) === stored.digest;
}

/** The bytes of an inline output, or undefined when they are not base64 or not what the record says. */
export function verifiedInline(stored: StoredOutput): Uint8Array | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(stored.inline!);
  } catch {
    return undefined;
  }
  return holdsStored(bytes, stored) ? bytes : undefined;
}

/**
 * Packs a node's encoded outputs into a record: small values inline, the rest as blobs by digest.
 *
 * @example
 * ```ts
 * import { packAction } from "./record.ts";
 *
 * const bytes = new Uint8Array(4096); // over the inline limit: stored as a blob
 * const base = { type: "io.read", warnings: [], reads: [], writes: [] };
 * const { record, blobs } = packAction(base, { bytes: { type: "bytes", bytes, meta: { name: "a.bin" } } });
 * console.log(record.outputs.bytes.digest === [...blobs.keys()][0]); // true
 * ```
 */
export function packAction(
  base: Omit<ActionRecord, "outputs" | "version">,
  outputs: Readonly<Record<string, EncodedOutput>>,
): PackedAction {
  const stored: Record<string, StoredOutput> = {};
  const blobs = new Map<string, Uint8Array>();
  for (const [name, out] of Object.entries(outputs)) {
    const digest = valueDigest(out.bytes);
    const entry = { type: out.type, digest, size: out.bytes.byteLength, meta: out.meta };
    if (out.bytes.byteLength <= INLINE_LIMIT) stored[name] = { ...entry, inline: out.bytes.toBase64() };
    else {
      stored[name] = entry;
      blobs.set(digest, out.bytes);
    }
  }
  return { record: { version: 1, ...base, outputs: stored }, blobs };
}

/**
 * The disk tier's form of a packed action: every output not inline whose bytes are a file the node
 * read (its digest is in `files`, digest → absolute path: `io.read`'s output) refers to that file
 * instead of carrying a blob, so the cache does not keep a second copy of every input model.
 *
 * @example
 * ```ts
 * import { packAction, referToFiles } from "./record.ts";
 *
 * const bytes = new Uint8Array(4096);
 * const base = { type: "io.read", warnings: [], reads: [], writes: [] };
 * const packed = packAction(base, { bytes: { type: "bytes", bytes } });
 * const digest = packed.record.outputs.bytes.digest;
 * const local = referToFiles(packed, new Map([[digest, "/models/ship.cmp"]]));
 * console.log(local.record.outputs.bytes.file, local.blobs.size); // "/models/ship.cmp" 0
 * ```
 */
export function referToFiles(packed: PackedAction, files: ReadonlyMap<string, string>): PackedAction {
  const outputs: Record<string, StoredOutput> = {};
  const blobs = new Map<string, Uint8Array>();
  for (const [name, stored] of Object.entries(packed.record.outputs)) {
    if (stored.inline !== undefined) outputs[name] = stored;
    else {
      const file = files.get(stored.digest);
      outputs[name] = file ? { ...stored, file } : stored;
      if (!file) blobs.set(stored.digest, packed.blobs.get(stored.digest)!);
    }
  }
  return { record: { ...packed.record, outputs }, blobs };
}

/**
 * Parses a stored record and checks its shape (and what `expect` says of it): the record, or why it
 * is not one. A damaged or hostile record is a miss, never a crash later in the run.
 */
export function parseActionRecord(text: string, expect?: RecordExpectation): ActionRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not valid JSON";
  }
  return recordProblem(value, expect) ?? value as ActionRecord;
}
