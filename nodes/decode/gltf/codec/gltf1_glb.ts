/**
 * The binary glTF 1.0 container (`KHR_binary_glTF`, GLB version 1): a 20-byte header — magic
 * `glTF`, version 1, total length, content length, content format (0: JSON) — then the JSON
 * content, then the binary body, which the JSON calls the buffer `binary_glTF`. Every length is
 * checked against the file before anything is read.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { GltfSource } from "./container.ts";

/** The resource name glTF-Transform gives a GLB's binary chunk (the 2.0 file's buffer 0). */
const GLB_BUFFER = "@glb.bin";
const HEADER = 20;

/**
 * Splits a GLB version 1 into its (glTF 1.0) JSON and its binary body, or throws a
 * {@link DecodeError} at the byte offset of a bad length. `parse` reads the JSON content found at
 * a byte offset (the 2.0 reader's own parser: depth bounded, UTF-8 checked).
 */
export function readGlbV1(
  bytes: Uint8Array,
  source: GltfSource,
  parse: (content: Uint8Array, offset: number) => JSONDocument["json"],
): JSONDocument {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (offset: number, expected: string, found: string) =>
    new DecodeError({ format: source.format, at: { offset }, expected, found, file: source.file });
  if (bytes.byteLength < HEADER) {
    throw fail(0, "a 20-byte binary glTF 1.0 header", `${bytes.byteLength} bytes`);
  }
  const total = view.getUint32(8, true);
  if (total > bytes.byteLength || total < HEADER) {
    throw fail(8, `a total length of ${HEADER}..${bytes.byteLength} bytes`, String(total));
  }
  const contentLength = view.getUint32(12, true);
  if (contentLength > total - HEADER) {
    throw fail(12, `a content length up to ${total - HEADER}`, String(contentLength));
  }
  const format = view.getUint32(16, true);
  if (format !== 0) throw fail(16, "content format 0 (JSON)", String(format));
  const json = parse(bytes.subarray(HEADER, HEADER + contentLength), HEADER);
  // A view, not a copy, as the 2.0 reader keeps its binary chunk.
  const body = bytes.subarray(HEADER + contentLength, total) as Uint8Array<ArrayBuffer>;
  return { json, resources: { [GLB_BUFFER]: body } };
}
