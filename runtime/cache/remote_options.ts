/**
 * The options of the remote cache client (`remote.ts`) and the limits it keeps.
 *
 * @module
 */
import { basicAuth, secretsOf, withoutCredentials } from "./remote_http.ts";

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
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** Default time limit of one request. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

/** The slowest transfer a request waits for (1 MB/s), on top of its time limit. */
export const SLOWEST_BYTES_PER_MS = 1_000;

/** Redirects followed for one request (a load balancer's hop or two; more is a loop). */
export const MAX_REDIRECTS = 5;

/** Where a remote cache's requests go, and what its messages may not echo ({@link remoteTarget}). */
export interface RemoteTarget {
  /** The URL given, without a trailing slash (with any credentials: never print it). */
  readonly url: string;
  /** The URL as messages give it: without its credentials. */
  readonly shown: string;
  /** The headers every request to the cache's own host carries (the URL's credentials as basic auth). */
  readonly headers: Record<string, string>;
  /** Credentials and header values no message may echo, longest first. */
  readonly secrets: string[];
  /** The URL requests go to: without credentials, ending in `/`. */
  readonly base: URL;
}

/**
 * The target of `options.url`; a TypeError (without the URL's credentials) for one that is not an
 * http: or https: URL.
 *
 * @example
 * ```ts
 * remoteTarget({ url: "https://ci:s3cret@cache.example/pg" }).shown; // "https://…@cache.example/pg"
 * ```
 */
export function remoteTarget(options: Pick<RemoteCacheOptions, "url" | "headers">): RemoteTarget {
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
  const given = options.url.replace(/\/+$/, "");
  const headers: Record<string, string> = { ...options.headers };
  const [user, password] = [url.username, url.password].map(decodeURIComponent);
  const secrets = secretsOf([password, url.password, ...Object.values(headers)]);
  // Sent as a header of our own, so that a redirect to another host can leave it behind.
  if ((user || password) && !Object.keys(headers).some((name) => /^authorization$/i.test(name))) {
    headers.Authorization = `Basic ${basicAuth(`${user}:${password}`)}`;
  }
  url.username = url.password = "";
  url.pathname = url.pathname.replace(/\/*$/, "/");
  return { url: given, shown: withoutCredentials(given), headers, secrets, base: url };
}
