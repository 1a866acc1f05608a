/**
 * Cache servers as teams run them, for tests: an in-memory store answering Bazel's HTTP cache
 * protocol with the habits of real servers and proxies in front of them, each as the server's
 * public source or documentation describes it:
 *
 * - nginx WebDAV misconfigured: `client_max_body_size` too small (413 and an HTML page, the body
 *   read and dropped), or bazel-remote's `--max_blob_size` (400 naming the size, `server/http.go`), `create_full_put_path off` or a root nginx cannot write (500 on every `PUT`),
 *   a location without `dav_methods` (405);
 * - object stores (S3 without `s3:ListBucket`, a GCS bucket as Bazel documents it): 403 for a key
 *   they do not hold; a reverse proxy's HTML error page served with 200 for a missing key;
 * - responses compressed (`Content-Encoding: gzip`) or chunked without a length;
 * - every request redirected (307) to another origin, as a load balancer moving a cache does;
 * - busy (429 or 503 with `Retry-After`) for the first requests;
 * - a token that expires mid-batch (401 after some successes, bazel-remote's answer to bad auth);
 * - eviction (`--max_size`): blobs dropped while the records that list them stay, on a server
 *   that does not validate its action cache.
 *
 * `habitsOf(seed)` draws a team's server: one to three habits, with a path prefix, a trailing slash
 * and credentials in the URL on some seeds.
 *
 * @module
 */

/** How a server answers. */
export interface Habits {
  /** How a missing key is answered: 404, 403 (object stores) or a 200 HTML page (a proxy). */
  readonly missing: 404 | 403 | "html";
  /**
   * What an object store lets the client's credentials do (`remote_object_stores.ts`): everything,
   * reads only (a PR runner's key), uploads only, nothing (a bucket policy), or a key it does not know.
   * Each refusal is a 403, as S3 and GCS answer.
   */
  readonly access?: "full" | "read-only" | "write-only" | "none" | "bad-key";
  /** The body of its 403s: S3's XML error, GCS's XML API error, or none (a proxy in front); default an HTML page. */
  readonly errorBody?: "s3" | "gcs" | "empty";
  /** Bodies larger than this are refused (nginx `client_max_body_size`, bazel-remote `--max_blob_size`). */
  readonly maxBody?: number;
  /** How: nginx's 413 page, or bazel-remote's 400 "Blob size … exceeds maximum allowed size …". */
  readonly tooLarge?: 413 | 400;
  /** Every `PUT` answered so (405 read-only location, 409/500 nginx without its folders). */
  readonly putStatus?: 405 | 409 | 500;
  /** Responses gzip-compressed. */
  readonly gzip?: boolean;
  /** Responses chunked, without a length. */
  readonly chunked?: boolean;
  /** Every request redirected with 307 to the same path on another origin. */
  readonly redirect?: boolean;
  /** The first `first` requests answered `status` with `Retry-After: seconds`. */
  readonly busy?: { readonly status: 429 | 503; readonly seconds: number; readonly first: number };
  /** Every request after this many answered 401 (a token that expired mid-batch). */
  readonly authFailsAfter?: number;
  /** Blobs dropped as soon as stored (an evicting server that does not validate records). */
  readonly evict?: boolean;
  /** Path prefix of the cache on the server (`/team/cache`). */
  readonly prefix: string;
  /** The URL given ends with a slash. */
  readonly trailingSlash: boolean;
  /** The URL carries `user:password@`, and the client a token header. */
  readonly credentials: boolean;
}

/** The secrets a seed's URL and headers carry (looked for in every message). */
export const SECRETS = { password: "p@ss:w0rd-9f3", token: "tok-5e1d7c" } as const;

/** What a habit server saw. */
export interface HabitServer {
  /** The URL to give `--remote-cache`. */
  readonly url: string;
  /** The token header, when the seed has credentials. */
  readonly headers: Record<string, string>;
  /** Requests answered, by the origin that answered them. */
  readonly requests: { origin: "main" | "other"; method: string; path: string; status: number }[];
  /** Requests the other origin received carrying the token or basic auth. */
  readonly leakedToOther: number;
  /** Stops both origins. */
  stop(): Promise<void>;
}

/** The habits of seed `seed` (deterministic). */
export function habitsOf(seed: number): Habits {
  let state = seed * 2654435761 >>> 0;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const kinds = ["missing", "maxBody", "putStatus", "encoding", "redirect", "busy", "auth", "evict"] as const;
  const chosen = new Set<string>();
  const count = 1 + Math.floor(next() * 3);
  while (chosen.size < count) chosen.add(pick(kinds));
  const habits: { -readonly [K in keyof Habits]: Habits[K] } = {
    missing: chosen.has("missing") ? pick([403, "html"] as const) : 404,
    prefix: pick(["", "/cache", "/team/partgraph/cache"]),
    trailingSlash: next() < 0.4,
    credentials: next() < 0.5,
  };
  if (chosen.has("maxBody")) {
    habits.maxBody = pick([4_000, 20_000, 60_000]);
    habits.tooLarge = pick([413, 400] as const);
  }
  if (chosen.has("putStatus")) habits.putStatus = pick([405, 409, 500] as const);
  if (chosen.has("encoding")) next() < 0.5 ? habits.gzip = true : habits.chunked = true;
  if (chosen.has("redirect")) habits.redirect = true;
  if (chosen.has("busy")) {
    habits.busy = {
      status: pick([429, 503] as const),
      seconds: pick([0, 1, 120]),
      first: 1 + Math.floor(next() * 3),
    };
  }
  if (chosen.has("auth")) habits.authFailsAfter = 5 + Math.floor(next() * 30);
  if (chosen.has("evict")) habits.evict = true;
  return habits;
}

const HTML_PAGE = "<html><head><title>Not Found</title></head><body><h1>Sorry</h1></body></html>\n";

/** Starts a server (and, for redirects, its other origin) answering with `habits`. */
export function startHabitServer(habits: Habits): HabitServer {
  const store = new Map<string, Uint8Array>();
  const requests: HabitServer["requests"] = [];
  let leakedToOther = 0;
  let answered = 0;
  const basic = `Basic ${btoa(`ci:${SECRETS.password}`)}`;
  const page = (status: number, text = `<html><body><h1>${status}</h1></body></html>`) =>
    new Response(text, { status, headers: { "content-type": "text/html" } });
  // An object store's 403: AccessDenied for a missing key without list permission and for a refusal alike.
  const forbidden = (code = "AccessDenied") => {
    if (!habits.errorBody) return page(403);
    if (habits.errorBody === "empty") return new Response(null, { status: 403 });
    const text = habits.errorBody === "s3"
      ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>Access Denied</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`
      : `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>Access denied.</Message><Details>ci@build.iam.gserviceaccount.com does not have storage.objects.get access.</Details></Error>`;
    return new Response(text, { status: 403, headers: { "content-type": "application/xml" } });
  };
  const missing = () =>
    habits.missing === "html" ? page(200, HTML_PAGE) : habits.missing === 403 ? forbidden() : page(404);

  async function answer(request: Request, origin: "main" | "other"): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (origin === "main" && habits.redirect) {
      await request.body?.cancel();
      return new Response(null, { status: 307, headers: { location: `${other.url}${path}` } });
    }
    if (origin === "other" && habits.credentials) {
      if (request.headers.get("x-cache-token") || request.headers.get("authorization")) leakedToOther++;
    }
    const n = answered++;
    if (habits.busy && n < habits.busy.first) {
      await request.body?.cancel();
      return new Response(null, {
        status: habits.busy.status,
        headers: { "retry-after": `${habits.busy.seconds}` },
      });
    }
    if (habits.authFailsAfter !== undefined && n >= habits.authFailsAfter) {
      await request.body?.cancel();
      return page(401);
    }
    if (habits.credentials && origin === "main") {
      if (
        request.headers.get("authorization") !== basic ||
        request.headers.get("x-cache-token") !== SECRETS.token
      ) {
        await request.body?.cancel();
        return page(401);
      }
    }
    const access = habits.access ?? "full";
    if (
      access === "none" || access === "bad-key" || access === "read-only" && request.method === "PUT" ||
      access === "write-only" && request.method === "GET"
    ) {
      await request.body?.cancel();
      return forbidden(
        access === "bad-key"
          ? (habits.errorBody === "gcs" ? "InvalidSecurity" : "InvalidAccessKeyId")
          : undefined,
      );
    }
    const match = path.match(/^(.*)\/(ac|cas)\/([0-9a-f]{64})$/);
    if (!match || match[1] !== habits.prefix) {
      await request.body?.cancel();
      return missing();
    }
    const key = `${match[2]}/${match[3]}`;
    if (request.method === "PUT") {
      const body = new Uint8Array(await request.arrayBuffer());
      if (habits.maxBody !== undefined && body.byteLength > habits.maxBody) {
        return habits.tooLarge === 400
          ? new Response(`Blob size ${body.byteLength} exceeds maximum allowed size ${habits.maxBody}\n`, {
            status: 400,
            headers: { "content-type": "text/plain; charset=utf-8" },
          })
          : page(413);
      }
      if (habits.putStatus) return page(habits.putStatus);
      if (!(habits.evict && match[2] === "cas")) store.set(key, body);
      return new Response(null, { status: 201 });
    }
    const body = store.get(key);
    if (!body) return missing();
    return respond(body);
  }

  function respond(body: Uint8Array): Response {
    const headers: Record<string, string> = { "content-type": "application/octet-stream" };
    let bytes: Uint8Array | ReadableStream<Uint8Array> = body;
    if (habits.gzip) {
      headers["content-encoding"] = "gzip";
      bytes = new Blob([body as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
    } else if (habits.chunked) {
      const copy = body.slice();
      bytes = new ReadableStream({
        start(controller) {
          for (let at = 0; at < copy.length; at += 1000) controller.enqueue(copy.slice(at, at + 1000));
          controller.close();
        },
      });
    }
    return new Response(bytes as BodyInit, { headers });
  }

  const serve = (origin: "main" | "other") =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
      const response = await answer(request, origin);
      requests.push({
        origin,
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
      });
      return response;
    });
  const main = serve("main");
  const otherServer = serve("other");
  // Another origin: the same loopback under another name and port.
  const other = { url: `http://localhost:${otherServer.addr.port}` };
  const auth = habits.credentials ? `ci:${encodeURIComponent(SECRETS.password)}@` : "";
  return {
    url: `http://${auth}127.0.0.1:${main.addr.port}${habits.prefix}${habits.trailingSlash ? "/" : ""}`,
    headers: habits.credentials ? { "x-cache-token": SECRETS.token } : {},
    requests,
    get leakedToOther() {
      return leakedToOther;
    },
    async stop() {
      await main.shutdown();
      await otherServer.shutdown();
    },
  };
}
