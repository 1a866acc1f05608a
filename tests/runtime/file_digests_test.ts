/**
 * The file digest memo: a warm run knows unchanged files' digests from their stat without reading
 * them, and any change the stat can show — in place with the old mtime put back, a replacement, a
 * new size — or a file too recently changed to vouch for (racily clean) is read and hashed again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { DiskCache } from "../../runtime/cache/disk.ts";
import { ACTIONS_FILE } from "../../runtime/cache/action_store.ts";
import { RACY_MS, trustedDigest } from "../../runtime/cache/file_digests.ts";
import { createRecorder, TrackedFiles } from "../../runtime/execute/files.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { tempDir } from "../support/temp.ts";

const COPY: GraphFile = {
  version: 1,
  inputs: { model: { type: "string" }, out: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "model" } } },
    write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: { $input: "out" } } },
  },
  outputs: { path: "write.path" },
};

/** Opens of each path made through `Deno.open` (how the run reads a file) while `work` runs. */
async function readsDuring(paths: string[], work: () => Promise<unknown>): Promise<number[]> {
  const counts = paths.map(() => 0);
  const original = Deno.open;
  Deno.open = (path, options) => {
    const at = paths.indexOf(String(path));
    if (at >= 0) counts[at]++;
    return original(path, options);
  };
  try {
    await work();
  } finally {
    Deno.open = original;
  }
  return counts;
}

/** A bytes pattern of `length` bytes, different for each `seed`. */
const pattern = (seed: number, length = 4096) =>
  Uint8Array.from({ length }, (_, i) => (i * 7 + seed * 31) & 255);

/** One copy job of the fixture: its input, its output, and a run of it with the shared cache. */
interface Job {
  readonly input: string;
  readonly output: string;
  run(options?: { refresh?: boolean }): ReturnType<typeof runGraph>;
}

const dir = await tempDir({ prefix: "partgraph-file-digests-" });
const cacheDir = join(dir, "cache"), outDir = join(dir, "out");
const job = (name: string): Job => ({
  input: join(dir, `${name}.bin`),
  output: join(outDir, `${name}.out`),
  run: (options = {}) =>
    runGraph(COPY, {
      inputs: { model: join(dir, `${name}.bin`), out: `${name}.out` },
      cacheDir,
      outDir,
      ...options,
    }),
});

/**
 * Jobs whose files the memo has seen settle: each input written and run (filling the cache), then,
 * once both input and output are older than the racy window, run again, which hashes them and
 * remembers digests it can trust from then on.
 */
const settled = (async () => {
  const jobs = ["warm", "in_place", "replaced", "truncated", "extended", "output_edit"].map(job);
  for (const [seed, j] of jobs.entries()) {
    await Deno.writeFile(j.input, pattern(seed));
    await j.run();
  }
  await new Promise((done) => setTimeout(done, RACY_MS + 100));
  for (const j of jobs) await j.run();
  return Object.fromEntries(jobs.map((j) => [j.input.slice(dir.length + 1, -4), j]));
})();

/** Puts a file's mtime back to what it was, so only its ctime (or inode, or size) shows the change. */
async function restoreMtime(path: string, stat: Deno.FileInfo): Promise<void> {
  await Deno.utime(path, stat.atime!, stat.mtime!);
  assert.equal((await Deno.stat(path)).mtime!.getTime(), stat.mtime!.getTime());
}

Deno.test("a warm run whose files the memo has seen settle reads neither the input nor the output", async () => {
  const { warm } = await settled;
  let run: Awaited<ReturnType<Job["run"]>> | undefined;
  const reads = await readsDuring([warm.input, warm.output], async () => run = await warm.run());
  assert.deepEqual(reads, [0, 0]);
  assert.deepEqual([run!.nodes.read.state, run!.nodes.write.state], ["cached", "cached"]);
  // The digest the run reports for its input is the file's, as a run that hashes it reports.
  assert.deepEqual(run!.reads, [{ path: warm.input, sha256: sha256Hex(pattern(0)) }]);
});

Deno.test("a file written just before a run is racily clean: the next run reads and hashes it again", async () => {
  const { input, output, run } = job("racy");
  await Deno.writeFile(input, pattern(100));
  await run(); // hashes the input within the racy window of its mtime, and writes the output
  let warm: Awaited<ReturnType<Job["run"]>> | undefined;
  const reads = await readsDuring([input, output], async () => warm = await run());
  assert.deepEqual(reads, [1, 1], "input and output re-hashed, not trusted");
  assert.deepEqual([warm!.nodes.read.state, warm!.nodes.write.state], ["cached", "cached"]);
});

Deno.test("a file changed in place with its size and mtime kept is caught by its ctime", async () => {
  const { in_place: j } = await settled;
  const before = await Deno.stat(j.input);
  const changed = pattern(200);
  using file = await Deno.open(j.input, { write: true });
  await file.write(changed); // same length, same inode, no truncation
  await restoreMtime(j.input, before);
  const after = await Deno.stat(j.input);
  assert.deepEqual([after.ino, after.size], [before.ino, before.size]);
  const run = await j.run();
  assert.equal(run.nodes.read.state, "done");
  assert.deepEqual(await Deno.readFile(j.output), changed);
});

Deno.test("a file replaced by another (a new inode) of the same size and mtime is hashed again", async () => {
  const { replaced: j } = await settled;
  const before = await Deno.stat(j.input);
  const changed = pattern(201);
  await Deno.writeFile(j.input + ".new", changed);
  await Deno.rename(j.input + ".new", j.input);
  await restoreMtime(j.input, before);
  assert.notEqual((await Deno.stat(j.input)).ino, before.ino);
  const run = await j.run();
  assert.equal(run.nodes.read.state, "done");
  assert.deepEqual(await Deno.readFile(j.output), changed);
});

Deno.test("a truncated or extended file is hashed again", async () => {
  const { truncated, extended } = await settled;
  for (const [j, length] of [[truncated, 1000], [extended, 5000]] as const) {
    const before = await Deno.stat(j.input);
    await Deno.truncate(j.input, length); // extending pads with zeros
    await restoreMtime(j.input, before);
    const run = await j.run();
    assert.equal(run.nodes.read.state, "done");
    assert.deepEqual(await Deno.readFile(j.output), await Deno.readFile(j.input));
    assert.equal((await Deno.stat(j.output)).size, length);
  }
});

Deno.test("an output edited in place with its size and mtime kept is written again", async () => {
  const { output_edit: j } = await settled;
  const before = await Deno.stat(j.output);
  using file = await Deno.open(j.output, { write: true });
  await file.write(new Uint8Array(16)); // zeros over the first bytes
  await restoreMtime(j.output, before);
  const run = await j.run();
  assert.deepEqual([run.nodes.read.state, run.nodes.write.state], ["cached", "done"]);
  assert.deepEqual(await Deno.readFile(j.output), pattern(5));
});

Deno.test("a refresh run does not trust the memo: it hashes the file, and remembers the true digest", async () => {
  const { warm } = await settled;
  // Make the memo lie about a settled file (a wrong digest, its stat untouched).
  const lie = (sha256: string) => {
    const db = new DatabaseSync(join(cacheDir, ACTIONS_FILE));
    db.prepare("UPDATE files SET sha256 = ? WHERE path = ?").run(sha256, warm.input);
    db.close();
  };
  const trusted = async () =>
    await new TrackedFiles(dir, outDir, { memo: new DiskCache(cacheDir), trust: true })
      .fileDigest(warm.input, createRecorder());
  const truth = sha256Hex(pattern(0)), wrong = "ab".repeat(32);
  lie(wrong);
  assert.equal(await trusted(), wrong, "a run that trusts the memo takes its digest");
  const run = await warm.run({ refresh: true });
  assert.deepEqual(run.reads, [{ path: warm.input, sha256: truth }]);
  assert.equal(await trusted(), truth, "the refresh remembered the digest it hashed");
});

Deno.test("the memo's rule: an exact stat, and mtime and ctime at least RACY_MS before the hash", () => {
  const stat = { dev: 1, ino: 2, size: 3, mtimeMs: 10_000, ctimeMs: 10_000 };
  const sha256 = "0".repeat(64);
  const row = { ...stat, sha256, hashedAtMs: 10_000 + RACY_MS };
  assert.equal(trustedDigest(row, stat), sha256);
  for (const field of ["dev", "ino", "size", "mtimeMs", "ctimeMs"] as const) {
    assert.equal(trustedDigest(row, { ...stat, [field]: stat[field] + 1 }), undefined, field);
  }
  assert.equal(trustedDigest({ ...row, hashedAtMs: 10_000 + RACY_MS - 1 }, stat), undefined, "racy");
  const lateCtime = { ...stat, ctimeMs: 10_001 };
  assert.equal(trustedDigest({ ...row, ...lateCtime }, lateCtime), undefined, "racy by ctime");
  assert.equal(trustedDigest({ ...row, sha256: "not hex" }, stat), undefined, "a damaged row");
  assert.equal(trustedDigest(undefined, stat), undefined);
});

Deno.test("a record database without the memo's table (an older partgraph's) gets it", async () => {
  const old = await tempDir();
  const db = new DatabaseSync(join(old, ACTIONS_FILE));
  db.exec(
    "CREATE TABLE actions (key BLOB NOT NULL UNIQUE, record TEXT NOT NULL, size INTEGER NOT NULL, used INTEGER NOT NULL)",
  );
  db.close();
  const input = join(old, "in.bin");
  await Deno.writeFile(input, pattern(7));
  const disk = new DiskCache(old);
  await new TrackedFiles(old, join(old, "out"), { memo: disk, trust: true }).fileDigest(
    input,
    createRecorder(),
  );
  await disk.flush();
  const check = new DatabaseSync(join(old, ACTIONS_FILE));
  const row = check.prepare("SELECT sha256 FROM files WHERE path = ?").get(input) as { sha256: string };
  check.close();
  assert.equal(row.sha256, sha256Hex(pattern(7)));
  await Deno.remove(old, { recursive: true });
});
