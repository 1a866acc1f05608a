/**
 * The GLB container of a written file: header, JSON chunk and optional BIN chunk, checked against
 * the validator's GLB rules. Anything but the one layout glTF-Transform writes (JSON then BIN, no
 * other chunks, no trailing bytes) is left to the Khronos validator.
 *
 * @module
 */
import { outside } from "./verdict.ts";

const GLB_MAGIC = 0x46546c67, JSON_CHUNK = 0x4e4f534a, BIN_CHUNK = 0x004e4942;

/** A GLB's parts: its JSON text bytes and its binary chunk (absent when the file has none). */
export interface GlbParts {
  readonly json: Uint8Array;
  readonly bin?: Uint8Array;
}

/**
 * Splits a GLB into its chunks.
 *
 * @example
 * ```ts ignore
 * const { json, bin } = splitGlb(bytes);
 * ```
 */
export function splitGlb(bytes: Uint8Array): GlbParts {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20) outside("GLB shorter than its header and first chunk header", "/");
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(4, true) !== 2) {
    outside("not a version 2 GLB header", "/");
  }
  if (view.getUint32(8, true) !== bytes.byteLength) outside("GLB length field differs from its size", "/");
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== JSON_CHUNK || jsonLength === 0 || jsonLength % 4 !== 0) {
    outside("first chunk not a non-empty, aligned JSON chunk", "/");
  }
  const jsonEnd = 20 + jsonLength;
  if (jsonEnd > bytes.byteLength) outside("JSON chunk past the end of the GLB", "/");
  const json = bytes.subarray(20, jsonEnd);
  if (jsonEnd === bytes.byteLength) return { json };
  if (jsonEnd + 8 > bytes.byteLength) outside("truncated chunk header after the JSON chunk", "/");
  const binLength = view.getUint32(jsonEnd, true);
  if (view.getUint32(jsonEnd + 4, true) !== BIN_CHUNK || binLength === 0 || binLength % 4 !== 0) {
    outside("second chunk not a non-empty, aligned BIN chunk", "/");
  }
  // Exactly the two chunks: a third (or extra bytes) is for the validator to judge.
  if (jsonEnd + 8 + binLength !== bytes.byteLength) outside("data after the BIN chunk", "/");
  return { json, bin: bytes.subarray(jsonEnd + 8) };
}
