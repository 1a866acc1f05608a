/**
 * `data:` URIs, in which `.gltf` JSON embeds its buffers and images.
 *
 * @module
 */
/** A base64 `data:` URI of `bytes`, as `.gltf` files embed buffers and images. */
export function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${bytes.toBase64()}`;
}

/** The bytes of a `data:` URI (base64 or percent-encoded). */
export function decodeDataUri(uri: string): Uint8Array<ArrayBuffer> {
  const comma = uri.indexOf(",");
  const header = uri.slice(5, comma);
  const body = uri.slice(comma + 1);
  if (!header.endsWith(";base64")) return new TextEncoder().encode(decodeURIComponent(body));
  return Uint8Array.fromBase64(body);
}
