/**
 * Request bodies the studio's API reads: JSON, at most {@link MAX_BODY_BYTES}. A larger body (a
 * runaway script, or a process on the loopback sending gigabytes) is refused with HTTP 413 as soon
 * as its size is known, before it is held in memory or parsed.
 *
 * @module
 */
import { HttpError } from "./api_context.ts";

/**
 * The largest request body the API reads: a graph with its open node groups' texts is kilobytes;
 * 16 MB leaves room for generated graphs of thousands of nodes.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The request's body parsed as JSON; HTTP 413 past `limit` bytes, 400 when it is not JSON. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const tooLarge = (size: string) =>
    new HttpError(413, `request body of ${size} bytes is larger than the studio reads (${limit} bytes)`);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) {
    await request.body?.cancel();
    throw tooLarge(String(declared));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(`over ${limit}`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `request is not valid JSON: ${(error as Error).message}`);
  }
}
