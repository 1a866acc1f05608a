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
import { isHtml, readLimited, retryAfterMs, withoutCredentials } from "./remote_http.ts";
import { credentialError, ForbiddenReads } from "./remote_forbidden.ts";
import {
  DEFAULT_REMOTE_TIMEOUT_MS,
  MAX_RECORD_BYTES,
  MAX_REDIRECTS,
  type RemoteCacheOptions,
  remoteTarget,
  SLOWEST_BYTES_PER_MS,
} from "./remote_options.ts";

export { DEFAULT_REMOTE_TIMEOUT_MS, type RemoteCacheOptions, withoutCredentials };

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
  /** The URL requests go to: without its credentials, which go in `#headers` as basic auth. */
  readonly #base: URL;
  /** The URL as messages give it: without its credentials. */
  readonly #shown: string;
  /** Credentials and header values no message may echo. */
  readonly #secrets: string[];
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #retryAfterLimitMs: number;
  readonly #onWarning: (message: string, kind: string) => void;
  #down = false;
  #noWrites: boolean;
  /** Reads refused (403 to reading back an upload): not asked again. */
  #noReads = false;
  /** What the 403s to reads turn out to be (`remote_forbidden.ts`). */
  readonly #reads = new ForbiddenReads();

  /** A client for `options.url`; nothing is sent until the first lookup. */
  constructor(options: RemoteCacheOptions) {
    const target = remoteTarget(options);
    this.url = target.url;
    this.#shown = target.shown;
    this.#headers = target.headers;
    this.#secrets = target.secrets;
    this.#base = target.base;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
    this.#retryAfterLimitMs = options.retryAfterLimitMs ?? this.#timeoutMs;
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
    return await this.#get(`ac/${key}`, MAX_RECORD_BYTES, 0) ?? undefined;
  }

  /**
   * A blob whose bytes match `digest` (SHA-256 hex) and `size`, or undefined (missing, corrupt,
   * unavailable). A missing one is warned of as evicted unless `early` (fetched before any record
   * asked for it).
   */
  async getBlob(digest: string, size: number, early = false): Promise<Uint8Array | undefined> {
    const bytes = await this.#get(`cas/${digest}`, size, size);
    if (bytes === null && !early) {
      // Asked for because a record lists it: the server dropped it since (bazel-remote's --max_size,
      // a pruned folder) but still serves the record.
      this.#warnOnce(
        "evicted",
        `remote cache ${this.#shown} serves records whose blobs it no longer holds (evicted?); those nodes are computed again`,
      );
    }
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

  /**
   * Uploads an action's record, as the caller encoded it (after its blobs, so it never points
   * nowhere); true once the server has it.
   */
  async putAction(key: string, bytes: Uint8Array): Promise<boolean> {
    return await this.#put(`ac/${key}`, bytes);
  }

  /** Uploads a blob under its digest; true once the server has it. */
  async putBlob(digest: string, bytes: Uint8Array): Promise<boolean> {
    return await this.#put(`cas/${digest}`, bytes);
  }

  /**
   * Ends a run's use of the remote: when every read was answered 403 and nothing told whether those
   * were keys it does not hold or reads refused (a read-only client on a cold cache), says so once.
   */
  endOfRun(): void {
    if (this.#down || this.#reads.verdict !== "undecided") return;
    const { reads, first } = this.#reads.count;
    this.#reads.told();
    this.#warnOnce(
      "forbidden",
      `remote cache ${this.#shown} answered 403 to all ${reads} reads (first GET /${first}) and served nothing: taken as misses, as object stores answer for keys they do not hold; no upload went up to tell that from reads refused — if it is not new, check its credentials`,
    );
  }

  /**
   * The body of `path` (at most `limit` bytes; `expected` of them, for the time limit); null for a
   * key the server says it does not hold, undefined when there is nothing usable.
   */
  async #get(path: string, limit: number, expected: number): Promise<Uint8Array | null | undefined> {
    if (this.#down || this.#noReads) return undefined;
    const response = await this.#request("GET", path, undefined, expected);
    if (!response) return undefined;
    const status = response.status;
    if (status === 403) return await this.#forbiddenRead(path, response);
    if (!response.ok || isHtml(response)) await response.body?.cancel();
    if (status === 404) return null;
    if (status === 401 || status === 407) {
      // One warning for a token refused, whether a read or an upload is refused first.
      this.#down = true;
      this.#warnOnce(
        "credentials",
        `remote cache ${this.#shown} refused its credentials (${status} to GET /${path}); continuing with the local cache`,
      );
      return undefined;
    }
    if (!response.ok) {
      this.#giveUp(`answered ${status} ${response.statusText} to GET /${path}`);
      return undefined;
    }
    if (isHtml(response)) {
      // A proxy's error page in place of a missing key: never a record or a blob.
      this.#warnOnce(
        "html",
        `remote cache ${this.#shown} answered GET /${path} with an HTML page (a proxy's error page?); taken as a miss`,
      );
      return null;
    }
    try {
      const bytes = await readLimited(response, limit, this.#timeoutMs);
      if (!bytes) this.#warnOnce("oversized", `remote cache /${path} is larger than expected; ignored`);
      else this.#reads.served();
      return bytes;
    } catch (error) {
      this.#giveUp(`GET /${path}: ${error instanceof Error ? error.message : error}`);
      return undefined;
    }
  }

  /**
   * A 403 to a read: S3 without `s3:ListBucket` and GCS answer so for a key they do not hold, and so
   * they refuse a client. A credential error in its body is a refusal; any other is held as a miss
   * until the run tells which it was (`remote_forbidden.ts`).
   */
  async #forbiddenRead(path: string, response: Response): Promise<null | undefined> {
    const body = await readLimited(response, 4096, this.#timeoutMs).catch(() => undefined);
    const code = credentialError(new TextDecoder().decode(body ?? new Uint8Array()));
    if (!code) return (this.#reads.forbidden(path), null);
    this.#down = true;
    this.#warnOnce(
      "credentials",
      `remote cache ${this.#shown} refused its credentials (403 ${code} to GET /${path}); continuing with the local cache`,
    );
    return undefined;
  }

  /** Reads back a record just uploaded, once, to tell 403s for keys it does not hold from reads refused. */
  async #readBack(path: string): Promise<void> {
    const response = await this.#request("GET", path);
    if (!response) return;
    await response.body?.cancel();
    this.#reads.probed(isHtml(response) ? 0 : response.status);
    if (this.#reads.verdict !== "refused") return;
    this.#noReads = true;
    this.#reads.told();
    this.#warnOnce(
      "forbidden",
      `remote cache ${this.#shown} stores uploads but answers 403 to reading one back (GET /${path}): its credentials may write but not read; not reading from it (nothing would be served), still uploading`,
    );
  }

  /** One upload; true once the server has it. */
  async #put(path: string, bytes: Uint8Array): Promise<boolean> {
    if (this.#down || this.#noWrites) return false;
    const response = await this.#request("PUT", path, bytes);
    if (!response) return false;
    const status = response.status;
    // bazel-remote refuses a blob over --max_blob_size with 400 and a text naming its size.
    const text = status === 400 || status === 403
      ? await response.text().then((t) => t.slice(0, 500), () => "")
      : "";
    await response.body?.cancel().catch(() => {});
    if (response.ok) {
      if (path.startsWith("ac/") && this.#reads.probe()) await this.#readBack(path);
      return true;
    }
    const code = status === 403 ? credentialError(text) : undefined;
    if (status === 401 || status === 407 || code) {
      // A token that expired mid-batch, or bazel-remote's --allow_unauthenticated_reads refusing an
      // upload without one: no more uploads; reads go on while they are let through.
      this.#noWrites = true;
      this.#warnOnce(
        "credentials",
        `remote cache ${this.#shown} refused its credentials (${status}${
          code ? ` ${code}` : ""
        } to PUT /${path}); not uploading, reading on while reads are let through`,
      );
    } else if (status === 413 || status === 507 || /\b(exceeds|too large)\b/i.test(text)) {
      // nginx's client_max_body_size (413), bazel-remote's --max_blob_size (400) or a blob larger
      // than its whole cache (507): smaller uploads still go up; this one never will.
      this.#warnOnce(
        "too-large",
        `remote cache ${this.#shown} refused an upload of ${bytes.byteLength} bytes as too large (${status}); results that large stay local`,
      );
    } else {
      // Refused (403, 405 read-only, 409/500 nginx without its folders): keep reading from it.
      this.#noWrites = true;
      if (status === 403 && this.#reads.verdict === "undecided") {
        const { reads, first } = this.#reads.count;
        this.#reads.told();
        this.#warnOnce(
          "refused",
          `remote cache ${this.#shown} refused an upload (403) and has answered 403 to every read (${reads} so far, first GET /${first}): its credentials may not reach it, or it holds nothing yet; not uploading, still reading from it`,
        );
      }
      this.#warnOnce(
        "refused",
        `remote cache ${this.#shown} refused an upload (${status}); not uploading, still reading from it`,
      );
    }
    return false;
  }

  /**
   * One request with a time limit (plus `bytes`, the size sent or expected back, at the slowest
   * rate waited for), bounded retries and redirects; undefined once the remote is given up on.
   */
  async #request(
    method: "GET" | "PUT",
    path: string,
    body?: Uint8Array,
    bytes = body?.byteLength ?? 0,
  ): Promise<Response | undefined> {
    const limitMs = this.#timeoutMs + bytes / SLOWEST_BYTES_PER_MS;
    let lastError = "";
    let waitMs = 0;
    let answered = false;
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, waitMs || 100 * 4 ** (attempt - 1)));
      try {
        const response = await this.#follow(method, new URL(path, this.#base), body, limitMs);
        if (!response) return undefined;
        // 501 and 507 (no room for it at all) answer the same to every retry.
        const busy = response.status === 429 ||
          response.status >= 500 && ![501, 507].includes(response.status);
        if (!busy || attempt === this.#retries) return response;
        const after = retryAfterMs(response.headers.get("retry-after"));
        lastError = `${response.status} ${response.statusText}`;
        answered = true;
        await response.body?.cancel();
        // A server that asks for longer than the budget is not waited for: the run goes on without it.
        if (after !== undefined && after > this.#retryAfterLimitMs) {
          lastError += ` (asked to retry after ${Math.round(after / 1000)} s)`;
          break;
        }
        waitMs = after ?? 0;
      } catch (error) {
        if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
          this.#giveUp(`needs network access (${error.message})`);
          return undefined;
        }
        answered = false;
        lastError = error instanceof DOMException && error.name === "TimeoutError"
          ? `no answer within ${Math.round(limitMs)} ms`
          : error instanceof Error
          ? error.message
          : String(error);
      }
    }
    // A server that answers every upload with an error still serves what others uploaded.
    if (method === "PUT" && answered) {
      this.#noWrites = true;
      this.#warnOnce(
        "refused",
        `remote cache ${this.#shown} failed an upload (${lastError}); not uploading, still reading from it`,
      );
      return undefined;
    }
    this.#giveUp(`${method} /${path}: ${lastError}`);
    return undefined;
  }

  /**
   * `fetch` following redirects itself: the credentials go only where the cache's URL pointed (its
   * host, or the same host over https), never to another host a proxy names.
   */
  async #follow(method: string, url: URL, body: Uint8Array | undefined, limitMs: number) {
    for (let hop = 0;; hop++) {
      const trusted = url.hostname === this.#base.hostname &&
        (url.protocol === this.#base.protocol || url.protocol === "https:");
      const response = await fetch(url, {
        method,
        headers: trusted ? this.#headers : {},
        body: body as BodyInit | undefined,
        redirect: "manual",
        signal: AbortSignal.timeout(limitMs),
      });
      const location = response.headers.get("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || !location) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      if (response.status === 301 || response.status === 308) {
        this.#warnOnce(
          "moved",
          `remote cache ${this.#shown} has moved to ${
            withoutCredentials(url.origin)
          }; give --remote-cache that URL`,
        );
      }
    }
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

  #warnOnce(kind: string, text: string): void {
    if (this.#warned.has(kind)) return;
    this.#warned.add(kind);
    // Whatever a server or the network said is in it: no credential leaves in a message.
    const message = this.#secrets.reduce(
      (shown, secret) => shown.replaceAll(secret, "…"),
      withoutCredentials(text),
    );
    this.warnings.push(message);
    this.#onWarning(message, kind);
  }
}
