/**
 * Cache records that are valid JSON of the wrong shape (issue 10: `outputs: {}`, `warnings: null`,
 * a wrong output type, a bogus `writes` path) are misses: recomputed, overwritten, one warning —
 * never a failure of every later run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createRegistry, runGraph } from "../../mod.ts";
import { copyGraph, fileLengthNode } from "../support/test_nodes.ts";
import { recordProblem } from "../../runtime/cache/record_schema.ts";
import { ACTIONS_FILE } from "../../runtime/cache/action_store.ts";
import { runInFreshProcess } from "../support/fresh_run.ts";
import { tempDir } from "../support/temp.ts";

/** Rewrites every action record in a cache's database through `edit` (as a buggy tool would). */
function rewriteRecords(cacheDir: string, edit: (record: string) => string): void {
  const db = new DatabaseSync(join(cacheDir, ACTIONS_FILE));
  try {
    const rows = db.prepare("SELECT key, record FROM actions").all() as { key: Uint8Array; record: string }[];
    assert.ok(rows.length > 0, "the first run stored records");
    const update = db.prepare("UPDATE actions SET record = ? WHERE key = ?");
    for (const { key, record } of rows) update.run(edit(record), key);
  } finally {
    db.close();
  }
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
  "an output referring to a relative path": (r) => ({
    ...r,
    outputs: Object.fromEntries(
      Object.entries(r.outputs as Record<string, object>).map(([k, v]) => [k, { ...v, file: "input.bin" }]),
    ),
  }),
  "inline data that is not base64": (r) => ({
    ...r,
    outputs: Object.fromEntries(
      Object.entries(r.outputs as Record<string, object>).map(([k, v]) => [k, { ...v, inline: "%%%" }]),
    ),
  }),
};

/** Damage to the record database file itself, as a full disk, a bad copy or a stray write leaves it. */
const DATABASE_DAMAGE: Record<string, (path: string) => Promise<void>> = {
  "overwritten with other bytes": async (path) => {
    await Deno.writeFile(path, new Uint8Array(8192).map((_, i) => (i * 31 + 7) & 0xff));
  },
  "with a damaged header": async (path) => {
    using file = await Deno.open(path, { write: true });
    await file.write(new TextEncoder().encode("not a database!!"));
  },
};

for (const [name, damage] of Object.entries(DAMAGE)) {
  Deno.test(`a cache record with ${name} is recomputed and overwritten, with one warning`, async () => {
    const dir = await tempDir();
    const src = join(dir, "input.bin");
    const data = new Uint8Array(5000).map((_, i) => i & 0xff);
    await Deno.writeFile(src, data);
    const cacheDir = join(dir, "cache");
    const outDir = join(dir, "out");
    await runGraph(copyGraph, { inputs: { src }, cacheDir, outDir });
    rewriteRecords(cacheDir, (record) => JSON.stringify(damage(JSON.parse(record))));
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

for (const [name, damage] of Object.entries(DATABASE_DAMAGE)) {
  Deno.test(`a record database ${name} is replaced, its results recomputed, with one warning`, async () => {
    const dir = await tempDir();
    const src = join(dir, "input.bin");
    await Deno.writeFile(src, new Uint8Array(5000).map((_, i) => i & 0xff));
    // Each run is a process of its own, as the CLI's are: the damage is found by a later one.
    const options = { cacheDir: join(dir, "cache"), outDir: join(dir, "out"), inputs: { src } };
    await runInFreshProcess(copyGraph, options);
    await damage(join(options.cacheDir, ACTIONS_FILE));
    const run = await runInFreshProcess(copyGraph, options);
    assert.deepEqual(run.outputs, { bytes: 5000 });
    assert.equal(run.states.read, "done");
    assert.equal(
      run.warnings.filter((w) => /damaged record database/.test(w)).length,
      1,
      run.warnings.join(),
    );
    const again = await runInFreshProcess(copyGraph, options);
    assert.deepEqual([again.states, again.warnings], [{ read: "cached", write: "cached" }, []]);
    await Deno.remove(dir, { recursive: true });
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
  // A record without values (the node is recomputed) has none, whatever the node's sockets.
  const valueless = { ...good, outputs: {}, recompute: true };
  const expect = { type: "io.read", outputs: { bytes: { type: "bytes" } } };
  assert.equal(recordProblem(valueless, expect), undefined);
  assert.match(recordProblem({ ...good, recompute: true }, expect)!, /^outputs: expected none/);
  assert.match(recordProblem({ ...valueless, recompute: "yes" }, expect)!, /^recompute/);
});

Deno.test("a cache record naming a pipe or a device as a read is a miss, checked without reading it", async () => {
  const dir = await tempDir();
  const side = join(dir, "side.bin"), fifo = join(dir, "pipe");
  await Deno.writeFile(side, new Uint8Array(9));
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const graph = {
    version: 1 as const,
    nodes: { length: { type: "test.file_length", params: { path: side } } },
    outputs: { value: "length.value" },
  };
  const options = {
    registry: createRegistry().register({ nodes: [fileLengthNode] }),
    cacheDir: join(dir, "cache"),
    outDir: join(dir, "out"),
  };
  let timer: ReturnType<typeof setTimeout> | undefined, blocked = false;
  try {
    await runGraph(graph, options);
    // A record whose reads (and whose other variants' read sets) name a pipe nobody writes to and a
    // device that never ends: reading either to check the record would block or fill the memory.
    const hostile = (r: Record<string, unknown>) => ({
      ...r,
      reads: [{ path: fifo, sha256: "0".repeat(64) }, { path: "/dev/zero", sha256: "1".repeat(64) }],
      readSets: [[fifo], ["/dev/zero"]],
    });
    rewriteRecords(options.cacheDir, (record) => JSON.stringify(hostile(JSON.parse(record))));
    const run = await Promise.race([
      runGraph(graph, options),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => {
          blocked = true;
          reject(new Error("the check blocked"));
        }, 20_000)
      ),
    ]);
    assert.deepEqual([run.nodes.length.state, run.outputs.value], ["done", 9]);
  } finally {
    clearTimeout(timer);
    // Whatever blocked on the pipe is let go, so a failure cannot hang the suite.
    if (blocked) await new Deno.Command("timeout", { args: ["1", "sh", "-c", `: > '${fifo}'`] }).output();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache record whose output refers to a pipe is a miss, not a wait", async () => {
  const dir = await tempDir();
  const src = join(dir, "input.bin"), fifo = join(dir, "pipe");
  const data = new Uint8Array(5000).map((_, i) => i & 0xff); // over the inline limit: kept as a reference
  await Deno.writeFile(src, data);
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const options = { inputs: { src }, cacheDir: join(dir, "cache"), outDir: join(dir, "out") };
  let timer: ReturnType<typeof setTimeout> | undefined, blocked = false;
  try {
    await runGraph(copyGraph, options);
    rewriteRecords(
      options.cacheDir,
      (record) => record.replaceAll(JSON.stringify(src), JSON.stringify(fifo)),
    );
    const run = await Promise.race([
      runGraph(copyGraph, options),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => {
          blocked = true;
          reject(new Error("the read blocked"));
        }, 20_000)
      ),
    ]);
    assert.deepEqual(run.outputs.bytes, { bytes: data, name: "input.bin" });
  } finally {
    clearTimeout(timer);
    if (blocked) await new Deno.Command("timeout", { args: ["1", "sh", "-c", `: > '${fifo}'`] }).output();
    await Deno.remove(dir, { recursive: true });
  }
});
