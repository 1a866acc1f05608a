/**
 * `data:` URIs, in which `.gltf` JSON embeds its buffers and images.
 *
 * @module
 */
/** A base64 `data:` URI of `bytes`, as `.gltf` files embed buffers and images. */
export function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${bytes.toBase64()}`;
}

/** A `data:` URI read: its bytes, and what about its writing was lenient (none when it was plain). */
export interface ReadDataUri {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** E.g. "base64 payload is in the URL-safe alphabet ('-' and '_'); read as such". */
  readonly notes: readonly string[];
}

/**
 * The bytes of a `data:` URI (base64 or percent-encoded), as web tools and hand edits write it: its
 * `;base64` mark in any case (RFC 2397's tokens are case-blind; a `;Base64` read as percent-encoded
 * text gave other bytes), a base64 payload that is percent-encoded (`%2B`, `%2F`, `%3D`: a URL encoder
 * run over the whole URI) decoded first, one in the URL-safe alphabet (`-`, `_`) read as such, each
 * named in `notes`; line breaks, spaces and missing padding are base64's own leniency, read silently.
 * Throws a `TypeError` saying what was found when the payload cannot be read.
 */
export function decodeDataUri(uri: string): ReadDataUri {
  const comma = uri.indexOf(",");
  if (comma < 0) throw new TypeError("no comma before its payload");
  const header = uri.slice(5, comma);
  let body = uri.slice(comma + 1);
  const notes: string[] = [];
  try {
    if (!/;\s*base64\s*$/i.test(header)) {
      return { bytes: new TextEncoder().encode(decodeURIComponent(body)), notes };
    }
    if (/%[0-9a-f]{2}/i.test(body)) {
      body = decodeURIComponent(body);
      notes.push("base64 payload is percent-encoded (as a URL encoder writes it); read decoded");
    }
    const urlSafe = /[-_]/.test(body);
    if (urlSafe) notes.push("base64 payload is in the URL-safe alphabet ('-' and '_'); read as such");
    return { bytes: Uint8Array.fromBase64(body, { alphabet: urlSafe ? "base64url" : "base64" }), notes };
  } catch {
    throw new TypeError(
      /[-_]/.test(body) && /[+/]/.test(body)
        ? "base64 mixing the standard ('+', '/') and URL-safe ('-', '_') alphabets"
        : "undecodable base64 or percent-encoding",
    );
  }
}
