/**
 * A cache folder that cannot be written is said once per run, naming the folder and what to do: it
 * was "result not cached: …" once per node (12 identical lines for a 12-node graph), in the CLI's
 * output and the studio's run log alike. The run still goes on, uncached, with its outputs.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join, resolve } from "node:path";
import { runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

/** `count` independent demo nodes, each an output of the graph. */
function fighters(count: number): GraphFile {
  const nodes: Record<string, { type: string }> = {};
  const outputs: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    nodes[`f${i}`] = { type: "demo.fighter" };
    outputs[`f${i}`] = `f${i}.scene`;
  }
  return { version: 1, nodes, outputs } as GraphFile;
}

Deno.test("a cache folder that cannot be written is said once per run, with the folder and the way out", async () => {
  const dir = await tempDir({ prefix: "not-cached-" });
  const cacheDir = join(dir, ".partgraph-cache");
  // A file where the cache folder goes: every store fails alike, as in a read-only project.
  await Deno.writeTextFile(cacheDir, "not a folder");
  const run = await runGraph(fighters(12), { cacheDir, outDir: join(dir, "out") });
  assertEquals(Object.keys(run.outputs).length, 12, "the run goes on");
  const said = run.warnings.filter((w) => w.message.startsWith("result not cached"));
  assertEquals(said.length, 1, said.map((w) => `${w.id}: ${w.message}`).join("\n"));
  const [note] = said;
  assert(note.message.includes(`'${resolve(cacheDir)}' cannot be written`), note.message);
  assert(note.message.includes("--no-cache") && note.message.includes("--cache-dir"), note.message);
  // The studio has no --no-cache and a library caller has no flags at all: the way out names both.
  assert(
    note.message.includes("cacheDir: false") && note.message.includes("run and batch: --no-cache"),
    note.message,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a second run says it again: once per run, not once per process", async () => {
  const dir = await tempDir({ prefix: "not-cached-again-" });
  const cacheDir = join(dir, "cache");
  await Deno.writeTextFile(cacheDir, "not a folder");
  for (let i = 0; i < 2; i++) {
    const run = await runGraph(fighters(3), { cacheDir, outDir: join(dir, "out") });
    assertEquals(run.warnings.filter((w) => w.message.startsWith("result not cached")).length, 1);
  }
  await Deno.remove(dir, { recursive: true });
});
