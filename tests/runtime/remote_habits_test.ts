import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { RemoteCache, withoutCredentials } from "../../runtime/cache/remote.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";
import { findNginx, startCacheServer } from "../support/nginx.ts";
import { type Habits, SECRETS, startHabitServer } from "./remote_habits.ts";
import { runSeed, type SeedOutcome } from "./remote_habits_measure.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const PLAIN: Habits = { missing: 404, prefix: "", trailingSlash: false, credentials: false };

/** Two machines building one generated model through a server with `habits`, against a build without cache. */
async function twoMachines(habits: Partial<Habits>): Promise<SeedOutcome> {
  const root = await tempDir({ prefix: "partgraph-habits-" });
  try {
    const model = join(root, "ship.cmp");
    await Deno.writeFile(model, realisticCmp(11, { parts: 4, maxGroupVertices: 80 }));
    const ref = { cacheDir: join(root, "ref", "cache"), outDir: join(root, "ref", "out") };
    await runGraph(GRAPH, { inputs: { model }, ...ref, noCache: true });
    const files: string[] = [];
    for await (const entry of Deno.readDir(ref.outDir)) {
      files.push(`${entry.name}:${sha256Hex(await Deno.readFile(join(ref.outDir, entry.name)))}`);
    }
    return await runSeed(0, model, files.sort().join(","), root, 7, { ...PLAIN, ...habits }, 10_000);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const digestOf = (bytes: Uint8Array) => sha256Hex(bytes);

Deno.test("remote habits: an object store's 403 for a missing key is a silent miss once an upload is read back", async () => {
  for (const errorBody of ["s3", "empty", undefined] as const) {
    const outcome = await twoMachines({ missing: 403, access: "full", errorBody });
    assertEquals([outcome.failed, outcome.wrong, outcome.served], [0, 0, 7], outcome.warnings.join("\n"));
    // A cold run of a healthy bucket is a plain miss: nothing to warn of (before: one warning per cold run).
    assertEquals(outcome.warnings, [], `${errorBody}`);
  }
});

Deno.test("remote habits: an object store that refuses (403) says so, once per machine", async () => {
  const judged = new Map<string, readonly string[]>();
  for (const access of ["write-only", "read-only", "none", "bad-key"] as const) {
    const outcome = await twoMachines({ missing: 403, access, errorBody: "s3" });
    assertEquals([outcome.failed, outcome.wrong, outcome.served], [0, 0, 0], outcome.warnings.join("\n"));
    assertEquals(outcome.warnings.length, 2, outcome.warnings.join("\n"));
    judged.set(access, outcome.warnings);
  }
  // A key that may write but not read: its upload read back is refused (before: "taken as a miss").
  assert(judged.get("write-only")!.every((w) => w.includes("may write but not read")));
  assert(judged.get("read-only")!.every((w) => w.includes("refused an upload (403)")));
  assert(judged.get("none")!.every((w) => w.includes("answered 403 to every read")));
  // S3's InvalidAccessKeyId is a refusal at once: the remote is not asked again.
  assert(judged.get("bad-key")!.every((w) => w.includes("refused its credentials (403 InvalidAccessKeyId")));
});

Deno.test("remote habits: a read-only client on a cold 403 store says once that it could not tell", async () => {
  const server = startHabitServer({ ...PLAIN, missing: 403, access: "full", errorBody: "s3" });
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({ url: server.url, readOnly: true, onWarning: (m) => warnings.push(m) });
    for (let i = 0; i < 3; i++) assertEquals(await remote.getAction(`${i}`.repeat(64)), undefined);
    assertEquals(warnings.length, 0, "nothing said while the run goes on");
    remote.endOfRun();
    remote.endOfRun();
    assertEquals(warnings.length, 1, warnings.join("\n"));
    assert(warnings[0].includes("answered 403 to all 3 reads") && warnings[0].includes("served nothing"));
  } finally {
    await server.stop();
  }
});

Deno.test("remote habits: a proxy's HTML page for a missing key is one warning, not a damaged record per node", async () => {
  const outcome = await twoMachines({ missing: "html" });
  assertEquals([outcome.failed, outcome.wrong, outcome.served], [0, 0, 7]);
  assertEquals(outcome.warnings.length, 1, outcome.warnings.join("\n"));
  assert(outcome.warnings[0].includes("HTML page"), outcome.warnings[0]);
});

Deno.test("remote habits: records whose blobs were evicted are computed again, with one warning", async () => {
  const outcome = await twoMachines({ evict: true });
  assertEquals([outcome.failed, outcome.wrong], [0, 0]);
  assertEquals(outcome.warnings.length, 1, outcome.warnings.join("\n"));
  assert(outcome.warnings[0].includes("no longer holds (evicted?)"), outcome.warnings[0]);
});

Deno.test("remote habits: a token refused mid-batch is one warning; the build goes on locally", async () => {
  const outcome = await twoMachines({ authFailsAfter: 25 });
  assertEquals([outcome.failed, outcome.wrong], [0, 0]);
  assertEquals(outcome.warnings.length, 1, outcome.warnings.join("\n"));
  assert(outcome.warnings[0].includes("refused its credentials (401"), outcome.warnings[0]);
});

Deno.test("remote habits: bazel-remote with unauthenticated reads refuses an upload (401) and is still read from", async () => {
  const blob = new Uint8Array(50).fill(4);
  // --htpasswd_file with --allow_unauthenticated_reads: GET for all, PUT only with credentials.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    await request.body?.cancel();
    return request.method === "PUT"
      ? new Response("Unauthorized\n", { status: 401 })
      : new Response(blob.slice());
  });
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({
      url: `http://127.0.0.1:${server.addr.port}`,
      onWarning: (m) => warnings.push(m),
    });
    assertEquals(await remote.putBlob(digestOf(blob), blob), false);
    assertEquals(await remote.getBlob(digestOf(blob), blob.length), blob);
    assertEquals([remote.readOnly, remote.down, warnings.length], [true, false, 1]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("remote habits: a redirect to another host gets no credentials, and none is printed", async () => {
  const outcome = await twoMachines({ redirect: true, credentials: true });
  assertEquals([outcome.failed, outcome.wrong, outcome.leaked, outcome.served], [0, 0, 0, 7]);
  // A password holding a bare '@' (the URL parser reads to the last one) is not half printed.
  const shown = withoutCredentials(`failed: http://ci:${SECRETS.password}@cache:8080/c and https://u:x@h/`);
  assertEquals(shown, "failed: http://…@cache:8080/c and https://…@h/");
});

Deno.test("remote habits: a blob too large for the server (nginx 413, bazel-remote 400) skips that upload only", async () => {
  for (const tooLarge of [413, 400] as const) {
    const server = startHabitServer({ ...PLAIN, maxBody: 1000, tooLarge });
    try {
      const warnings: string[] = [];
      const remote = new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) });
      const big = new Uint8Array(5000).fill(7), small = new Uint8Array(10).fill(3);
      assertEquals(await remote.putBlob(digestOf(big), big), false);
      assertEquals(await remote.putBlob(digestOf(small), small), true, `${tooLarge}: ${warnings.join("\n")}`);
      assertEquals(await remote.getBlob(digestOf(small), small.length), small);
      assertEquals(
        server.requests.filter((r) => r.status === tooLarge).length,
        1,
        "a refusal is not retried",
      );
      assertEquals(warnings.length, 1);
      assert(warnings[0].includes(`too large (${tooLarge})`), warnings[0]);
    } finally {
      await server.stop();
    }
  }
});

Deno.test("remote habits: a server that fails every upload (500) is still read from", async () => {
  const server = startHabitServer(PLAIN);
  const failing = startHabitServer({ ...PLAIN, putStatus: 500 });
  try {
    const warnings: string[] = [];
    const blob = new Uint8Array(100).fill(1);
    const good = new RemoteCache({ url: server.url });
    await good.putBlob(digestOf(blob), blob);
    const remote = new RemoteCache({ url: failing.url, retries: 1, onWarning: (m) => warnings.push(m) });
    assertEquals(await remote.putBlob(digestOf(blob), blob), false);
    // The same path on the good server: what another machine uploaded is still read.
    const reader = new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) });
    assertEquals(await reader.getBlob(digestOf(blob), blob.length), blob);
    assert(remote.readOnly && !remote.down, "no longer written to, still read from");
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("still reading from it"), warnings[0]);
  } finally {
    await server.stop();
    await failing.stop();
  }
});

Deno.test("remote habits: Retry-After within the budget is waited out; a longer one is not waited for", async () => {
  const blob = new Uint8Array(64).fill(9);
  for (
    const [status, seconds, served] of [[429, 0.05, true], [503, 0.05, true], [429, 120, false]] as const
  ) {
    let asked = 0;
    // Busy for the first request, as a rate-limiting proxy or a server starting up.
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () =>
        asked++ === 0
          ? new Response(null, { status, headers: { "retry-after": `${seconds}` } })
          : new Response(blob.slice()),
    );
    try {
      const warnings: string[] = [];
      const remote = new RemoteCache({
        url: `http://127.0.0.1:${server.addr.port}/c`,
        timeoutMs: 1000,
        onWarning: (m) => warnings.push(m),
      });
      const started = performance.now();
      const got = await remote.getBlob(digestOf(blob), blob.length);
      const ms = performance.now() - started;
      assertEquals(got !== undefined, served, `${status} ${seconds}: ${warnings.join("\n")}`);
      // Half the 120 s the server asks for: tells waiting it out from not, whatever the host's load.
      assert(ms < 60_000, `${status} ${seconds}: waited ${ms} ms`);
      assertEquals(asked, served ? 2 : 1, `${status} ${seconds}: ${asked} requests`);
      if (!served) assert(warnings[0].includes("asked to retry after 120 s"), warnings[0]);
    } finally {
      await server.shutdown();
    }
  }
});

Deno.test({
  name:
    "remote habits: real nginx misconfigured as users do: small client_max_body_size, read-only, no full put path",
  ignore: !findNginx(),
  async fn() {
    // Three views of one store, as a team's nginx grows them.
    const server = await startCacheServer(`
    location /small/ { root ROOT; dav_methods PUT; create_full_put_path on; client_max_body_size 16k; }
    location /ro/ { alias ROOT/small/; }
    location /noful/ { root ROOT; dav_methods PUT; client_max_body_size 0; }`);
    const root = await tempDir({ prefix: "partgraph-habits-" });
    try {
      const model = join(root, "ship.cmp");
      await Deno.writeFile(model, realisticCmp(11, { parts: 4, maxGroupVertices: 80 }));
      const base = server.url.replace(/\/cache$/, "");
      const build = async (name: string, path: string) => {
        const warnings: string[] = [];
        const where = { cacheDir: join(root, name, "cache"), outDir: join(root, name, "out") };
        const remoteCache = new RemoteCache({ url: `${base}/${path}`, onWarning: (m) => warnings.push(m) });
        const run = await runGraph(GRAPH, { inputs: { model }, ...where, remoteCache });
        const out: Record<string, string> = {};
        for await (const entry of Deno.readDir(where.outDir)) {
          out[entry.name] = sha256Hex(await Deno.readFile(join(where.outDir, entry.name)));
        }
        return { run, warnings, out };
      };
      const reference = await build("ref", "none");
      const small = await build("a", "small");
      assertEquals(small.out, reference.out);
      assertEquals(small.warnings.length, 1, small.warnings.join("\n"));
      assert(small.warnings[0].includes("too large (413)"), small.warnings[0]);
      // The records and blobs under 16 kB went up; the model and the export did not.
      const stored = await Array.fromAsync(Deno.readDir(join(server.root, "..", "small", "ac")));
      assert(stored.length >= 3, `${stored.length} records stored`);

      const readOnly = await build("b", "ro");
      assertEquals(readOnly.out, reference.out);
      assert(
        readOnly.warnings.length <= 1 && readOnly.warnings.every((w) => w.includes("(405)")),
        readOnly.warnings[0],
      );

      const noFullPath = await build("c", "noful");
      assertEquals(noFullPath.out, reference.out);
      assertEquals(noFullPath.warnings.length, 1, noFullPath.warnings.join("\n"));
      assert(noFullPath.warnings[0].includes("still reading from it"), noFullPath.warnings[0]);
    } finally {
      await server.stop();
      await Deno.remove(root, { recursive: true });
    }
  },
});
