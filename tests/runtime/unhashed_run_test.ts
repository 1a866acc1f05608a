/**
 * A run without a cache whose caller needs no digests (`fileDigests: false`, the CLI's `run
 * --no-cache` without `--manifest` or `--json`) hashes none of the files it reads and writes, and
 * builds the same files; sources are then keyed by path, so two files are never taken for one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRegistry, defineNode, runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { UNHASHED } from "../../runtime/execute/files.ts";
import { tempDir } from "../support/temp.ts";

/** The digest of a file as the node asks the run for it (`ctx.fileDigest`). */
const askedDigest = defineNode({
  type: "test.asked_digest",
  version: 1,
  doc: "The SHA-256 of a file, asked of the run context.",
  inputs: {},
  outputs: { sha256: { type: "string", doc: "The digest." } },
  params: { path: { type: "string", default: "", doc: "File." } },
  async run({ params, ctx }) {
    return { sha256: await ctx.fileDigest(params.path) };
  },
});

const registry = createRegistry().register({ nodes: [askedDigest] });

/** Copies two files (and asks for the first one's digest): two sources whose keys must differ. */
const TWO_COPIES: GraphFile = {
  version: 1,
  inputs: { a: { type: "string" }, b: { type: "string" } },
  nodes: {
    readA: { type: "io.read", params: { path: { $input: "a" } } },
    readB: { type: "io.read", params: { path: { $input: "b" } } },
    writeA: { type: "io.write", inputs: { bytes: "readA.bytes" }, params: { path: "a.out" } },
    writeB: { type: "io.write", inputs: { bytes: "readB.bytes" }, params: { path: "b.out" } },
    digest: { type: "test.asked_digest", params: { path: { $input: "a" } } },
  },
  outputs: { a: "writeA.path", b: "writeB.path", digest: "digest.sha256" },
};

async function twoFiles() {
  const dir = await tempDir();
  const a = join(dir, "a.bin"), b = join(dir, "b.bin");
  // Over the cache's inline limit, and different.
  const bytesA = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 255);
  const bytesB = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 17 + 5) & 255);
  await Deno.writeFile(a, bytesA);
  await Deno.writeFile(b, bytesB);
  return { dir, a, b, bytesA, bytesB };
}

Deno.test("fileDigests false with noCache: no file hashed, the same files built, sources kept apart", async () => {
  const { dir, a, b, bytesA, bytesB } = await twoFiles();
  const run = (outDir: string, fileDigests?: boolean) =>
    runGraph(TWO_COPIES, { registry, inputs: { a, b }, outDir, noCache: true, fileDigests });
  const unhashed = await run(join(dir, "unhashed"), false);
  const hashed = await run(join(dir, "hashed"));

  assert.deepEqual(await Deno.readFile(join(dir, "unhashed", "a.out")), bytesA);
  assert.deepEqual(await Deno.readFile(join(dir, "unhashed", "b.out")), bytesB);
  assert.deepEqual(unhashed.writes, [
    { path: "a.out", sha256: UNHASHED },
    { path: "b.out", sha256: UNHASHED },
  ]);
  // The digest a node asks for is worked out all the same (and then recorded).
  assert.equal(unhashed.outputs.digest, sha256Hex(bytesA));
  assert.deepEqual(unhashed.reads, [{ path: a, sha256: sha256Hex(bytesA) }, { path: b, sha256: UNHASHED }]);

  assert.deepEqual(hashed.writes, [
    { path: "a.out", sha256: sha256Hex(bytesA) },
    { path: "b.out", sha256: sha256Hex(bytesB) },
  ]);
  assert.deepEqual(hashed.reads, [
    { path: a, sha256: sha256Hex(bytesA) },
    { path: b, sha256: sha256Hex(bytesB) },
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("fileDigests false is ignored where a cache tier needs the digests", async () => {
  const { dir, a, b, bytesA, bytesB } = await twoFiles();
  const options = { registry, inputs: { a, b }, outDir: join(dir, "out"), fileDigests: false };
  const cold = await runGraph(TWO_COPIES, { ...options, cacheDir: join(dir, "cache") });
  assert.deepEqual(cold.writes.map((w) => w.sha256), [sha256Hex(bytesA), sha256Hex(bytesB)]);
  const warm = await runGraph(TWO_COPIES, { ...options, cacheDir: join(dir, "cache") });
  assert.deepEqual(Object.values(warm.nodes).map((n) => n.state), Array(5).fill("cached"));
  // A memory tier alone (no disk) keys by digests too.
  const memory = await runGraph(TWO_COPIES, { ...options, cacheDir: false });
  assert.deepEqual(memory.reads.map((r) => r.sha256), [sha256Hex(bytesA), sha256Hex(bytesB)]);
  await Deno.remove(dir, { recursive: true });
});
