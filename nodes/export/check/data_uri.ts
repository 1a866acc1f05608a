/**
 * Base64 data URIs, as `.gltf` JSON output embeds buffers and images: the media type and the bytes,
 * read strictly (canonical base64 only), so that what the check reads is what the validator reads.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { outside } from "./verdict.ts";

const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The media type and bytes of a `data:<type>;base64,<data>` URI.
 *
 * @example
 * ```ts ignore
 * const { mediaType, bytes } = readDataUri("data:application/octet-stream;base64,AAAA", "/buffers/0/uri");
 * ```
 */
export function readDataUri(uri: unknown, pointer: string): { mediaType: string; bytes: Uint8Array } {
  if (typeof uri !== "string" || !uri.startsWith("data:")) outside("not a data URI", pointer);
  const comma = uri.indexOf(",");
  const header = comma < 0 ? "" : uri.slice(5, comma);
  if (!header.endsWith(";base64")) outside("data URI without base64", pointer);
  const data = uri.slice(comma + 1);
  if (!CANONICAL_BASE64.test(data)) outside("data URI with non-canonical base64", pointer);
  const decoded = Buffer.from(data, "base64");
  return {
    mediaType: header.slice(0, -";base64".length),
    bytes: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength),
  };
}
