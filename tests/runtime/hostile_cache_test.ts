/**
 * Cache records that are valid JSON of the wrong shape (issue 10: `outputs: {}`, `warnings: null`,
 * a wrong output type, a bogus `writes` path) are misses: recomputed, overwritten, one warning —
 * never a failure of every later run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { copyGraph } from "../support/test_nodes.ts";
import { recordProblem } from "../../runtime/cache/record_schema.ts";

async function records(cacheDir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const shard of Deno.readDir(join(cacheDir, "ac"))) {
    for await (const file of Deno.readDir(join(cacheDir, "ac", shard.name))) {
      out.push(join(cacheDir, "ac", shard.name, file.name));
    }
  }
  return out;
}

/** Damage that keeps the record valid JSON: each returns what is written back. */
const DAMAGE: Record<string, (record: Record<string, unknown>) => unknown> = {
  "outputs: {}": (r) => ({ ...r, outputs: {} }),
  "warnings: null": (r) => ({ ...r, warnings: null }),
  "a wrong output type": (r) => ({
    ...r,
    outputs: Object.fromEntries(
      Object.entries(r.outputs as Record<string, object>).map(([k, v]) => [k, { ...v, type: "scene" }]),
    ),
  }),
  "a bogus writes path": (r) => ({ ...r, writes: [{ path: "../../escape.bin", sha256: "0".repeat(64) }] }),
  "reads: a string": (r) => ({ ...r, reads: "x" }),
  "the record inside an array": (r) => [r],
  "inline data that is not base64": (r) => ({
    ...r,
    outputs: Object.fromEntries(
      Object.entries(r.outputs as Record<string, object>).map(([k, v]) => [k, { ...v, inline: "%%%" }]),
    ),
  }),
};

for (const [name, damage] of Object.entries(DAMAGE)) {
  Deno.test(`a cache record with ${name} is recomputed and overwritten, with one warning`, async () => {
    const dir = await Deno.makeTempDir();
    const src = join(dir, "input.bin");
    const data = new Uint8Array(5000).map((_, i) => i & 0xff);
    await Deno.writeFile(src, data);
    const cacheDir = join(dir, "cache");
    const outDir = join(dir, "out");
    await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
    for (const path of await records(cacheDir)) {
      await Deno.writeTextFile(path, JSON.stringify(damage(JSON.parse(await Deno.readTextFile(path)))));
    }
    const run = await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
    assert.deepEqual(run.outputs.bytes, { bytes: data, name: "input.bin" });
    const damaged = run.warnings.filter((w) => /^cache: damaged/.test(w.message));
    assert.ok(damaged.length >= 1 && damaged.length <= 2, JSON.stringify(run.warnings)); // one per record
    assert.equal(new Set(damaged.map((w) => w.id)).size, damaged.length, "one warning per node");
    // Overwritten: the next run is a clean hit.
    const again = await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
    assert.equal(again.nodes.read.state, "cached");
    assert.deepEqual(again.warnings.filter((w) => /damaged/.test(w.message)), []);
  });
}

Deno.test("the record schema names the field at fault", () => {
  const good = {
    version: 1,
    type: "io.read",
    outputs: { bytes: { type: "bytes", digest: "a".repeat(64), size: 3, inline: "AAAA" } },
    warnings: [{ message: "m" }],
    reads: [{ path: "x", sha256: "b".repeat(64) }],
    writes: [],
  };
  assert.equal(recordProblem(good), undefined);
  assert.match(recordProblem({ ...good, warnings: null })!, /^warnings/);
  assert.match(recordProblem({ ...good, outputs: { bytes: { ...good.outputs.bytes, size: -1 } } })!, /size/);
  assert.match(recordProblem({ ...good, writes: [{ path: "/etc/x", sha256: "c".repeat(64) }] })!, /leaves/);
});
