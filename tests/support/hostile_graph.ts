/**
 * A plug-in node that misbehaves on demand, for batch tests of failures a pool must survive.
 *
 * @module
 */
import { join } from "node:path";
import { type BatchOptions, type BatchResult, runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";

const RUNTIME = new URL("../../runtime/mod.ts", import.meta.url).href;

/**
 * A graph whose node, by the first byte of its input file: 0 gives the size; 1 fills the heap until
 * the process dies; 2 does not return nor yield while `dir` exists (an idle loop: a Deno worker in it
 * cannot be stopped, denoland/deno#35657, so it ends once the test removes its folder rather than run on
 * in the test process); 3 prints a line and gives the size; 4 writes a file beside the
 * inputs (outside what the batch writes); 5 throws where nothing catches it; 6 gives the size and
 * leaves a timer that throws where nothing catches it (often after its input has ended); 7 calls
 * `Deno.exit(3)`; 8 never settles (an await that never ends, where 2 is a loop that never does); 9 gives
 * the size and leaves behind a callback that throws from a timer where nothing catches it; 10 sets off
 * what a 9 left on its worker and then never settles (the worker dies of it), or gives the size when
 * there is none (a fresh worker). 9 then 10 is a worker dying of what the input before left, by event:
 * a timer 300 ms after the input, as it was, fired within that input's own run on a loaded machine.
 * Written into `dir` (`hostile.ts`, `hostile.json`, and `in/` holding `inputs`: file name → bytes);
 * returns the graph's path.
 */
export async function hostileGraph(dir: string, inputs: Record<string, number[]> = {}): Promise<string> {
  await Deno.writeTextFile(
    join(dir, "hostile.ts"),
    `import { defineNode } from ${JSON.stringify(RUNTIME)};
export default { nodes: [defineNode({
  type: "test.hostile", version: 1, doc: "Misbehaves on demand.", params: {},
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { size: { type: "bytes", doc: "Its size, as JSON." } },
  async run({ inputs }) {
    const kept = [];
    const mode = inputs.data.bytes[0];
    while (mode === 1) kept.push(new Array(10000).fill(kept.length + 0.5));
    // A loop that never returns nor yields, as a decoder bug's would; it blocks in Atomics.wait rather
    // than spinning, so the seconds a pool's limit takes to end it do not take a core from the suite.
    // Deno's terminate() does not end it: it ends once the test's folder is gone.
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const held = () => { try { Deno.statSync(${
      JSON.stringify(dir)
    }); return true; } catch { return false; } };
    while (mode === 2 && held()) Atomics.wait(cell, 0, 0, 50);
    if (mode === 3) console.log("a line a node printed");
    if (mode === 4) Deno.writeTextFileSync(${JSON.stringify(join(dir, "escaped.txt"))}, "out");
    if (mode === 7) Deno.exit(3);
    if (mode === 8) return new Promise(() => {});
    // What an input leaves on its worker: module state outlives the input, as a real plug-in's may.
    const left = globalThis as { hostileLeftover?: () => void };
    if (mode === 9) left.hostileLeftover = () => setTimeout(() => { throw new Error("a failure the input before left"); }, 0);
    if (mode === 10 && left.hostileLeftover) {
      left.hostileLeftover();
      return new Promise(() => {});
    }
    if (mode === 6) setTimeout(() => { throw new Error("a failure after the input ended"); }, 0);
    if (mode === 5) {
      setTimeout(() => { throw new Error("an uncaught failure"); }, 0);
      return new Promise(() => {});
    }
    return { size: { bytes: new TextEncoder().encode(String(inputs.data.bytes.length)), name: "size.json" } };
  },
})] };
`,
  );
  return await pluginGraph(dir, "hostile", inputs);
}

/**
 * The graph `<name>.json` in `dir` that reads its `model` input, hands the bytes to the node
 * `test.<name>` of the plug-in module `<name>.ts` beside it (its input `data`, its output `size`),
 * and writes that output to `size.json`; `in/` holds `inputs` (file name → bytes). Returns its path.
 */
export async function pluginGraph(
  dir: string,
  name: string,
  inputs: Record<string, number[]>,
): Promise<string> {
  const graph = join(dir, `${name}.json`);
  await Deno.writeTextFile(
    graph,
    JSON.stringify({
      version: 1,
      modules: [`./${name}.ts`],
      inputs: { model: { type: "string" } },
      nodes: {
        read: { type: "io.read", params: { path: { $input: "model" } } },
        [name]: { type: `test.${name}`, inputs: { data: "read.bytes" } },
        write: { type: "io.write", params: { path: "size.json" }, inputs: { bytes: `${name}.size` } },
      },
    }),
  );
  await Deno.mkdir(join(dir, "in"));
  for (const [file, bytes] of Object.entries(inputs)) {
    await Deno.writeFile(join(dir, "in", file), new Uint8Array(bytes));
  }
  return graph;
}

/**
 * Runs the hostile graph written into `dir` by {@link hostileGraph} over its inputs: one job, no cache,
 * outputs in `dir/out`, and `options` on top.
 */
export async function runHostileBatch(
  dir: string,
  options: Partial<BatchOptions> = {},
): Promise<BatchResult> {
  return await runBatch({
    graph: join(dir, "hostile.json"),
    selection: await expandEach(`model=${dir}/in/*.bin`),
    outDir: join(dir, "out"),
    cacheDir: false,
    jobs: 1,
    ...options,
  });
}
