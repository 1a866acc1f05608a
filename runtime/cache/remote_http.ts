/**
 * The HTTP details of the remote cache client (`remote.ts`): reading a body within limits, what a
 * server's headers say, and keeping credentials out of every message.
 *
 * @module
 */

/**
 * `text` (a URL, or any text holding URLs) with every `user:password@` replaced by `…@`:
 * credentials in a remote cache's URL are sent, never printed. A password may hold a bare `@`
 * (the URL parser reads up to the last one), so does this.
 *
 * @example
 * ```ts
 * withoutCredentials("https://ci:s3cret@cache.example/pg"); // "https://…@cache.example/pg"
 * ```
 */
export function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^\s/?#]*@/g, "//…@");
}

/** The secrets among `values` (and the token after a scheme such as `Bearer `), longest first. */
export function secretsOf(values: readonly string[]): string[] {
  const all = values.flatMap((value) => [value, ...value.split(/\s+/).slice(1)]);
  // Very short values would blank unrelated words; real tokens and passwords are longer.
  return [...new Set(all.filter((value) => value.length >= 4))].sort((a, b) => b.length - a.length);
}

/** Base64 of `text` as UTF-8 (RFC 7617's basic auth). */
export function basicAuth(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** A `Retry-After` (seconds, or an HTTP date) in milliseconds, or undefined. */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether a response is an HTML page (never a record or a blob: both are sent as bytes). */
export function isHtml(response: Response): boolean {
  return /^\s*text\/html/i.test(response.headers.get("content-type") ?? "");
}

/**
 * Reads a response body; undefined for one longer than `limit` bytes, dropped before it fills
 * memory. A broken connection, or one that sends nothing for `pauseMs`, throws.
 */
export async function readLimited(
  response: Response,
  limit: number,
  pauseMs: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > limit || !response.body) {
    await response.body?.cancel();
    return declared > limit ? undefined : new Uint8Array(0);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await withinPause(reader, pauseMs);
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The next chunk of `reader`, or an error (the read cancelled) when none comes within `pauseMs`. */
async function withinPause(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pauseMs: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected first: cancelling ends the pending read as if the body were complete.
      reject(new Error(`the transfer stalled: no data for ${pauseMs} ms`));
      reader.cancel().catch(() => {});
    }, pauseMs);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}
