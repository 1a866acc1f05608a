/**
 * The cache headers of what the studio serves as files (the page, its stylesheet and scripts, the
 * preview's decoders). A file whose name carries a digest of its bytes never changes under that name,
 * so a browser may keep it (`immutable`); any other file is revalidated on each use (`no-cache`) with
 * an ETag of its bytes, and a browser that holds those bytes already gets 304 Not Modified.
 *
 * @module
 */

/** How a served file may be kept: `revalidate` (its name stays across builds) or `immutable`. */
export type CachePolicy = "revalidate" | "immutable";

/** A file as served: its bytes (or text), its type, its ETag and how it may be kept. */
export interface CachedAsset {
  readonly body: string | Uint8Array<ArrayBuffer>;
  /** The body's length in bytes (a text's UTF-8): a HEAD's `Content-Length`. */
  readonly bytes: number;
  readonly type: string;
  readonly etag: string;
  readonly policy: CachePolicy;
}

/** `Cache-Control` of each policy: a digest-named file for a year, the others revalidated each time. */
const CACHE_CONTROL: Record<CachePolicy, string> = {
  revalidate: "no-cache",
  immutable: "public, max-age=31536000, immutable",
};

/** An asset of `body`, tagged by a digest of it (so the tag changes exactly when the bytes do). */
export function cachedAsset(
  body: string | Uint8Array<ArrayBuffer>,
  type: string,
  policy: CachePolicy,
): CachedAsset {
  const digest = typeof body === "string" ? fnv1aText(body) : fnv1aBytes(body);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body).length : body.length;
  return { body, bytes, type, policy, etag: `"${digest}-${body.length}"` };
}

/**
 * The answer to a GET of `asset`: 304 with no body when the request's `If-None-Match` names its ETag
 * (RFC 9110 §13.1.2: a list of tags, weak ones compared weakly, or `*`), else the asset itself. Both
 * carry the ETag and `Cache-Control`, so a 304 refreshes what the browser keeps. A HEAD gets the
 * same status and headers (`Content-Length` the GET's body's) with no body (RFC 9110 §9.3.2).
 */
export function answerAsset(request: Request, asset: CachedAsset): Response {
  const headers = {
    "content-type": asset.type,
    "etag": asset.etag,
    "cache-control": CACHE_CONTROL[asset.policy],
  };
  if (etagMatches(request.headers.get("if-none-match"), asset.etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (request.method === "HEAD") {
    return new Response(null, { headers: { ...headers, "content-length": String(asset.bytes) } });
  }
  return new Response(asset.body, { headers });
}

/** Whether an `If-None-Match` header value names `etag` (weak comparison, as the RFC asks for GET). */
export function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  const want = bare(etag);
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === want);
}

/** A 32-bit FNV-1a digest of `text`'s UTF-16 code units in hex: enough to tell one build from the next. */
function fnv1aText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** A 32-bit FNV-1a digest of `bytes` in hex. */
function fnv1aBytes(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}
