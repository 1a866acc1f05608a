/**
 * Atomic file writes: data goes to a temp file beside the target, then is renamed over it, so no
 * reader ever sees a partial file and a failure leaves the previous file in place.
 *
 * @module
 */
import { dirname, join } from "node:path";

let counter = 0;
const madeDirs = new Set<string>();

/** Files up to this size are written with synchronous calls: per-op async overhead dominates them. */
const SYNC_LIMIT = 64 * 1024;

/**
 * Writes `bytes` to `path` atomically, creating parent folders.
 *
 * @example
 * ```ts
 * import { atomicWrite } from "./fs.ts";
 *
 * await atomicWrite("out/hello.txt", new TextEncoder().encode("hello\n"));
 * ```
 */
export async function atomicWrite(path: string, bytes: Uint8Array): Promise<void> {
  const dir = dirname(path);
  if (!madeDirs.has(dir)) {
    await Deno.mkdir(dir, { recursive: true });
    madeDirs.add(dir);
  }
  // Unique per process and call, so concurrent writers never share a temp file.
  const temp = join(dir, `.${Deno.pid}-${counter++}-${crypto.randomUUID().slice(0, 8)}.tmp-partgraph`);
  try {
    if (bytes.byteLength <= SYNC_LIMIT) {
      Deno.writeFileSync(temp, bytes);
      Deno.renameSync(temp, path);
    } else {
      await Deno.writeFile(temp, bytes);
      await Deno.rename(temp, path);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) madeDirs.delete(dir); // the folder was removed under us
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
