/**
 * Action records as stored on disk and on a remote cache: how one is packed from a node's encoded
 * outputs, and how one read back is checked. A record is untrusted input (a damaged disk, a hostile
 * or buggy server): anything that is not exactly the expected shape is treated as a miss.
 *
 * @module
 */
import type { JsonValue, SocketType } from "../node.ts";
import { sha256Hex } from "../canonical.ts";
import type { ActionRecord, StoredOutput } from "./disk.ts";

/** Values up to this size are stored inline in the action record. */
export const INLINE_LIMIT = 2048;

/** An encoded output ready to store. */
export interface EncodedOutput {
  readonly type: SocketType;
  readonly bytes: Uint8Array;
  readonly meta?: JsonValue;
}

/** A packed action: the record, and the blobs (by digest) it refers to that are not inline. */
export interface PackedAction {
  readonly record: ActionRecord;
  readonly blobs: ReadonlyMap<string, Uint8Array>;
}

/**
 * Packs a node's encoded outputs into a record: small values inline, the rest as blobs by digest.
 *
 * @example
 * ```ts
 * const { record, blobs } = packAction({ type: "io.read", warnings: [], reads: [], writes: [] }, encoded);
 * ```
 */
export function packAction(
  base: Omit<ActionRecord, "outputs" | "version">,
  outputs: Readonly<Record<string, EncodedOutput>>,
): PackedAction {
  const stored: Record<string, StoredOutput> = {};
  const blobs = new Map<string, Uint8Array>();
  for (const [name, out] of Object.entries(outputs)) {
    const digest = sha256Hex(out.bytes);
    const entry = { type: out.type, digest, size: out.bytes.byteLength, meta: out.meta };
    if (out.bytes.byteLength <= INLINE_LIMIT) stored[name] = { ...entry, inline: out.bytes.toBase64() };
    else {
      stored[name] = entry;
      blobs.set(digest, out.bytes);
    }
  }
  return { record: { version: 1, ...base, outputs: stored }, blobs };
}

const SOCKET_TYPES = new Set(["bytes", "scene", "json", "string", "number", "boolean"]);
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Parses and checks a stored record; undefined when it is not valid JSON of exactly the record's
 * shape (so a damaged or hostile record is a miss, never a crash later in the run).
 */
export function parseActionRecord(text: string): ActionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isActionRecord(value) ? value : undefined;
}

function isActionRecord(value: unknown): value is ActionRecord {
  if (!isObject(value) || value.version !== 1 || typeof value.type !== "string") return false;
  if (!isObject(value.outputs) || !Object.values(value.outputs).every(isStoredOutput)) return false;
  const isWarning = (w: unknown) =>
    isObject(w) && typeof w.message === "string" && (w.detail === undefined || isObject(w.detail));
  if (!Array.isArray(value.warnings) || !value.warnings.every(isWarning)) return false;
  const isFile = (f: unknown) => isObject(f) && typeof f.path === "string" && SHA256.test(String(f.sha256));
  return Array.isArray(value.reads) && value.reads.every(isFile) &&
    Array.isArray(value.writes) && value.writes.every(isFile);
}

function isStoredOutput(value: unknown): boolean {
  return isObject(value) && SOCKET_TYPES.has(value.type as string) && SHA256.test(String(value.digest)) &&
    Number.isSafeInteger(value.size) && (value.size as number) >= 0 &&
    (value.inline === undefined || typeof value.inline === "string");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
