/**
 * Tiny nodes for runtime tests: numbers in, numbers out, with run counters, delays and failures,
 * so tests can count exactly which nodes ran.
 *
 * @module
 */
import { defineNode, type Plugin } from "../../runtime/node.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { join } from "node:path";

/** How many times each node id ran, across the runs that share this map. */
export const runCounts: Map<string, number> = new Map();

function count(id: string): void {
  runCounts.set(id, (runCounts.get(id) ?? 0) + 1);
}

/** `test.const`: a number source. */
export const constNode = defineNode({
  type: "test.const",
  version: 1,
  doc: "Emits its parameter.",
  inputs: {},
  outputs: { value: { type: "number", doc: "The value." } },
  params: { value: { type: "number", default: 0, doc: "Value to emit." } },
  run({ params, ctx }) {
    count(ctx.nodeId);
    return { value: params.value };
  },
});

/** `test.add`: a + b + offset, after an optional delay (to observe concurrency). */
export const addNode = defineNode({
  type: "test.add",
  version: 1,
  doc: "Adds its inputs and an offset.",
  inputs: {
    a: { type: "number", doc: "First." },
    b: { type: "number", doc: "Second.", optional: true },
  },
  outputs: { value: { type: "number", doc: "Sum." } },
  params: {
    offset: { type: "number", default: 0, doc: "Added to the sum." },
    delay_ms: { type: "number", default: 0, min: 0, doc: "Wait before answering." },
  },
  async run({ inputs, params, ctx }) {
    count(ctx.nodeId);
    active++;
    maxActive = Math.max(maxActive, active);
    if (params.delay_ms) await new Promise((r) => setTimeout(r, params.delay_ms));
    active--;
    return { value: inputs.a + (inputs.b ?? 0) + params.offset };
  },
});

let active = 0;
let maxActive = 0;

/** The largest number of `test.add` nodes seen running at once; resets it. */
export function takeMaxConcurrency(): number {
  const value = maxActive;
  maxActive = 0;
  return value;
}

/** `test.fail`: always throws. */
export const failNode = defineNode({
  type: "test.fail",
  version: 1,
  doc: "Fails with its message.",
  inputs: { a: { type: "number", doc: "Ignored.", optional: true } },
  outputs: { value: { type: "number", doc: "Never produced." } },
  params: { message: { type: "string", default: "boom", doc: "Error message." } },
  run({ params, ctx }) {
    count(ctx.nodeId);
    throw new Error(params.message);
  },
});

/** `test.warn`: passes a number through and warns. */
export const warnNode = defineNode({
  type: "test.warn",
  version: 1,
  doc: "Passes its input through with a warning.",
  inputs: { a: { type: "number", doc: "Value." } },
  outputs: { value: { type: "number", doc: "Same value." } },
  params: {},
  run({ inputs, ctx }) {
    count(ctx.nodeId);
    ctx.warn(`saw ${inputs.a}`);
    return { value: inputs.a };
  },
});

/** `test.list`: the entry names of a folder, through `ctx.listDir`. */
export const listNode = defineNode({
  type: "test.list",
  version: 1,
  doc: "Lists a folder.",
  inputs: {},
  outputs: { names: { type: "json", doc: "Sorted entry names." } },
  params: { dir: { type: "path", access: "read", doc: "Folder to list." } },
  async run({ params, ctx }) {
    count(ctx.nodeId);
    return { names: await ctx.listDir(params.dir) };
  },
});

/** `test.file_length`: the length of a file it reads through the run context (its key does not name the bytes). */
export const fileLengthNode = defineNode({
  type: "test.file_length",
  version: 1,
  doc: "The length of a file it reads through ctx.readFile.",
  inputs: {},
  outputs: { value: { type: "number", doc: "Bytes in the file." } },
  params: { path: { type: "string", default: "", doc: "File to read." } },
  async run({ params, ctx }) {
    return { value: (await ctx.readFile(params.path)).byteLength };
  },
});

/** `test.folder_bytes`: the total size of a folder's files, read one by one, so its reads follow the folder. */
export const folderBytesNode = defineNode({
  type: "test.folder_bytes",
  version: 1,
  doc: "Adds up the sizes of a folder's files.",
  inputs: {},
  outputs: { total: { type: "number", doc: "Bytes in all." } },
  params: { dir: { type: "path", access: "read", doc: "Folder to read." } },
  async run({ params, ctx }) {
    let total = 0;
    for (const name of await ctx.listDir(params.dir)) {
      total += (await ctx.readFile(join(params.dir, name))).byteLength;
    }
    return { total };
  },
});

/** `test.size`: the size of an optional bytes input, or -1 when it is absent. */
export const sizeNode = defineNode({
  type: "test.size",
  version: 1,
  doc: "Measures optional bytes.",
  inputs: { data: { type: "bytes", doc: "Anything.", optional: true } },
  outputs: { value: { type: "number", doc: "Byte length, or -1." } },
  params: {},
  run: ({ inputs }) => ({ value: inputs.data ? inputs.data.bytes.byteLength : -1 }),
});

/** `test.reverse`: the bytes in reverse order — an output that is no file's, so the cache keeps a blob of it. */
export const reverseNode = defineNode({
  type: "test.reverse",
  version: 1,
  doc: "Reverses bytes.",
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { bytes: { type: "bytes", doc: "The same bytes, last first." } },
  params: {},
  run: ({ inputs }) => ({ bytes: { bytes: inputs.data.bytes.toReversed(), name: inputs.data.name } }),
});

/** All test nodes as a plug-in. */
export const testPlugin: Plugin = {
  nodes: [constNode, addNode, failNode, warnNode, listNode, sizeNode, reverseNode],
};

/** A file copied through the cache: io.read → io.write (`copy.bin`), the read's bytes as a graph output. */
export const copyGraph: GraphFile = {
  version: 1,
  inputs: { src: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "src" } } },
    write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: "copy.bin" } },
  },
  outputs: { bytes: "read.bytes" },
};

/**
 * A file reversed through the cache: io.read → test.reverse → io.write (`copy.bin`), the reversed
 * bytes as a graph output; the cache keeps them as a blob (the read's output refers to the file).
 * Needs {@link testPlugin}.
 */
export const reverseGraph: GraphFile = {
  version: 1,
  inputs: { src: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "src" } } },
    reverse: { type: "test.reverse", inputs: { data: "read.bytes" } },
    write: { type: "io.write", inputs: { bytes: "reverse.bytes" }, params: { path: "copy.bin" } },
  },
  outputs: { bytes: "reverse.bytes" },
};

/**
 * Writes `in.bin` (5000 bytes) and `copy.json` into `dir`: a graph file for the CLI that copies input
 * `src` through io.read → io.write to input `name` (default `copy.bin`).
 */
export async function copyGraphFile(dir: string): Promise<{ graph: string; src: string }> {
  const src = join(dir, "in.bin");
  await Deno.writeFile(src, new Uint8Array(5000).map((_, i) => i % 251));
  const graph = join(dir, "copy.json");
  await Deno.writeTextFile(
    graph,
    JSON.stringify({
      version: 1,
      inputs: { src: { type: "string" }, name: { type: "string", default: "copy.bin" } },
      nodes: {
        read: { type: "io.read", params: { path: { $input: "src" } } },
        write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: { $input: "name" } } },
      },
    }),
  );
  return { graph, src };
}
