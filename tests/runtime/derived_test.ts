/**
 * Bytes derived from bytes (`runtime/derived.ts`), kept by the disk cache of the run in progress: a
 * later run's node gets them without the work, verified; a damaged one is derived again; `--no-cache`
 * keeps and recalls nothing, and a refresh run recalls nothing but keeps what it derives.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRegistry, defineNode, runGraph } from "../../mod.ts";
import { DiskCache } from "../../runtime/cache/disk.ts";
import { recallDerived, rememberDerived } from "../../runtime/derived.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

let derivations = 0;

/** The text's bytes reversed and repeated (over the inline limit), derived through the store. */
const derive = defineNode({
  type: "test.derive",
  version: 1,
  doc: "Derives bytes from a text, through the store of derived bytes.",
  inputs: {},
  outputs: {
    size: { type: "number", doc: "Bytes derived." },
    first: { type: "number", doc: "Their first byte." },
  },
  params: {
    text: { type: "string", default: "", doc: "Input." },
    tag: { type: "number", default: 0, doc: "Changes the key only." },
  },
  run({ params }) {
    const input = params.text;
    let bytes = recallDerived("test reversal 1", input);
    if (!bytes) {
      derivations++;
      bytes = new TextEncoder().encode(input.split("").reverse().join("").repeat(1000));
      rememberDerived("test reversal 1", input, bytes);
    }
    return { size: bytes.byteLength, first: bytes[0] };
  },
});

const registry = createRegistry().register({ nodes: [derive] });
const graph = (tag: number): GraphFile => ({
  version: 1,
  nodes: { d: { type: "test.derive", params: { text: "abc", tag } } },
  outputs: { size: "d.size", first: "d.first" },
});

Deno.test("derived bytes: kept by the disk cache, recalled by a later run's node, verified", async () => {
  const dir = await tempDir();
  const cacheDir = join(dir, "cache"), outDir = join(dir, "out");
  const before = derivations;
  const first = await runGraph(graph(1), { registry, cacheDir, outDir });
  assert.deepEqual([first.outputs.size, first.outputs.first, derivations], [3000, 99, before + 1]);
  // Another key (the node runs), the same input: the bytes come from the cache.
  const second = await runGraph(graph(2), { registry, cacheDir, outDir });
  assert.deepEqual([second.nodes.d.state, second.outputs.size, derivations], ["done", 3000, before + 1]);

  // A damaged blob is derived again (and kept again).
  const cas = join(cacheDir, "cas");
  for await (const shard of Deno.readDir(cas)) {
    for await (const blob of Deno.readDir(join(cas, shard.name))) {
      const path = join(cas, shard.name, blob.name);
      const bytes = await Deno.readFile(path);
      bytes[0] ^= 0xff;
      await Deno.writeFile(path, bytes);
    }
  }
  const damaged = await runGraph(graph(3), { registry, cacheDir, outDir });
  assert.deepEqual([damaged.outputs.first, derivations], [99, before + 2]);

  // A refresh recalls nothing; --no-cache neither recalls nor keeps.
  await runGraph(graph(4), { registry, cacheDir, outDir, refresh: true });
  assert.equal(derivations, before + 3);
  const records = (await new DiskCache(cacheDir).stats()).actions;
  await runGraph(graph(5), { registry, cacheDir, outDir, noCache: true });
  assert.equal(derivations, before + 4);
  assert.equal((await new DiskCache(cacheDir).stats()).actions, records, "nothing kept without a cache");
});
