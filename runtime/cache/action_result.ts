/**
 * Action records on a remote cache, as Bazel's own `ActionResult` messages (Remote Execution API v2,
 * `build.bazel.remote.execution.v2.ActionResult`, protobuf). Servers that hold Bazel's cache check
 * what is `PUT` under `/ac/`: bazel-remote, by default, refuses a body that is not an
 * `ActionResult`, rewrites the message it stores (it adds the uploader's address as
 * `execution_metadata.worker`), and answers a `GET` with 404 while a blob the message lists is
 * missing from `/cas/`. So partgraph's record (its JSON, as on disk) travels in `stdout_raw`, and
 * every blob it refers to is listed in `output_files` (path: the output's name), so such a server
 * takes the record, keeps it only while its blobs are there, and a team's existing Bazel cache can
 * serve partgraph too, with no setting changed.
 *
 * Only the wire format's few parts these messages use are written here; reading skips every field
 * it does not need, as protobuf readers do, and a body that is not well-formed is named, never
 * thrown on.
 *
 * @module
 */

/** One output the record refers to by digest (an `OutputFile` without contents). */
export interface ListedBlob {
  /** The output's name, the `OutputFile`'s path. */
  readonly path: string;
  /** SHA-256 (hex) of its bytes. */
  readonly digest: string;
  /** Its size in bytes. */
  readonly size: number;
}

/** `ActionResult.output_files` (repeated `OutputFile`). */
const OUTPUT_FILES = 2;
/** `ActionResult.stdout_raw` (bytes). */
const STDOUT_RAW = 5;
/** `OutputFile.path` and `Digest.hash` (strings). */
const PATH = 1;
const HASH = 1;
/** `OutputFile.digest` (`Digest`). */
const DIGEST = 2;
/** `Digest.size_bytes` (int64). */
const SIZE_BYTES = 2;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

const encoder = new TextEncoder();

/**
 * The `ActionResult` that carries `record` (the record's JSON bytes) and lists `blobs`.
 *
 * @example
 * ```ts
 * import { actionResultOf, recordOfActionResult } from "./action_result.ts";
 *
 * const record = new TextEncoder().encode('{"version":1}');
 * const message = actionResultOf(record, [{ path: "scene", digest: "ab".repeat(32), size: 4096 }]);
 * console.log(recordOfActionResult(message)); // the record's bytes again
 * ```
 */
export function actionResultOf(record: Uint8Array, blobs: readonly ListedBlob[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const blob of blobs) {
    const digest = [lengthField(HASH, encoder.encode(blob.digest)), varintField(SIZE_BYTES, blob.size)];
    parts.push(
      lengthField(
        OUTPUT_FILES,
        join([lengthField(PATH, encoder.encode(blob.path)), lengthField(DIGEST, join(digest))]),
      ),
    );
  }
  parts.push(lengthField(STDOUT_RAW, record));
  return join(parts);
}

/**
 * The record an `ActionResult` carries (its `stdout_raw`), or why `bytes` are not such a message. A
 * body that starts with `{` is taken as a record itself: what releases before this one uploaded.
 */
export function recordOfActionResult(bytes: Uint8Array): Uint8Array | string {
  if (bytes[0] === 0x7b) return bytes; // '{' would be field 15 as a group: never an ActionResult
  let record: Uint8Array | undefined;
  let at = 0;
  while (at < bytes.length) {
    const tag = readVarint(bytes, at);
    if (typeof tag === "string") return tag;
    at = tag.end;
    const field = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    if (field === 0) return `field number 0 at byte ${tag.end - 1}`;
    if (wireType === VARINT) {
      const value = readVarint(bytes, at);
      if (typeof value === "string") return value;
      at = value.end;
    } else if (wireType === FIXED64 || wireType === FIXED32) {
      at += wireType === FIXED64 ? 8 : 4;
      if (at > bytes.length) return `a fixed-size field runs past the end (${bytes.length} bytes)`;
    } else if (wireType === LENGTH_DELIMITED) {
      const length = readVarint(bytes, at);
      if (typeof length === "string") return length;
      const end = length.end + length.value;
      if (end > bytes.length) {
        return `field ${field} at byte ${at} is ${length.value} bytes long, past the end (${bytes.length} bytes)`;
      }
      if (field === STDOUT_RAW) record = bytes.subarray(length.end, end);
      at = end;
    } else {
      return `wire type ${wireType} (field ${field}) at byte ${tag.end - 1}, which ActionResult does not use`;
    }
  }
  return record ?? "no stdout_raw: not a partgraph record";
}

/** A varint at `at`: its value (safe integers only) and where it ends, or why there is none. */
function readVarint(bytes: Uint8Array, at: number): { value: number; end: number } | string {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 8; i++) {
    value += (bytes[i] & 0x7f) * scale;
    if (bytes[i] < 0x80) return { value, end: i + 1 };
    scale *= 128;
  }
  // Eight bytes hold 56 bits: more than any length or tag in a body of at most 16 MB.
  return at + 8 <= bytes.length
    ? `a varint at byte ${at} is longer than 8 bytes`
    : `a varint at byte ${at} runs past the end (${bytes.length} bytes)`;
}

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return out;
}

function varintField(field: number, value: number): Uint8Array {
  return Uint8Array.from([...varint(field * 8 + VARINT), ...varint(value)]);
}

function lengthField(field: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  return join([Uint8Array.from([...varint(field * 8 + LENGTH_DELIMITED), ...varint(body.length)]), body]);
}

function join(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
