/**
 * Bazel's remote cache as tests need it: the Remote Execution API v2 messages an action cache holds
 * (a subset of `build/bazel/remote/execution/v2/remote_execution.proto`, field numbers as published),
 * decoded by protobufjs — a reader independent of partgraph's — and an HTTP server that checks its
 * action cache the way bazel-remote does by default (`server/http.go`, `cache.GetValidatedActionResult`):
 * a `PUT` to `/ac/` that is not an `ActionResult` is refused with 400; what it stores is the message
 * re-encoded with the uploader's address as `execution_metadata.worker`; a `GET` of an action whose
 * listed output blobs are not all in `/cas/` is a 404.
 *
 * @module
 */
import protobuf from "protobufjs";

const SCHEMA = `
syntax = "proto3";
package build.bazel.remote.execution.v2;
message Digest { string hash = 1; int64 size_bytes = 2; }
message OutputFile { string path = 1; Digest digest = 2; bool is_executable = 4; bytes contents = 5; }
message OutputDirectory { string path = 1; Digest tree_digest = 3; }
message ExecutedActionMetadata { string worker = 1; }
message ActionResult {
  repeated OutputFile output_files = 2;
  repeated OutputDirectory output_directories = 3;
  int32 exit_code = 4;
  bytes stdout_raw = 5;
  Digest stdout_digest = 6;
  bytes stderr_raw = 7;
  Digest stderr_digest = 8;
  ExecutedActionMetadata execution_metadata = 9;
}`;

/** `build.bazel.remote.execution.v2.ActionResult`, as protobufjs encodes and decodes it. */
export const ActionResult: protobuf.Type = protobuf.parse(SCHEMA).root.lookupType(
  "build.bazel.remote.execution.v2.ActionResult",
);

/** A decoded `ActionResult` (the fields the tests read). */
export interface DecodedActionResult {
  outputFiles: { path: string; digest: { hash: string; sizeBytes: number } }[];
  stdoutRaw: Uint8Array;
  executionMetadata?: { worker: string };
}

/** Decodes `bytes` as an `ActionResult` (throws when they are not one). */
export function decodeActionResult(bytes: Uint8Array): DecodedActionResult {
  return ActionResult.toObject(ActionResult.decode(bytes), {
    longs: Number,
    defaults: true,
  }) as DecodedActionResult;
}

/** A running cache server that validates its action cache like bazel-remote. */
export interface ValidatingCacheServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** What it holds, by key, as stored (the action cache after its rewrite). */
  readonly ac: Map<string, Uint8Array<ArrayBuffer>>;
  readonly cas: Map<string, Uint8Array<ArrayBuffer>>;
  /** `PUT`s to `/ac/` it refused, with the reason. */
  readonly refused: string[];
  /** Every request, as `GET ac/<key>` or `PUT cas/<digest>`, in the order they came. */
  readonly requests: string[];
  /** The most requests it held at once (each waits `delayMs` before its answer). */
  readonly maxInFlight: number;
  /** Forgets the requests and the most held at once, to count afresh. */
  resetCounts(): void;
  /** Stops the server. */
  stop(): Promise<void>;
}

/**
 * Starts a {@link ValidatingCacheServer} on a free loopback port; each answer comes `delayMs` after
 * its request, as from a server that far away.
 */
export function startValidatingCacheServer(delayMs = 0): ValidatingCacheServer {
  const ac = new Map<string, Uint8Array<ArrayBuffer>>();
  const cas = new Map<string, Uint8Array<ArrayBuffer>>();
  const refused: string[] = [];
  const requests: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request, info) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (delayMs) await new Promise((done) => setTimeout(done, delayMs));
      return await answer(request, info);
    } finally {
      inFlight--;
    }
  });
  async function answer(request: Request, info: Deno.ServeHandlerInfo): Promise<Response> {
    const match = new URL(request.url).pathname.match(/^\/(ac|cas)\/([0-9a-f]{64})$/);
    if (!match) return new Response("resource name must be a SHA256 hash in hex", { status: 400 });
    const [, kind, key] = match;
    requests.push(`${request.method} ${kind}/${key}`);
    const store = kind === "ac" ? ac : cas;
    if (request.method === "PUT") {
      let body: Uint8Array<ArrayBuffer> = new Uint8Array(await request.arrayBuffer());
      if (kind === "ac") {
        try {
          const message = ActionResult.decode(body);
          (message as unknown as DecodedActionResult).executionMetadata ??= {
            worker: (info.remoteAddr as Deno.NetAddr).hostname,
          };
          body = Uint8Array.from(ActionResult.encode(message).finish());
        } catch (error) {
          refused.push(`${key}: ${(error as Error).message}`);
          return new Response(`failed to parse ActionResult`, { status: 400 });
        }
      }
      store.set(key, body);
      return new Response(null, { status: 200 });
    }
    if (request.method !== "GET") return new Response(null, { status: 405 });
    const body = store.get(key);
    if (!body) return new Response("Not found", { status: 404 });
    if (kind === "ac") {
      const listed = decodeActionResult(body).outputFiles;
      if (listed.some((file) => file.digest.sizeBytes > 0 && !cas.has(file.digest.hash))) {
        return new Response("Not found", { status: 404 });
      }
    }
    return new Response(body);
  }
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    ac,
    cas,
    refused,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    resetCounts() {
      requests.length = 0;
      maxInFlight = inFlight;
    },
    stop: () => server.shutdown(),
  };
}
