/**
 * What a batch input's file writes cost beyond the bytes: each write checks its path (no symlink on
 * the way) and makes its folder once. Those calls were async ops, each a hand-off to another thread
 * and a wake-up back (strace over 200 inputs of a model and a report: 2,171 futex calls, 944 with
 * the calls synchronous); they are synchronous now, as the small writes themselves are. Counted, not
 * timed: the async calls made while a realistic input's files are written.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { join } from "node:path";
import { atomicWrite, outputPath } from "../../runtime/fs.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";

/** Counts the calls of `Deno[name]` while `body` runs, the call itself unchanged. */
async function counting(names: readonly ("lstat" | "mkdir" | "stat")[], body: () => Promise<void>) {
  const counts: Record<string, number> = {};
  const originals = names.map((name) => [name, Deno[name]] as const);
  for (const [name, original] of originals) {
    counts[name] = 0;
    Object.defineProperty(Deno, name, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        counts[name]++;
        return (original as (...a: unknown[]) => unknown)(...args);
      },
    });
  }
  try {
    await body();
  } finally {
    for (const [name, original] of originals) {
      Object.defineProperty(Deno, name, { configurable: true, writable: true, value: original });
    }
  }
  return counts;
}

Deno.test("batch writes: a fresh input folder's files are checked and written without async path or folder calls", async () => {
  const dir = await tempDir();
  try {
    // What graphs/freelancer.json writes for an input: the model, and a report beside it, into a
    // folder of its own under the batch's --out (nested, as a tree of ships is).
    const model = realisticCmp(4242, { parts: 12, maxGroupVertices: 1200 });
    const report = new TextEncoder().encode(JSON.stringify({ parts: 12, note: "x".repeat(3000) }));
    const out = join(dir, "out", "liberty", "li_elite");
    const counts = await counting(["lstat", "mkdir", "stat"], async () => {
      await atomicWrite(await outputPath(out, "model.glb"), model);
      await atomicWrite(await outputPath(out, "parts.json"), report);
      await atomicWrite(await outputPath(out, "lods/model_lod1.glb"), model.subarray(0, 1000));
    });
    assertEquals(counts, { lstat: 0, mkdir: 0, stat: 0 });
    assertEquals((await Deno.readFile(join(out, "model.glb"))).byteLength, model.byteLength);
    assertEquals(await Deno.readFile(join(out, "parts.json")), report);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("batch writes: a path refused is still a rejection, and a symlink on the way is still refused", async () => {
  const dir = await tempDir();
  try {
    const out = join(dir, "out");
    await Deno.mkdir(out);
    await Deno.mkdir(join(dir, "elsewhere"));
    await Deno.symlink(join(dir, "elsewhere"), join(out, "linked"));
    const refused = outputPath(out, "../escape.glb"); // a promise, not a throw
    await rejects(refused, /must name a file inside the output directory/);
    await rejects(outputPath(out, "linked/model.glb"), /passes through the symlink/);
    assertEquals(await outputPath(out, "fresh/model.glb"), join(out, "fresh", "model.glb"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
