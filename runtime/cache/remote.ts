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
import {
  basicAuth,
  isHtml,
  readLimited,
  retryAfterMs,
  secretsOf,
  withoutCredentials,
} from "./remote_http.ts";

export { withoutCredentials };

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
  /** Retries after a network error, a timeout, a 5xx or a 429 answer (default 2). */
  readonly retries?: number;
  /**
   * The longest `Retry-After` of a busy server (429, 503) waited out before a retry, in milliseconds
   * (default: the time limit); a server asking for longer is given up on at once, not waited for.
   */
  readonly retryAfterLimitMs?: number;
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

/** Redirects followed for one request (a load balancer's hop or two; more is a loop). */
const MAX_REDIRECTS = 5;

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
    const [user, password] = [url.username, url.password].map(decodeURIComponent);
    this.#secrets = secretsOf([password, url.password, ...Object.values(this.#headers)]);
    // Sent as a header of our own, so that a redirect to another host can leave it behind.
    if ((user || password) && !Object.keys(this.#headers).some((name) => /^authorization$/i.test(name))) {
      this.#headers.Authorization = `Basic ${basicAuth(`${user}:${password}`)}`;
    }
    url.username = url.password = "";
    url.pathname = url.pathname.replace(/\/*$/, "/");
    this.#base = url;
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
   * The body of `path` (at most `limit` bytes; `expected` of them, for the time limit); null for a
   * key the server says it does not hold, undefined when there is nothing usable.
   */
  async #get(path: string, limit: number, expected: number): Promise<Uint8Array | null | undefined> {
    if (this.#down) return undefined;
    const response = await this.#request("GET", path, undefined, expected);
    if (!response) return undefined;
    const status = response.status;
    if (!response.ok || isHtml(response)) await response.body?.cancel();
    if (status === 404) return null;
    if (status === 403) {
      // S3 without list permission and GCS answer 403 for a key they do not hold: a miss. It is
      // also how a bad token is refused there, so say so once.
      this.#warnOnce(
        "forbidden",
        `remote cache ${this.#shown} answered 403 to GET /${path}: taken as a miss (object stores answer so for a key they do not hold); if nothing is ever served, check its credentials`,
      );
      return null;
    }
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
      return bytes;
    } catch (error) {
      this.#giveUp(`GET /${path}: ${error instanceof Error ? error.message : error}`);
      return undefined;
    }
  }

  /** One upload; true once the server has it. */
  async #put(path: string, bytes: Uint8Array): Promise<boolean> {
    if (this.#down || this.#noWrites) return false;
    const response = await this.#request("PUT", path, bytes);
    if (!response) return false;
    const status = response.status;
    // bazel-remote refuses a blob over --max_blob_size with 400 and a text naming its size.
    const text = status === 400 ? await response.text().then((t) => t.slice(0, 500), () => "") : "";
    await response.body?.cancel().catch(() => {});
    if (response.ok) return true;
    if (status === 401 || status === 407) {
      // A token that expired mid-batch, or bazel-remote's --allow_unauthenticated_reads refusing an
      // upload without one: no more uploads; reads go on while they are let through.
      this.#noWrites = true;
      this.#warnOnce(
        "credentials",
        `remote cache ${this.#shown} refused its credentials (${status} to PUT /${path}); not uploading, reading on while reads are let through`,
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
