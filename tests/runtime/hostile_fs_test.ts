/**
 * Writes stay inside `--out` and leave nothing behind (issue 10): a symlink planted in the output
 * folder is never written through, `path: "."` fails before anything is written, and temp files a
 * killed run left are removed by the next run that writes into their folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { GraphError, RunError } from "../../runtime/errors.ts";
import { atomicWrite, outputPath, readWholeFile } from "../../runtime/fs.ts";
import { sha256Hasher, sha256Hex } from "../../runtime/canonical.ts";
import { tempDir } from "../support/temp.ts";

function copyTo(path: string): GraphFile {
  return {
    version: 1,
    inputs: { src: { type: "string" } },
    nodes: {
      read: { type: "io.read", params: { path: { $input: "src" } } },
      write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path } },
    },
  };
}

async function setup() {
  const dir = await tempDir();
  const src = join(dir, "input.bin");
  await Deno.writeFile(src, new Uint8Array([1, 2, 3]));
  const outDir = join(dir, "out");
  await Deno.mkdir(outDir);
  return { dir, src, outDir };
}

const names = async (dir: string) => (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();

Deno.test("a symlink inside --out leading outside is not written through", async () => {
  const { dir, src, outDir } = await setup();
  const outside = join(dir, "outside");
  await Deno.mkdir(outside);
  await Deno.symlink(outside, join(outDir, "models"));
  await assert.rejects(
    runGraph(copyTo("models/copy.bin"), { inputs: { src }, outDir, cacheDir: false }),
    (error: unknown) => error instanceof RunError && /passes through the symlink/.test(error.message),
  );
  assert.deepEqual(await names(outside), []);
});

Deno.test('io.write path "." fails before anything is written, in --out or its parent', async () => {
  const { dir, src, outDir } = await setup();
  for (const path of [".", "./", "sub/.."]) {
    await assert.rejects(
      runGraph(copyTo(path), { inputs: { src }, outDir, cacheDir: false }),
      (error: unknown) => error instanceof GraphError && /write paths name a file/.test(error.message),
      path,
    );
    // A custom node calling ctx.writeFile directly meets the same rule at run time.
    await assert.rejects(outputPath(outDir, path), /must name a file inside the output directory/);
  }
  assert.deepEqual(await names(outDir), []);
  assert.deepEqual(await names(dir), ["input.bin", "out"]);
});

Deno.test("temp files of a killed writer are removed on the next write into their folder; a live one's are kept", async () => {
  const { outDir } = await setup();
  const dead = ".4194305-0-0123abcd.tmp-partgraph"; // unlocked: its writer is gone (as after kill -9)
  const live = ".1-0-0123abcd.tmp-partgraph";
  // Unlocked but just created: a writer in another thread between creating and locking its temp file.
  const starting = ".1-1-0123abcd.tmp-partgraph";
  await Deno.writeFile(join(outDir, dead), new Uint8Array(1000));
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await Deno.utime(join(outDir, dead), anHourAgo, anHourAgo);
  await Deno.writeFile(join(outDir, starting), new Uint8Array(10));
  using writer = await Deno.open(join(outDir, live), { write: true, createNew: true });
  await writer.lock(true); // what a running writer holds until it renames its temp file
  await Deno.utime(join(outDir, live), anHourAgo, anHourAgo);
  await atomicWrite(join(outDir, "model.glb"), new Uint8Array([1]));
  assert.deepEqual(await names(outDir), [live, starting, "model.glb"]);
});

Deno.test("a failed write removes its temp file", async () => {
  const { outDir } = await setup();
  await Deno.mkdir(join(outDir, "taken"));
  await assert.rejects(atomicWrite(join(outDir, "taken"), new Uint8Array(10))); // rename onto a folder fails
  assert.deepEqual(await names(outDir), ["taken"]);
});

Deno.test("readWholeFile reads what Deno.readFile reads, whatever size stat gives", async () => {
  const dir = await tempDir();
  for (const size of [0, 1, 65_536, 3_000_017, 9_437_185]) {
    const path = join(dir, `f${size}`);
    await Deno.writeFile(path, Uint8Array.from({ length: size }, (_, i) => (i * 7 + size) & 255));
    const expected = await Deno.readFile(path);
    assert.deepEqual(await readWholeFile(path), expected, `${size} bytes`);
    // Taken part by part as it is read (a hash as the disk works): the parts in order are the file.
    const hasher = sha256Hasher(), parts: number[] = [];
    const bytes = await readWholeFile(path, Infinity, (part) => {
      parts.push(part.byteLength);
      hasher.update(part);
    });
    assert.deepEqual(bytes, expected, `${size} bytes, read in parts`);
    assert.equal(hasher.hex(), sha256Hex(expected), `${size} bytes, hashed in parts`);
    assert.equal(parts.reduce((sum, n) => sum + n, 0), size);
    if (size > 8 << 20) assert(parts.length >= 3, `${parts.length} parts of ${size} bytes`);
  }
  // A pipe: stat says 0 bytes, and they arrive as the writer sends them (more than one chunk).
  const fifo = join(dir, "pipe");
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const sent = Uint8Array.from({ length: 300_001 }, (_, i) => (i * 13) & 255);
  const writer = (async () => {
    using pipe = await Deno.open(fifo, { write: true });
    for (let at = 0; at < sent.length; at += 50_000) {
      const chunk = sent.subarray(at, at + 50_000);
      for (let done = 0; done < chunk.length;) done += await pipe.write(chunk.subarray(done));
    }
  })();
  const parts: Uint8Array[] = [];
  const [received] = await Promise.all([
    readWholeFile(fifo, Infinity, (part) => parts.push(part.slice())),
    writer,
  ]);
  assert.deepEqual(received, sent);
  assert.deepEqual(new Uint8Array(parts.flatMap((part) => [...part])), sent, "the parts of a pipe");
  await assert.rejects(readWholeFile(join(dir, "missing")), Deno.errors.NotFound);
  // A size cap is checked before the buffer is made: a sparse 64 GiB file allocates nothing.
  const sparse = join(dir, "sparse");
  await Deno.writeFile(sparse, new Uint8Array(0));
  await Deno.truncate(sparse, 64 * 2 ** 30);
  await assert.rejects(readWholeFile(sparse, 1000), RangeError);
  // And a stream that grows past it stops there (the writer then finds the pipe closed).
  const again = (async () => {
    using pipe = await Deno.open(fifo, { write: true });
    for (let done = 0; done < sent.length;) done += await pipe.write(sent.subarray(done));
  })().catch(() => {});
  await assert.rejects(readWholeFile(fifo, 1000), RangeError);
  await again;
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a file bigger than memory is refused with its name and size, not V8's bare allocation error", async () => {
  const path = join(await tempDir(), "huge.bin");
  const size = 2 ** 42; // 4 TiB, sparse: no disk used, and no machine here holds it in memory
  await Deno.writeFile(path, new Uint8Array(0));
  await Deno.truncate(path, size);
  await assert.rejects(readWholeFile(path), (error: Error) => {
    assert.ok(error instanceof RangeError);
    assert.match(
      error.message,
      new RegExp(`huge\\.bin' holds ${size} bytes, more than this process can hold`),
    );
    return true;
  });
});
