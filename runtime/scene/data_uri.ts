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
 * Spaces that stand where `+` belongs (a URL form decoder — PHP's `urldecode`, Python's `unquote_plus` —
 * turns `+` into a space; browsers' base64 then drops them, giving other bytes or none) are read as `+`,
 * named, when the payload has no `+` of its own and the spaces are not a regular line wrap.
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
    const plus = plusFromSpaces(body);
    if (plus !== undefined) {
      body = plus;
      notes.push("base64 payload has spaces where '+' belongs (a URL form decoder's doing); read as '+'");
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

/**
 * `body` with its spaces read as `+`, when they are a form decoder's: no `+` in it, and the spaces either
 * not a regular wrap (runs between them of one length, a multiple of 4, but the last) or the payload
 * unreadable without them. Undefined when the spaces are whitespace.
 */
function plusFromSpaces(body: string): string | undefined {
  const untrimmed = body.replace(/[\r\n\t]/g, "");
  const text = untrimmed.trim();
  if (!text.includes(" ") || text.includes("+") || /[-_%]/.test(text)) return undefined;
  const runs = text.split(/ +/);
  const width = runs[0].length;
  const wrapped = runs.length > 1 && width >= 16 && width % 4 === 0 &&
    runs.slice(0, -1).every((run) => run.length === width) && runs.at(-1)!.length <= width;
  const reads = (payload: string) => {
    try {
      Uint8Array.fromBase64(payload);
      return true;
    } catch {
      return false;
    }
  };
  // A space at either end is a '+' too when with it the payload fills whole quads of four.
  const whole = untrimmed.replaceAll(" ", "+"), inner = text.replaceAll(" ", "+");
  const plus = whole !== inner && whole.length % 4 === 0 && reads(whole)
    ? whole
    : reads(inner)
    ? inner
    : undefined;
  if (plus === undefined) return undefined;
  return !wrapped || !reads(text) ? plus : undefined;
}
