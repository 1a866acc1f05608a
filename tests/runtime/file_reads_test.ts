import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { libraryFile, writeGameTree } from "../nodes/decode/freelancer/game_tree.ts";
import { createRegistry, runGraph } from "../../mod.ts";
import { defineNode } from "../../runtime/node.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { fileLengthNode, runCounts, testPlugin } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";

Deno.test("a node that read a changed file re-runs, and so do its dependents (not served the old result)", async () => {
  const dir = await tempDir();
  const side = join(dir, "side.bin");
  await Deno.writeFile(side, new Uint8Array(5));
  const graph: GraphFile = {
    version: 1,
    nodes: {
      length: { type: "test.file_length", params: { path: side } },
      plus: { type: "test.add", inputs: { a: "length.value" }, params: { offset: 100 } },
    },
    outputs: { value: "plus.value" },
  };
  const registry = createRegistry().register(testPlugin).register({ nodes: [fileLengthNode] });
  const options = { registry, cacheDir: join(dir, "cache"), outDir: join(dir, "out") };
  const first = await runGraph(graph, options);
  assertEquals(first.outputs.value, 105);

  const warm = await runGraph(graph, options);
  assertEquals([warm.nodes.length.state, warm.nodes.plus.state], ["cached", "cached"]);

  await Deno.writeFile(side, new Uint8Array(7));
  const before = runCounts.get("plus") ?? 0;
  const changed = await runGraph(graph, options);
  assertEquals(changed.outputs.value, 107);
  assertEquals([changed.nodes.length.state, changed.nodes.plus.state], ["done", "done"]);
  assertEquals(runCounts.get("plus"), before + 1);
  await Deno.remove(dir, { recursive: true });
});

/** Reads an optional side file: its length, or -1 while it cannot be read (as optional libraries are). */
const optionalLength = defineNode({
  type: "test.optional_length",
  version: 1,
  doc: "The length of a file it reads through ctx.readFile, or -1 when the read fails.",
  inputs: {},
  outputs: { value: { type: "number", doc: "Bytes in the file, or -1." } },
  params: { path: { type: "string", default: "", doc: "File to read." } },
  async run({ params, ctx }) {
    return { value: await ctx.readFile(params.path).then((bytes) => bytes.byteLength, () => -1) };
  },
});

Deno.test("a read that failed is a dependency: the file appearing re-runs the node and its dependents", async () => {
  const dir = await tempDir();
  const side = join(dir, "later", "side.bin");
  const graph: GraphFile = {
    version: 1,
    nodes: {
      length: { type: "test.optional_length", params: { path: side } },
      plus: { type: "test.add", inputs: { a: "length.value" }, params: { offset: 100 } },
    },
    outputs: { value: "plus.value" },
  };
  const registry = createRegistry().register(testPlugin).register({ nodes: [optionalLength] });
  const options = { registry, cacheDir: join(dir, "cache"), outDir: join(dir, "out") };
  assertEquals((await runGraph(graph, options)).outputs.value, 99);
  const warm = await runGraph(graph, options);
  assertEquals([warm.nodes.length.state, warm.nodes.plus.state], ["cached", "cached"]);
  assertEquals(warm.reads, [], "a failed read is not reported as a file the run read");

  await Deno.mkdir(join(dir, "later"));
  await Deno.writeFile(side, new Uint8Array(3));
  const appeared = await runGraph(graph, options);
  assertEquals(appeared.outputs.value, 103);
  assertEquals([appeared.nodes.length.state, appeared.nodes.plus.state], ["done", "done"]);

  // And back: once it is gone again, the result with it no longer holds, and the one from before it
  // appeared does again: the cache still has it, as the variant for the file being absent.
  await Deno.remove(side);
  const gone = await runGraph(graph, options);
  assertEquals(gone.outputs.value, 99);
  assertEquals([gone.nodes.length.state, gone.nodes.plus.state], ["cached", "cached"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("decode.cmp: a library in its list that appears later re-runs the decode (its failed read was recorded)", async () => {
  const tree = await writeGameTree();
  const graph: GraphFile = {
    version: 1,
    nodes: {
      read: { type: "io.read", params: { path: tree.fighter } },
      decode: {
        type: "decode.cmp",
        inputs: { bytes: "read.bytes" },
        params: {
          model_path: tree.fighter,
          data_root: tree.data,
          libraries: ["SHIPS/RHEINLAND/rh_playerships.mat", "SHIPS/later.txm"],
        },
      },
    },
    outputs: { scene: "decode.scene" },
  };
  const options = { cacheDir: join(tree.base, "cache"), outDir: join(tree.base, "out") };
  const textures = (run: { outputs: Record<string, unknown> }) =>
    (run.outputs.scene as Document).getRoot().listTextures().length;
  try {
    const before = await runGraph(graph, options);
    assertEquals(textures(before), 0, "the paint's texture is in no library yet");
    assertEquals((await runGraph(graph, options)).nodes.decode.state, "cached");
    await tree.write("SHIPS/later.txm", libraryFile([], [{ name: "rh_paint.dds", color565: 0x07e0 }]));
    const after = await runGraph(graph, options);
    assertEquals([after.nodes.decode.state, textures(after)], ["done", 1]);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});
