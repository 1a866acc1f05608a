import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { DiskCache } from "../../runtime/cache/disk.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { compileGraph, createRegistry, executePlan, loadGraph } from "../../mod.ts";
import { copyGraph, folderBytesNode, reverseGraph, testPlugin } from "../support/test_nodes.ts";
import { runInFreshProcess } from "../support/fresh_run.ts";
import { tempDir } from "../support/temp.ts";

const registry = createRegistry().register(testPlugin);

async function fixture(size = 50_000): Promise<{ dir: string; src: string; data: Uint8Array }> {
  const dir = await tempDir();
  const data = new Uint8Array(size).map((_, i) => (i * 7 + 3) & 0xff);
  const src = join(dir, "input.bin");
  await Deno.writeFile(src, data);
  return { dir, src, data };
}

async function blobs(cacheDir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const shard of Deno.readDir(join(cacheDir, "cas"))) {
    for await (const file of Deno.readDir(join(cacheDir, "cas", shard.name))) {
      out.push(join(cacheDir, "cas", shard.name, file.name));
    }
  }
  return out;
}

Deno.test("a corrupted or truncated blob is detected, discarded and recomputed", async () => {
  for (const damage of ["flip", "truncate"] as const) {
    const { dir, src, data } = await fixture();
    const cacheDir = join(dir, "cache");
    await runGraph(reverseGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out1"), registry });
    const [blob] = await blobs(cacheDir);
    const stored = await Deno.readFile(blob);
    if (damage === "flip") stored[1234] ^= 0xff;
    await Deno.writeFile(blob, damage === "flip" ? stored : stored.subarray(0, 100));
    // A new output folder forces the write to run, which needs the reversal's (damaged) value.
    const run = await runGraph(reverseGraph, {
      inputs: { src },
      cacheDir,
      outDir: join(dir, "out2"),
      registry,
    });
    assertEquals(run.nodes.reverse.state, "done", `${damage}: the reversal was recomputed`);
    assertEquals(await Deno.readFile(join(dir, "out2", "copy.bin")), data.toReversed());
    assertEquals(await Deno.readFile(blob), data.toReversed(), `${damage}: the blob was rewritten whole`);
  }
});

Deno.test("a file a node read and output whole is kept as a reference to the file, not a second copy", async () => {
  const { dir, src, data } = await fixture();
  const cacheDir = join(dir, "cache");
  await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out1") });
  const stats = await new DiskCache(cacheDir).stats();
  assertEquals([stats.actions, stats.blobs], [2, 0], "the read and the write, no blob");
  assert(stats.bytes < 10_000, `${stats.bytes} bytes for a 50000-byte file`);
  // The read's value is needed (a graph output): it comes from the file, checked against its digest.
  const warm = await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out1") });
  assertEquals([warm.nodes.read.state, warm.nodes.write.state], ["cached", "cached"]);
  assertEquals(warm.outputs.bytes, { bytes: data, name: "input.bin" });
  // Gone from where the record points (the key is the content's, so a copy elsewhere still matches):
  // the read runs again, quietly, and nothing after it does.
  await Deno.mkdir(join(dir, "elsewhere"));
  const moved = join(dir, "elsewhere", "input.bin");
  await Deno.rename(src, moved);
  const after = await runGraph(copyGraph, { inputs: { src: moved }, cacheDir, outDir: join(dir, "out1") });
  assertEquals([after.nodes.read.state, after.nodes.write.state, after.warnings], ["done", "cached", []]);
  assertEquals(after.outputs.bytes, { bytes: data, name: "input.bin" });
  // The remote tier never gets a path (tests/runtime/remote_cache_test.ts checks what it does get).
});

Deno.test("a file read by a node is part of its key: editing it re-runs, moving it does not", async () => {
  const { dir, src } = await fixture();
  const cacheDir = join(dir, "cache");
  await runGraph(reverseGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out"), registry });
  // Same base name (it is part of the value, as a format hint), another folder.
  await Deno.mkdir(join(dir, "elsewhere"));
  const moved = join(dir, "elsewhere", "input.bin");
  await Deno.rename(src, moved);
  const again = await runGraph(reverseGraph, {
    inputs: { src: moved },
    cacheDir,
    outDir: join(dir, "out"),
    registry,
  });
  assert(Object.values(again.nodes).every((n) => n.state === "cached"), JSON.stringify(again.nodes));
  await Deno.writeFile(moved, new Uint8Array([1, 2, 3]));
  const edited = await runGraph(reverseGraph, {
    inputs: { src: moved },
    cacheDir,
    outDir: join(dir, "out"),
    registry,
  });
  assertEquals(edited.nodes.read.state, "done");
  assertEquals(edited.nodes.write.state, "done");
  assertEquals(await Deno.readFile(join(dir, "out", "copy.bin")), new Uint8Array([3, 2, 1]));
});

Deno.test("a folder a node searched is part of its result: a file appearing there re-runs it", async () => {
  const dir = await tempDir();
  const graph: GraphFile = {
    version: 1,
    nodes: { list: { type: "test.list", params: { dir: join(dir, "content") } } },
    outputs: { names: "list.names" },
  };
  const registry = createRegistry().register(testPlugin);
  const cacheDir = join(dir, "cache");
  const before = await runGraph(graph, { registry, cacheDir });
  assertEquals(before.outputs.names, []);
  assertEquals((await runGraph(graph, { registry, cacheDir })).nodes.list.state, "cached");
  await Deno.mkdir(join(dir, "content"));
  await Deno.writeTextFile(join(dir, "content", "figure.dsf"), "{}");
  const after = await runGraph(graph, { registry, cacheDir });
  assertEquals(after.nodes.list.state, "done");
  assertEquals(after.outputs.names, ["figure.dsf"]);
});

Deno.test("a result for each state of the files a node read: going back to one is a hit, whatever the node read", async () => {
  const dir = await tempDir();
  const content = join(dir, "content");
  await Deno.mkdir(content);
  const graph: GraphFile = {
    version: 1,
    nodes: { sum: { type: "test.folder_bytes", params: { dir: content } } },
    outputs: { total: "sum.total" },
  };
  const options = {
    registry: createRegistry().register({ nodes: [folderBytesNode] }),
    cacheDir: join(dir, "cache"),
  };
  const states: Record<string, Record<string, number>> = {
    one: { "a.bin": 3 },
    two: { "a.bin": 3, "b.bin": 5 }, // another file read: another read set
    edited: { "a.bin": 4 }, // the same read set, another digest
    three: { "a.bin": 3, "c.bin": 11, "d.bin": 1 },
  };
  const enter = async (state: Record<string, number>) => {
    for (const entry of await Array.fromAsync(Deno.readDir(content))) {
      await Deno.remove(join(content, entry.name));
    }
    for (const [name, size] of Object.entries(state)) {
      await Deno.writeFile(join(content, name), new Uint8Array(size));
    }
  };
  const total = (state: Record<string, number>) => Object.values(state).reduce((a, b) => a + b, 0);
  try {
    for (const name of ["one", "two", "edited", "three"]) {
      await enter(states[name]);
      const run = await runGraph(graph, options);
      assertEquals([run.nodes.sum.state, run.outputs.total], ["done", total(states[name])], name);
    }
    // Every earlier state again, in an order unlike the first: each one's result is still kept.
    for (const name of ["one", "three", "two", "one", "edited", "two"]) {
      await enter(states[name]);
      const run = await runGraph(graph, options);
      assertEquals([run.nodes.sum.state, run.outputs.total], ["cached", total(states[name])], name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a deleted or edited output file is written again on a warm run", async () => {
  const { dir, src, data } = await fixture();
  const cacheDir = join(dir, "cache");
  const outDir = join(dir, "out");
  await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
  await Deno.writeFile(join(outDir, "copy.bin"), new Uint8Array([9]));
  const run = await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
  assertEquals(run.nodes.write.state, "done");
  assertEquals(await Deno.readFile(join(outDir, "copy.bin")), data);
});

Deno.test("two concurrent runs on one cache directory are safe and agree", async () => {
  const { dir, src, data } = await fixture(200_000);
  const cacheDir = join(dir, "cache");
  const runs = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      runGraph(reverseGraph, {
        inputs: { src },
        cacheDir,
        outDir: join(dir, `out${i}`),
        memory: new Map(),
        registry,
      })
    ),
  );
  for (const [i] of runs.entries()) {
    assertEquals(await Deno.readFile(join(dir, `out${i}`, "copy.bin")), data.toReversed());
  }
  const stats = await new DiskCache(cacheDir).stats();
  assertEquals(stats.blobs, 1);
  // No temp files are left behind.
  for (const blob of await blobs(cacheDir)) assert(!blob.includes(".tmp-"), blob);
  const warm = await runGraph(reverseGraph, {
    inputs: { src },
    cacheDir,
    outDir: join(dir, "out0"),
    registry,
  });
  assert(Object.values(warm.nodes).every((n) => n.state === "cached"));
});

Deno.test("three processes filling one cache at once all succeed, and a fourth finds every result", async () => {
  const dir = await tempDir();
  const nodes: Record<string, GraphFile["nodes"][string]> = {
    n0: { type: "test.const", params: { value: 1 } },
  };
  for (let i = 1; i < 300; i++) nodes[`n${i}`] = { type: "test.add", inputs: { a: `n${i - 1}.value` } };
  const graph: GraphFile = { version: 1, nodes, outputs: { value: "n299.value" } };
  const options = { cacheDir: join(dir, "cache"), outDir: join(dir, "out") };
  const runs = await Promise.all([0, 1, 2].map(() => runInFreshProcess(graph, options)));
  for (const run of runs) assertEquals([run.outputs, run.warnings], [{ value: 1 }, []]);
  const warm = await runInFreshProcess(graph, options);
  assertEquals(Object.values(warm.states).filter((s) => s !== "cached"), []);
  assertEquals((await new DiskCache(options.cacheDir).stats()).actions, 300);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the size cap prunes least recently used entries; stats and clear report and empty", async () => {
  const dir = await tempDir();
  const cacheDir = join(dir, "cache");
  for (let i = 0; i < 4; i++) {
    const { src } = await fixture(30_000 + i);
    await runGraph(reverseGraph, {
      inputs: { src },
      cacheDir,
      outDir: join(dir, "out"),
      cacheMaxBytes: 70_000,
      registry,
    });
    await new Promise((r) => setTimeout(r, 5)); // distinct modification times
  }
  const cache = new DiskCache(cacheDir, 70_000);
  const stats = await cache.stats();
  assert(stats.bytes <= 70_000, `cache holds ${stats.bytes} bytes over its 70000 cap`);
  assert(stats.blobs >= 1 && stats.blobs <= 2, `expected the newest blobs to survive, found ${stats.blobs}`);
  const removed = await cache.prune(0);
  assert(removed.actions > 0 && removed.blobs > 0);
  assertEquals((await cache.stats()).bytes, 0);
  await runGraph(copyGraph, { inputs: { src: (await fixture()).src }, cacheDir, outDir: join(dir, "out") });
  await cache.clear();
  assertEquals((await cache.stats()).actions, 0);
});

Deno.test("a cache that cannot be written costs a warning, never the result", async () => {
  const { dir, src, data } = await fixture();
  const cacheDir = join(dir, "not-a-folder");
  await Deno.writeTextFile(cacheDir, "a file where the cache folder should be");
  const run = await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out") });
  assertEquals(await Deno.readFile(join(dir, "out", "copy.bin")), data);
  assert(
    run.warnings.some((w) => w.id === "read" && w.message.startsWith("result not cached")),
    JSON.stringify(run.warnings),
  );
});

Deno.test("--no-cache reads and stores nothing", async () => {
  const { dir, src } = await fixture();
  const cacheDir = join(dir, "cache");
  const run = await runGraph(copyGraph, {
    inputs: { src },
    cacheDir,
    noCache: true,
    outDir: join(dir, "out"),
  });
  assertEquals(run.nodes.read.state, "done");
  assertEquals((await new DiskCache(cacheDir).stats()).actions, 0);
});

/** A disk tier that counts its lookups and their hits. */
class CountingDisk extends DiskCache {
  lookups = 0;
  hits = 0;
  override async lookup(...args: Parameters<DiskCache["lookup"]>) {
    this.lookups++;
    const record = await super.lookup(...args);
    if (record) this.hits++;
    return record;
  }
}

Deno.test("a node whose input no tier held is not looked up (its key is new too); results are the same", async () => {
  const dir = await tempDir();
  const registry = createRegistry().register(testPlugin);
  const chain = (first: number): GraphFile => ({
    version: 1,
    nodes: {
      a: { type: "test.const", params: { value: 1 } },
      b: { type: "test.add", inputs: { a: "a.value" }, params: { offset: first } },
      c: { type: "test.add", inputs: { a: "b.value" }, params: { offset: 10 } },
      d: { type: "test.add", inputs: { a: "c.value" }, params: { offset: 100 } },
    },
    outputs: { value: "d.value" },
  });
  const run = async (graph: GraphFile) => {
    const disk = new CountingDisk(join(dir, "cache"));
    const plan = await compileGraph(await loadGraph(graph), registry);
    const result = await executePlan(plan, { outDir: join(dir, "out"), disk });
    return [result.outputs.value, disk.lookups, disk.hits, Object.values(result.nodes).map((n) => n.state)];
  };
  assertEquals(await run(chain(1)), [112, 1, 0, ["done", "done", "done", "done"]], "cold: only the source");
  assertEquals(await run(chain(1)), [112, 4, 4, ["cached", "cached", "cached", "cached"]], "warm");
  // A changed parameter in the middle: that node misses, what follows it is not looked up.
  assertEquals(await run(chain(2)), [113, 2, 1, ["cached", "done", "done", "done"]]);
  assertEquals(await run(chain(2)), [113, 4, 4, ["cached", "cached", "cached", "cached"]]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a big blob is written in the background: on disk when the run returns, its failure a warning", async () => {
  const { dir, src, data } = await fixture(3 << 20); // past the 1 MiB at which blobs go to the background
  const cacheDir = join(dir, "cache");
  await runGraph(reverseGraph, { inputs: { src }, cacheDir, outDir: join(dir, "out1"), registry });
  const [blob] = await blobs(cacheDir);
  assertEquals(await Deno.readFile(blob), data.toReversed(), "the blob is whole once the run has returned");
  const warm = await runGraph(reverseGraph, {
    inputs: { src },
    cacheDir,
    outDir: join(dir, "out2"),
    registry,
  });
  assertEquals(warm.nodes.reverse.state, "cached");

  // A file where the blob's shard folder should be: the background write fails, the run does not.
  const other = await fixture((3 << 20) + 1);
  const otherCache = join(other.dir, "cache");
  await runGraph(reverseGraph, {
    inputs: { src: other.src },
    cacheDir: otherCache,
    outDir: join(other.dir, "a"),
    registry,
  });
  const [otherBlob] = await blobs(otherCache);
  await new DiskCache(otherCache).clear();
  await Deno.remove(join(otherCache, "cas"), { recursive: true }).catch(() => {});
  await Deno.mkdir(join(otherCache, "cas"), { recursive: true });
  await Deno.writeTextFile(join(otherCache, "cas", otherBlob.split("/").at(-2)!), "not a folder");
  const run = await runGraph(reverseGraph, {
    inputs: { src: other.src },
    cacheDir: otherCache,
    outDir: join(other.dir, "b"),
    registry,
  });
  assertEquals(await Deno.readFile(join(other.dir, "b", "copy.bin")), other.data.toReversed());
  assert(
    run.warnings.some((w) => w.id === "reverse" && w.message.startsWith("result not cached")),
    JSON.stringify(run.warnings),
  );
  const again = await runGraph(reverseGraph, {
    inputs: { src: other.src },
    cacheDir: otherCache,
    outDir: join(other.dir, "c"),
    registry,
  });
  assertEquals(again.nodes.reverse.state, "done", "no record points to the blob that was never written");
});
