/**
 * The batch's main thread hashes its graph's files for the manifest without node:crypto: the first
 * `sha256Hex` loads it and the Node modules under it, 50-150 ms of the main thread on a loaded
 * two-core machine, which a second job pays out of the workers' time (issue #14's two-job ratio).
 * In a file of its own: no other test of this process may have loaded node:crypto first.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import process from "node:process";
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import type { JobResult } from "../../batch/messages.ts";
import type { SpawnMember } from "../../batch/member.ts";
import { tempDir } from "../support/temp.ts";

Deno.test("batch: the main thread records its graph's digest without loading node:crypto", async () => {
  const dir = await tempDir();
  const graph = join(dir, "g.json");
  // A graph as a user writes one: two-space JSON, a trailing newline, a non-ASCII description.
  const text = JSON.stringify(
    {
      version: 1,
      description: "Freelancer-Schiffe → glTF",
      inputs: { model: { type: "string" } },
      nodes: { read: { type: "io.read", params: { path: "$inputs.model" } } },
    },
    null,
    2,
  ) + "\n";
  await Deno.writeTextFile(graph, text);
  for (const name of ["a.cmp", "b.cmp"]) await Deno.writeFile(join(dir, name), new Uint8Array([1, 2, 3]));
  const result: JobResult = {
    ok: true,
    digest: "0".repeat(64),
    writes: [],
    warnings: [],
    nodes: 1,
    cached: 0,
    remote: 0,
    computeMs: 0,
    ms: 1,
  };
  const spawn: SpawnMember = () => ({
    run: (_spec, _onEvent, onStart) => {
      onStart?.("loading");
      onStart?.("started");
      return Promise.resolve(result);
    },
    stop: () => Promise.resolve(),
    stopOverrun: () => Promise.resolve(false),
    ended: false,
    running: () => [],
  });
  const asked: string[] = [];
  const getBuiltinModule = process.getBuiltinModule;
  process.getBuiltinModule = ((id: string) => {
    asked.push(id);
    return getBuiltinModule(id);
  }) as typeof process.getBuiltinModule;
  let manifest;
  try {
    const selection = await expandEach(`model=${dir}/*.cmp`);
    ({ manifest } = await runBatch({ graph, selection, outDir: join(dir, "out"), cacheDir: false }, spawn));
  } finally {
    process.getBuiltinModule = getBuiltinModule;
  }
  assertEquals(asked.filter((id) => id.includes("crypto")), []);
  // The digest is the file's SHA-256 as before, from its UTF-8.
  const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const hex = Array.from(expected, (b) => b.toString(16).padStart(2, "0")).join("");
  assertEquals(Object.values(manifest.graph.files), [hex]);
  assertEquals(Object.keys(manifest.inputs), ["a.cmp", "b.cmp"]);
  await Deno.remove(dir, { recursive: true });
});
