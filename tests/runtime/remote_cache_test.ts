import { deepStrictEqual as assertEquals, ok as assert, throws as assertThrows } from "node:assert/strict";
import { join } from "node:path";
import { createRegistry, runGraph } from "../../mod.ts";
import { BUILTIN_PLUGINS } from "../../nodes/mod.ts";
import { defineNode } from "../../runtime/node.ts";
import { DiskCache } from "../../runtime/cache/disk.ts";
import { RemoteCache } from "../../runtime/cache/remote.ts";
import { actionResultOf } from "../../runtime/cache/action_result.ts";
import { hintBody, hintOf } from "../../runtime/cache/run_hint.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { buildLargeGlb } from "../support/large_glb.ts";
import { type CacheServer, findNginx, freePort, NO_NGINX, startCacheServer } from "../support/nginx.ts";
import { tempDir } from "../support/temp.ts";
import { fileLengthNode, folderBytesNode, testPlugin } from "../support/test_nodes.ts";
import { decodeActionResult, startValidatingCacheServer } from "../support/bazel_cache.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const noNginx = !findNginx();
if (noNginx) console.warn(`skipped: ${NO_NGINX}`);

/** A folder standing for one machine: its own disk cache and output folder. */
async function machine(root: string, name: string) {
  const dir = join(root, name);
  await Deno.mkdir(dir, { recursive: true });
  return { cacheDir: join(dir, "cache"), outDir: join(dir, "out") };
}

async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) out[entry.name] = sha256Hex(await Deno.readFile(join(dir, entry.name)));
  }
  return out;
}

async function setup() {
  const root = await tempDir({ prefix: "partgraph-remote-" });
  const model = join(root, "ship.cmp");
  await Deno.writeFile(model, realisticCmp(11, { parts: 4, maxGroupVertices: 80 }));
  return { root, model };
}

/** Runs `test` against a fresh nginx cache server and a generated model, cleaning both up after. */
function serverTest(name: string, test: (server: CacheServer, root: string, model: string) => Promise<void>) {
  Deno.test({
    name,
    ignore: noNginx,
    async fn() {
      const { root, model } = await setup();
      const server = await startCacheServer();
      try {
        await test(server, root, model);
      } finally {
        await server.stop();
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

/** The record nginx holds for `key`, read from its ActionResult by an independent protobuf reader. */
async function serverRecord(server: CacheServer, key: string) {
  const message = decodeActionResult(await Deno.readFile(join(server.root, "ac", key)));
  return JSON.parse(new TextDecoder().decode(message.stdoutRaw));
}

const build = (model: string, where: { cacheDir: string; outDir: string }, remote?: RemoteCache) =>
  runGraph(GRAPH, { inputs: { model }, ...where, remoteCache: remote });

serverTest(
  "remote cache: a second machine's first build is served by the server, byte-identical",
  async (server, root, model) => {
    const a = await machine(root, "a");
    const first = await build(model, a, new RemoteCache({ url: server.url }));
    assert(Object.values(first.nodes).every((n) => n.state === "done"));
    // Every record is on the server when the run returns (uploads go on beside the nodes; the run's end
    // waits for them).
    const uploadedKeys = new Set(
      (await Array.fromAsync(Deno.readDir(join(server.root, "ac")))).map((e) => e.name),
    );
    for (const [id, report] of Object.entries(first.nodes)) {
      assert(report.key && uploadedKeys.has(report.key), `${id}'s record is not on the server`);
    }
    // Machine a keeps the read's output as a reference to the model; the server gets the bytes.
    const readKey = Object.values(first.nodes).find((n) => n.type === "io.read")!.key!;
    const uploaded = await serverRecord(server, readKey);
    assertEquals([uploaded.outputs.bytes.file, uploaded.outputs.bytes.size], [
      undefined,
      (await Deno.stat(model)).size,
    ]);
    const local = await new DiskCache(a.cacheDir).lookup(readKey);
    assertEquals(local?.outputs.bytes.file, model);

    const b = await machine(root, "b");
    const warnings: string[] = [];
    const second = await build(
      model,
      b,
      new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) }),
    );
    const states = Object.entries(second.nodes);
    // Nodes whose result is a value come from the server; file writers run, writing the served values.
    for (const [id, report] of states) {
      if (report.type === "io.write") assertEquals(report.state, "done", id);
      else assertEquals([id, report.state, report.tier], [id, "cached", "remote"]);
    }
    assertEquals(warnings, []);
    assertEquals(await files(b.outDir), await files(a.outDir));

    // What the server served was kept locally: with the server gone, the next run needs no network.
    await server.stop();
    const third = await build(model, b, new RemoteCache({ url: server.url, onWarning: () => {} }));
    assert(Object.values(third.nodes).every((n) => n.state === "cached" && n.tier !== "remote"));
  },
);

serverTest(
  "remote cache: a blob corrupted on the server is detected, recomputed and replaced",
  async (server, root, model) => {
    const a = await machine(root, "a");
    await build(model, a, new RemoteCache({ url: server.url }));
    const blobs: string[] = [];
    for await (const entry of Deno.readDir(join(server.root, "cas"))) blobs.push(entry.name);
    assert(blobs.length > 0);
    for (const name of blobs) {
      const path = join(server.root, "cas", name);
      const bytes = await Deno.readFile(path);
      bytes[bytes.length >> 1] ^= 0xff;
      await Deno.writeFile(path, bytes);
    }
    const c = await machine(root, "c");
    const warnings: string[] = [];
    const run = await build(
      model,
      c,
      new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) }),
    );
    assert(warnings.some((w) => w.includes("does not match its digest")), warnings.join("\n"));
    assert(Object.values(run.nodes).some((n) => n.state === "done" && n.type !== "io.write"));
    assertEquals(await files(c.outDir), await files(a.outDir));
    // The recomputed result was uploaded over the corrupt blob: the server holds good bytes again.
    for (const name of blobs) {
      assertEquals(sha256Hex(await Deno.readFile(join(server.root, "cas", name))), name);
    }
  },
);

serverTest(
  "remote cache: a record of the wrong shape on the server is a miss, not a crash",
  async (server, root, model) => {
    const a = await machine(root, "a");
    const first = await build(model, a, new RemoteCache({ url: server.url }));
    const hostile = [
      `{"version":1,"type":"decode.cmp","outputs":{},"warnings":null,"reads":[],"writes":[]}`,
      `{"version":1,"type":"x","outputs":{"scene":{"type":"scene","digest":"zz","size":-1}},"warnings":[],"reads":[],"writes":[]}`,
      `[[[[[[[[`,
      // A path means something only on the machine that stored it: a remote's record never holds one.
      `{"version":1,"type":"io.read","outputs":{"bytes":{"type":"bytes","digest":"${"0".repeat(64)}",` +
      `"size":5,"file":"/etc/hostname"}},"warnings":[],"reads":[],"writes":[]}`,
    ];
    // Each as an ActionResult, and bare (as releases before ActionResults uploaded records).
    const bodies = hostile.flatMap((text) => {
      const bytes = new TextEncoder().encode(text);
      return [actionResultOf(bytes, []), bytes];
    });
    const keys = Object.values(first.nodes).map((n) => n.key!).filter(Boolean);
    assert(keys.length >= hostile.length);
    for (const [i, key] of keys.entries()) {
      await Deno.writeFile(join(server.root, "ac", key), bodies[i % bodies.length]);
    }
    const b = await machine(root, "b");
    const run = await build(model, b, new RemoteCache({ url: server.url, onWarning: () => {} }));
    assert(Object.values(run.nodes).every((n) => n.state === "done"));
    assertEquals(await files(b.outDir), await files(a.outDir));
  },
);

Deno.test("remote cache: a server that checks its action cache as bazel-remote does takes every record and serves them", async () => {
  const { root, model } = await setup();
  const server = startValidatingCacheServer();
  try {
    // The server refuses what is not an ActionResult, as a JSON record would be.
    const refusedJson = await fetch(`${server.url}/ac/${"1".repeat(64)}`, { method: "PUT", body: "{}" });
    await refusedJson.body?.cancel();
    assertEquals(refusedJson.status, 400);
    server.refused.length = 0;

    const a = await machine(root, "a");
    const first = await build(model, a, new RemoteCache({ url: server.url }));
    assertEquals(server.refused, []);
    const keys = Object.values(first.nodes).map((n) => n.key!);
    assertEquals(keys.filter((key) => !server.ac.has(key)), []);
    let listed = 0;
    for (const key of keys) {
      const message = decodeActionResult(server.ac.get(key)!);
      assertEquals(message.executionMetadata?.worker, "127.0.0.1"); // what the server added
      for (const file of message.outputFiles) {
        assertEquals(sha256Hex(server.cas.get(file.digest.hash)!), file.digest.hash);
        listed++;
      }
    }
    assert(listed > 0);

    const b = await machine(root, "b");
    const warnings: string[] = [];
    const remoteB = new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) });
    const second = await build(model, b, remoteB);
    for (const [id, report] of Object.entries(second.nodes)) {
      if (report.type !== "io.write") assertEquals([id, report.state, report.tier], [id, "cached", "remote"]);
    }
    assertEquals(warnings, []);
    assertEquals(await files(b.outDir), await files(a.outDir));

    // A blob the server lost (evicted) makes it deny the records that list it: those are computed again.
    const lost = keys.map((key) => decodeActionResult(server.ac.get(key)!).outputFiles)
      .find((listed) => listed.length)![0].digest.hash;
    server.cas.delete(lost);
    const c = await machine(root, "c");
    const later: string[] = [];
    const third = await build(
      model,
      c,
      new RemoteCache({ url: server.url, onWarning: (m) => later.push(m) }),
    );
    assert(Object.values(third.nodes).some((n) => n.type !== "io.write" && n.state === "done"));
    assertEquals(later, []);
    assertEquals(await files(c.outDir), await files(a.outDir));
    assertEquals(sha256Hex(server.cas.get(lost)!), lost); // uploaded again by the machine that rebuilt it
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("remote cache: a run's hint lets the next machine ask for every record at once", async () => {
  const { root, model } = await setup();
  const server = startValidatingCacheServer(30); // a server 30 ms away
  try {
    const a = await machine(root, "a");
    const first = await build(model, a, new RemoteCache({ url: server.url }));
    const keys = Object.values(first.nodes).map((n) => n.key!);
    const hints = [...server.ac.keys()].filter((key) => !keys.includes(key));
    assertEquals(hints.length, 1);

    /** A build on a new machine, counting its requests afresh. */
    const buildOn = async (name: string) => {
      server.resetCounts();
      const run = await build(model, await machine(root, name), new RemoteCache({ url: server.url }));
      return { run, asked: server.requests.filter((r) => r.startsWith("GET ac/")).length };
    };
    // Without the hint each node's record is asked for after its input's arrived: one at a time.
    server.ac.delete(hints[0]);
    const without = await buildOn("b");
    assertEquals(server.maxInFlight <= 2, true, `${server.maxInFlight} requests at once without a hint`);
    // Its hint lists what it looked up and the blobs it took from the server (the files it writes).
    const taken = server.requests.filter((r) => r.startsWith("GET cas/")).map((r) => r.slice(8));
    assert(taken.length >= 2 && server.requests.includes(`PUT ac/${hints[0]}`));

    const withHint = await buildOn("c");
    // The hint and the first record are asked for together, then every other record and blob at once.
    assert(
      server.maxInFlight >= keys.length - 2 + taken.length,
      `only ${server.maxInFlight} requests at once`,
    );
    assertEquals(withHint.asked, without.asked); // no record asked for twice (the hint replaces a miss)
    assertEquals(server.requests.filter((r) => r.startsWith("GET cas/")).length, taken.length);
    for (const [id, report] of Object.entries(withHint.run.nodes)) {
      if (report.type !== "io.write") assertEquals([id, report.state, report.tier], [id, "cached", "remote"]);
    }
    // Nothing goes up: the hint says what this run looked up, and the file writes' records are there.
    assertEquals(server.requests.filter((r) => r.startsWith("PUT")), []);
    assertEquals(await files(join(root, "c", "out")), await files(a.outDir));

    // A hint of keys and blobs no run needs, or too many, costs at most the plan's size in requests.
    const foreign = Array.from({ length: 5000 }, (_, i) => sha256Hex(String(i)));
    for (const listed of [foreign.slice(0, keys.length), foreign]) {
      server.ac.set(
        hints[0],
        hintBody({ keys: listed, blobs: listed.map((digest) => [digest, 1e6] as const) }),
      );
      const { run } = await buildOn(`d${listed.length}`);
      assert(server.requests.length <= 4 * keys.length, `${server.requests.length} requests`);
      assert(Object.values(run.nodes).every((n) => n.state !== "failed"));
      assertEquals(await files(join(root, `d${listed.length}`, "out")), await files(a.outDir));
      // The run puts its own keys up in the hint's place.
      assert(server.requests.includes(`PUT ac/${hints[0]}`));
    }
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("remote cache: a record whose reads changed here goes up again; one only missing its writes does not", async () => {
  const root = await tempDir({ prefix: "partgraph-remote-" });
  const server = startValidatingCacheServer();
  const side = join(root, "side.bin");
  const fileLength = defineNode({
    type: "test.side_length",
    version: 1,
    doc: "The length of a file it reads through ctx.readFile, as bytes of that many zeros.",
    inputs: {},
    outputs: { bytes: { type: "bytes", doc: "Zeros." } },
    params: {},
    async run({ ctx }) {
      return { bytes: { bytes: new Uint8Array((await ctx.readFile(side)).byteLength), name: "zeros.bin" } };
    },
  });
  const registry = createRegistry([...BUILTIN_PLUGINS, { nodes: [fileLength] }]);
  const graph = {
    version: 1 as const,
    nodes: {
      length: { type: "test.side_length" },
      write: { type: "io.write", inputs: { bytes: "length.bytes" }, params: { path: "zeros.bin" } },
    },
  };
  const build = async (name: string) => {
    server.resetCounts();
    const where = await machine(root, name);
    const run = await runGraph(graph, {
      registry,
      ...where,
      remoteCache: new RemoteCache({ url: server.url }),
    });
    return { run, puts: server.requests.filter((r) => r.startsWith("PUT ac/")).map((r) => r.slice(7)) };
  };
  try {
    await Deno.writeFile(side, new Uint8Array(5));
    const first = await build("a");
    const keys = [first.run.nodes.length.key!, first.run.nodes.write.key!];

    const same = await build("b"); // its write's output is missing here, and nothing else changed
    assertEquals([same.run.nodes.length.state, same.run.nodes.write.state], ["cached", "done"]);
    assertEquals(same.puts.filter((key) => keys.includes(key)), []);

    await Deno.writeFile(side, new Uint8Array(7));
    const changed = await build("c");
    assertEquals(changed.run.nodes.length.state, "done");
    assert(changed.puts.includes(keys[0]), "the record of the node whose read changed is uploaded again");
    const record = JSON.parse(
      new TextDecoder().decode(decodeActionResult(server.ac.get(keys[0])!).stdoutRaw),
    );
    assertEquals(record.reads, [{ path: side, sha256: sha256Hex(new Uint8Array(7)) }]);
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("remote cache: machines whose files differ each take their own result; neither replaces the other's", async () => {
  const root = await tempDir({ prefix: "partgraph-remote-" });
  const server = startValidatingCacheServer();
  // A library file every machine keeps at the same path, with contents that differ from one machine
  // (a branch, a mod set) to another.
  const registry = createRegistry([...BUILTIN_PLUGINS, testPlugin, { nodes: [fileLengthNode] }]);
  const graph = {
    version: 1 as const,
    nodes: {
      length: { type: "test.file_length", params: { path: join(root, "library.mat") } },
      plus: { type: "test.add", inputs: { a: "length.value" }, params: { offset: 100 } },
    },
    outputs: { value: "plus.value" },
  };
  const hints = () => [...server.ac.values()].map((bytes) => hintOf(bytes, 10)).filter((hint) => hint);
  const build = async (name: string, size: number) => {
    await Deno.writeFile(join(root, "library.mat"), new Uint8Array(size));
    server.resetCounts();
    const run = await runGraph(graph, {
      registry,
      ...await machine(root, name),
      remoteCache: new RemoteCache({ url: server.url }),
    });
    const { length, plus } = run.nodes;
    return { result: [length.state, length.tier ?? null, plus.state, run.outputs.value], plus: plus.key };
  };
  try {
    const main = await build("main-1", 5);
    assertEquals(main.result, ["done", null, "done", 105]);
    const branch = await build("branch-1", 7);
    assertEquals(branch.result, ["done", null, "done", 107]);
    // One hint (the graph and its source are the same on both), listing both machines' keys: the
    // dependents' keys differ with what was read.
    assertEquals(hints().length, 1);
    assert(hints()[0]!.keys.includes(main.plus!) && hints()[0]!.keys.includes(branch.plus!));

    // New machines, an empty disk cache each: both results are on the server, under one key. The
    // first main machine finds main's result as a read variant, and adds the variant's key to the hint;
    // from then on every record a machine asks for is one the hint listed, and nothing goes up.
    for (const [name, size] of [["main-2", 5], ["branch-2", 7], ["main-3", 5]] as const) {
      const listed = new Set(hints()[0]!.keys);
      const again = await build(name, size);
      assertEquals(again.result, ["cached", "remote", "cached", 100 + size], name);
      const puts = server.requests.filter((r) => r.startsWith("PUT"));
      const asked = server.requests.filter((r) => r.startsWith("GET ac/")).map((r) => r.slice(7));
      if (name === "main-2") assertEquals(puts.length, 1, "the hint, with the variant's key");
      else {
        assertEquals(puts, [], name);
        assertEquals(asked.filter((key) => !listed.has(key)).length, 1, `${name}: only the hint itself`);
      }
    }
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("remote cache: a read variant this machine has is taken from its disk, with no round trip; the remote's all at once", async () => {
  const root = await tempDir({ prefix: "partgraph-remote-" });
  const server = startValidatingCacheServer(30); // 30 ms away
  const content = join(root, "content");
  await Deno.mkdir(content);
  const options = {
    registry: createRegistry([...BUILTIN_PLUGINS, { nodes: [folderBytesNode] }]),
    ...await machine(root, "a"),
    remoteCache: new RemoteCache({ url: server.url }),
  };
  const graph = {
    version: 1 as const,
    nodes: { sum: { type: "test.folder_bytes", params: { dir: content } } },
    outputs: { total: "sum.total" },
  };
  try {
    await Deno.writeFile(join(content, "a.bin"), new Uint8Array(3));
    assertEquals((await runGraph(graph, options)).nodes.sum.state, "done");
    await Deno.writeFile(join(content, "b.bin"), new Uint8Array(4)); // another file read: another read set
    assertEquals((await runGraph(graph, options)).nodes.sum.state, "done");
    await Deno.remove(join(content, "b.bin"));
    server.resetCounts();
    const back = await runGraph(graph, options);
    assertEquals([back.nodes.sum.state, back.nodes.sum.tier, back.outputs.total], ["cached", "disk", 3]);
    // The variant of the latest record's read set (b.bin now absent) is nowhere; it was not asked for.
    const asked = server.requests.filter((r) => r.startsWith("GET ac/")).map((r) => r.slice(7));
    assertEquals(asked.filter((key) => !server.ac.has(key)), []);

    // A third read set; then a machine with nothing on disk, in the first state. Its lookup finds the
    // latest record stale and asks the remote for the variant of each read set it names at once.
    await Deno.writeFile(join(content, "c.bin"), new Uint8Array(5));
    assertEquals((await runGraph(graph, options)).nodes.sum.state, "done");
    await Deno.remove(join(content, "c.bin"));
    server.resetCounts();
    const fresh = await runGraph(graph, { ...options, ...await machine(root, "b") });
    assertEquals([fresh.nodes.sum.state, fresh.nodes.sum.tier, fresh.outputs.total], ["cached", "remote", 3]);
    assert(server.maxInFlight >= 3, `${server.maxInFlight} requests at once`);
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

serverTest("remote cache: read-only uploads nothing", async (server, root, model) => {
  await build(model, await machine(root, "a"), new RemoteCache({ url: server.url, readOnly: true }));
  assertEquals(await Array.fromAsync(Deno.readDir(server.root)), []);
});

Deno.test("remote cache: a server that is down degrades to the local cache with one warning", async () => {
  const { root, model } = await setup();
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({
      url: `http://127.0.0.1:${freePort()}/c`,
      onWarning: (m) => warnings.push(m),
    });
    const run = await build(model, await machine(root, "a"), remote);
    assert(Object.values(run.nodes).every((n) => n.state === "done"));
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("continuing with the local cache"), warnings[0]);
    assert(remote.down);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("remote cache: an answer that trickles in is given up on at the time limit, not waited for", async () => {
  let timer: ReturnType<typeof setInterval> | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    // Headers at once, then a byte every 50 ms of a 10 kB body: 500 s to arrive in full.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => controller.enqueue(new Uint8Array(1)), 50);
      },
      cancel: () => clearInterval(timer),
    });
    return new Response(body, { headers: { "content-length": "10000" } });
  });
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({
      url: `http://127.0.0.1:${server.addr.port}/c`,
      timeoutMs: 300,
      onWarning: (m) => warnings.push(m),
    });
    const started = performance.now();
    assertEquals(await remote.getBlob("a".repeat(64), 10_000), undefined);
    const ms = performance.now() - started;
    // The whole trickle takes 500 s; a tenth of it tells giving up from reading on, under any load.
    assert(ms < 50_000, `gave up after ${ms} ms`);
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("unavailable") && warnings[0].includes("timeout"), warnings[0]);
    assert(remote.down);
  } finally {
    clearInterval(timer);
    await server.shutdown();
  }
});

Deno.test("remote cache: a large blob on a slow link gets the time it needs; a stalled one is given up on", async () => {
  const blob = Uint8Array.from({ length: 2_000_000 }, (_, i) => (i * 31) & 255);
  const digest = sha256Hex(blob);
  const timers = new Set<ReturnType<typeof setInterval>>();
  const bodies = new Set<ReadableStreamDefaultController<Uint8Array>>();
  // 200 kB every 100 ms (2 MB/s: a second for the blob); `stall` stops after the first chunk.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const stall = request.url.includes("/stall/");
    let at = 0, timer: ReturnType<typeof setInterval>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        bodies.add(controller);
        timers.add(
          timer = setInterval(() => {
            if (stall && at > 0) return;
            controller.enqueue(blob.slice(at, at += 200_000)); // a copy: a chunk sent may be handed over
            if (at >= blob.length) clearInterval(timer), controller.close();
          }, 100),
        );
      },
      cancel: () => clearInterval(timer),
    });
    return new Response(body, { headers: { "content-length": String(blob.length) } });
  });
  try {
    const warnings: string[] = [];
    const client = (path: string) =>
      new RemoteCache({
        url: `http://127.0.0.1:${server.addr.port}/${path}`,
        timeoutMs: 300,
        retries: 0,
        onWarning: (m) => warnings.push(m),
      });
    // Longer than the time limit in all, never a pause as long: it arrives.
    const got = await client("steady").getBlob(digest, blob.length); // digest-checked when found
    assertEquals(got?.byteLength, blob.length, warnings.join("\n"));
    assertEquals(warnings.length, 0, warnings.join("\n"));
    // The stalled answer never ends, so returning at all shows the pause was given up on.
    assertEquals(await client("stall").getBlob(digest, blob.length), undefined);
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("stalled: no data for 300 ms"), warnings[0]);
  } finally {
    timers.forEach(clearInterval);
    // Ends the answers still open, or the shutdown would wait for them.
    for (const body of bodies) {
      try {
        body.close();
      } catch { /* already closed */ }
    }
    await server.shutdown();
  }
});

Deno.test("remote cache: credentials in the URL are sent as basic auth and never printed", async () => {
  const auth: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    auth.push(request.headers.get("authorization"));
    return new Response(null, { status: 500 });
  });
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({
      url: `http://ci:s3cret@127.0.0.1:${server.addr.port}/c`,
      retries: 0,
      onWarning: (m) => warnings.push(m),
    });
    assertEquals(await remote.getAction("a".repeat(64)), undefined);
    assertEquals(auth, [`Basic ${btoa("ci:s3cret")}`]);
    assertEquals(warnings.length, 1);
    assert(!warnings[0].includes("s3cret") && warnings[0].includes("http://…@127.0.0.1:"), warnings[0]);
    assertThrows(() => new RemoteCache({ url: "ftp://ci:s3cret@host/c" }), /ftp:\/\/…@host\/c/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("remote cache: a slow server times out, bounded, and a refusing one stops uploads", async () => {
  const { root, model } = await setup();
  const requests: string[] = [];
  const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    await new Promise((done) => setTimeout(done, 1500));
    return new Response(null, { status: 404 });
  });
  const refusing = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    await request.body?.cancel();
    return new Response(null, { status: request.method === "PUT" ? 403 : 404 });
  });
  try {
    const warnings: string[] = [];
    const remote = new RemoteCache({
      url: `http://127.0.0.1:${slow.addr.port}/c`,
      timeoutMs: 150,
      retries: 1,
      onWarning: (m) => warnings.push(m),
    });
    const run = await build(model, await machine(root, "slow"), remote);
    assert(Object.values(run.nodes).every((n) => n.state === "done"));
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("no answer within 150 ms"), warnings[0]);
    // The first record and the run's hint are asked for together: each once and retried once, then the
    // remote is given up on.
    const asked = Map.groupBy(requests, (request) => request);
    assertEquals([...asked.values()].map((same) => same.length), [2, 2], requests.join(", "));
    assert(requests.every((request) => request.startsWith("GET /c/ac/")));

    const refused: string[] = [];
    const remote2 = new RemoteCache({
      url: `http://127.0.0.1:${refusing.addr.port}/c`,
      onWarning: (m) => refused.push(m),
    });
    const run2 = await build(model, await machine(root, "refusing"), remote2);
    assert(Object.values(run2.nodes).every((n) => n.state === "done"));
    assertEquals(refused.length, 1);
    assert(refused[0].includes("refused an upload (403)"), refused[0]);
    assert(remote2.readOnly && !remote2.down, "still read from, no longer written to");
  } finally {
    await slow.shutdown();
    await refusing.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

serverTest(
  "remote cache: a record without values (decode.gltf's) is served, and computed again where its value is needed",
  async (server, root) => {
    const model = join(root, "grid.glb");
    await Deno.writeFile(model, await buildLargeGlb(3_000));
    const graph = (format: string) => ({
      version: 1 as const,
      nodes: {
        read: { type: "io.read", params: { path: model } },
        decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
        export: { type: "export.gltf", inputs: { scene: "decode.scene" }, params: { format } },
        write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: `model.${format}` } },
      },
    });
    const a = await machine(root, "a");
    const first = await runGraph(graph("glb"), { ...a, remoteCache: new RemoteCache({ url: server.url }) });
    const decoded = await serverRecord(server, first.nodes.decode.key!);
    assertEquals([decoded.recompute, decoded.outputs], [true, {}]);
    const blobs = await Array.fromAsync(Deno.readDir(join(server.root, "cas")));
    assertEquals(blobs.length, 2, "the model and the export; no decoded scene");

    // Machine b wants .gltf: the export misses, so the decode's value is needed and computed from the
    // model the server holds, to the same bytes a build without any cache makes.
    const b = await machine(root, "b");
    const warnings: string[] = [];
    const second = await runGraph(graph("gltf"), {
      ...b,
      remoteCache: new RemoteCache({ url: server.url, onWarning: (m) => warnings.push(m) }),
    });
    const states = Object.fromEntries(Object.entries(second.nodes).map(([id, n]) => [id, [n.state, n.tier]]));
    assertEquals(states, {
      read: ["cached", "remote"],
      decode: ["done", undefined],
      export: ["done", undefined],
      write: ["done", undefined],
    });
    assertEquals(warnings, []);
    const fresh = await machine(root, "fresh");
    await runGraph(graph("gltf"), { ...fresh, noCache: true });
    assertEquals(await files(b.outDir), await files(fresh.outDir));
  },
);
