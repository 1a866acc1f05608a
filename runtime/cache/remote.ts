/**
 * A shared remote cache over HTTP, in the protocol build tools already use (Bazel's HTTP cache:
 * `GET`/`PUT` of `/ac/<sha256>` for action records and `/cas/<sha256>` for blobs), so bazel-remote,
 * nginx with WebDAV, or any server that stores what is PUT and serves it back works. This client
 * moves bytes; `tiers.ts` sends records as Bazel's `ActionResult` messages (`action_result.ts`).
 *
 * The remote is an optimisation, never a dependency: a server that is down, slow or refusing
 * degrades the run to the local cache with one warning; every request has a time limit and a
 * bounded number of retries; every downloaded blob is verified against its digest before use.
 *
 * @module
 */
import { sha256Hex } from "../canonical.ts";

/** Options of {@link RemoteCache}. */
export interface RemoteCacheOptions {
  /** Base URL, e.g. `http://cache.local:8080/partgraph` (requests go to `<url>/ac/…` and `<url>/cas/…`). */
  readonly url: string;
  /** Never upload (for untrusted runners): only read what others built. */
  readonly readOnly?: boolean;
  /** Extra request headers, e.g. `{ Authorization: "Bearer …" }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Time limit in milliseconds (default 10,000) for an answer to start and for any pause in a
   * transfer; a transfer as a whole gets this plus the time it takes at 1 MB/s, so a large blob on a
   * slow link arrives, where a stalled or trickling one is given up on.
   */
  readonly timeoutMs?: number;
  /** Retries after a network error, a timeout or a 5xx answer (default 2). */
  readonly retries?: number;
  /**
   * Receives each degradation warning once (default: printed on stderr), with its kind (`down`,
   * `corrupt`, `oversized`, …), by which clients in several workers can be told apart from repeats.
   */
  readonly onWarning?: (message: string, kind: string) => void;
}

/** Action records larger than this are not trusted (ours are a few kB). */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** Default time limit of one request. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

/** The slowest transfer a request waits for (1 MB/s), on top of its time limit. */
const SLOWEST_BYTES_PER_MS = 1_000;

/**
 * A client for one remote cache. Safe to share across concurrent lookups in one process.
 *
 * @example
 * ```ts
 * import { RemoteCache } from "./remote.ts";
 *
 * const remote = new RemoteCache({ url: "http://127.0.0.1:9090/cache", timeoutMs: 2000 });
 * const key = "0".repeat(64); // an action key (SHA-256 hex)
 * const record = await remote.getAction(key); // undefined: a miss, or the remote is unavailable
 * ```
 */
export class RemoteCache {
  /** Base URL without a trailing slash (with any credentials it was given: never print it). */
  readonly url: string;
  /** True when uploads are off (asked for, or refused by the server). */
  get readOnly(): boolean {
    return this.#noWrites;
  }
  /** Warnings raised so far (each at most once). */
  readonly warnings: string[] = [];

  readonly #headers: Record<string, string>;
  /** The URL as messages give it: without its credentials. */
  readonly #shown: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #onWarning: (message: string, kind: string) => void;
  #down = false;
  #noWrites: boolean;

  /** A client for `options.url`; nothing is sent until the first lookup. */
  constructor(options: RemoteCacheOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`remote cache URL is not a URL: '${withoutCredentials(options.url)}'`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(
        `remote cache URL must be http: or https:, found '${withoutCredentials(options.url)}'`,
      );
    }
    this.url = options.url.replace(/\/+$/, "");
    this.#shown = withoutCredentials(this.url);
    this.#headers = { ...options.headers };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
    this.#retries = options.retries ?? 2;
    this.#noWrites = options.readOnly ?? false;
    this.#onWarning = options.onWarning ?? ((message) => console.error(`warning: ${message}`));
  }

  /** True once the remote has been given up on for this process. */
  get down(): boolean {
    return this.#down;
  }

  /** The bytes of an action record, or undefined (a miss, or the remote is unavailable). */
  async getAction(key: string): Promise<Uint8Array | undefined> {
    return await this.#get(`ac/${key}`, MAX_RECORD_BYTES, 0);
  }

  /** A blob whose bytes match `digest` (SHA-256 hex) and `size`, or undefined (missing, corrupt, unavailable). */
  async getBlob(digest: string, size: number): Promise<Uint8Array | undefined> {
    const bytes = await this.#get(`cas/${digest}`, size, size);
    if (!bytes) return undefined;
    if (bytes.byteLength !== size || sha256Hex(bytes) !== digest) {
      this.#warnOnce(
        `corrupt`,
        `remote cache blob ${digest.slice(0, 12)}… does not match its digest; recomputed`,
      );
      return undefined;
    }
    return bytes;
  }

  /** Uploads an action's record, as the caller encoded it (after its blobs, so it never points nowhere). */
  async putAction(key: string, bytes: Uint8Array): Promise<void> {
    await this.#put(`ac/${key}`, bytes);
  }

  /** Uploads a blob under its digest. */
  async putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    await this.#put(`cas/${digest}`, bytes);
  }

  /** The body of `path` (at most `limit` bytes; `expected` of them, for the time limit), or undefined. */
  async #get(path: string, limit: number, expected: number): Promise<Uint8Array | undefined> {
    if (this.#down) return undefined;
    const response = await this.#request("GET", path, undefined, expected);
    if (!response) return undefined;
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      this.#giveUp(`answered ${response.status} ${response.statusText} to GET /${path}`);
      return undefined;
    }
    try {
      const bytes = await readLimited(response, limit, this.#timeoutMs);
      if (!bytes) this.#warnOnce("oversized", `remote cache /${path} is larger than expected; ignored`);
      return bytes;
    } catch (error) {
      this.#giveUp(`GET /${path}: ${error instanceof Error ? error.message : error}`);
      return undefined;
    }
  }

  async #put(path: string, bytes: Uint8Array): Promise<void> {
    if (this.#down || this.#noWrites) return;
    const response = await this.#request("PUT", path, bytes);
    if (!response) return;
    await response.body?.cancel();
    if (response.ok) return;
    if (response.status >= 400 && response.status < 500) {
      // The server refuses writes (auth, method not allowed, full): keep reading from it.
      this.#noWrites = true;
      this.#warnOnce(
        "refused",
        `remote cache ${this.#shown} refused an upload (${response.status}); not uploading`,
      );
      return;
    }
    this.#giveUp(`answered ${response.status} to PUT /${path}`);
  }

  /**
   * One request with a time limit (plus `bytes`, the size sent or expected back, at the slowest
   * rate waited for) and bounded retries; undefined once the remote is given up on.
   */
  async #request(
    method: "GET" | "PUT",
    path: string,
    body?: Uint8Array,
    bytes = body?.byteLength ?? 0,
  ): Promise<Response | undefined> {
    const limitMs = this.#timeoutMs + bytes / SLOWEST_BYTES_PER_MS;
    let lastError = "";
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, 100 * 4 ** (attempt - 1)));
      try {
        const response = await fetch(`${this.url}/${path}`, {
          method,
          headers: this.#headers,
          body: body as BodyInit | undefined,
          signal: AbortSignal.timeout(limitMs),
        });
        if (response.status < 500 || attempt === this.#retries) return response;
        lastError = `${response.status} ${response.statusText}`;
        await response.body?.cancel();
      } catch (error) {
        if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
          this.#giveUp(`needs network access (${error.message})`);
          return undefined;
        }
        lastError = error instanceof DOMException && error.name === "TimeoutError"
          ? `no answer within ${Math.round(limitMs)} ms`
          : error instanceof Error
          ? error.message
          : String(error);
      }
    }
    this.#giveUp(`${method} /${path}: ${lastError}`);
    return undefined;
  }

  /** Stops using the remote for this process, with one warning. */
  #giveUp(reason: string): void {
    this.#down = true;
    this.#warnOnce(
      "down",
      `remote cache ${this.#shown} unavailable (${reason}); continuing with the local cache`,
    );
  }

  readonly #warned = new Set<string>();

  #warnOnce(kind: string, message: string): void {
    if (this.#warned.has(kind)) return;
    this.#warned.add(kind);
    this.warnings.push(message);
    this.#onWarning(message, kind);
  }
}

/**
 * `url` (or any text holding one) with a `user:password@` replaced by `…@`: credentials in a remote
 * cache's URL are sent, never printed.
 *
 * @example
 * ```ts
 * withoutCredentials("https://ci:s3cret@cache.example/pg"); // "https://…@cache.example/pg"
 * ```
 */
export function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^/@]*@/, "//…@");
}

/**
 * Reads a response body; undefined for one longer than `limit` bytes, dropped before it fills
 * memory. A broken connection, or one that sends nothing for `pauseMs`, throws.
 */
async function readLimited(
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
