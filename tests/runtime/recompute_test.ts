/**
 * Results a node says are cheaper to compute again than to load (`ctx.cheapToRecompute`): the disk
 * cache keeps their records but not their values. A warm run stays all cached without running them,
 * and a run that needs their values (a consumer changed) runs them again, with the same outputs.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { createRegistry, defineNode, runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { DiskCache } from "../../runtime/cache/disk.ts";
import { runCounts } from "../support/test_nodes.ts";
import { corpusFile, withoutCorpus } from "../support/corpus.ts";
import { tempDir } from "../support/temp.ts";

/** Reverses bytes and says that is cheaper than loading the result. */
const cheapReverse = defineNode({
  type: "test.cheap_reverse",
  version: 1,
  doc: "Reverses bytes, cheap to recompute.",
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { bytes: { type: "bytes", doc: "Reversed." } },
  params: {},
  run({ inputs, ctx }) {
    runCounts.set(ctx.nodeId, (runCounts.get(ctx.nodeId) ?? 0) + 1);
    ctx.cheapToRecompute();
    if (inputs.data.bytes[0] === 255) ctx.warn("starts with byte 255");
    return { bytes: { bytes: inputs.data.bytes.toReversed(), name: inputs.data.name } };
  },
});

/** The bytes from `start` on (a stored result, whose parameter a test changes). */
const slice = defineNode({
  type: "test.slice",
  version: 1,
  doc: "Drops the first bytes.",
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { bytes: { type: "bytes", doc: "The rest." } },
  params: { start: { type: "number", default: 0, doc: "Bytes dropped." } },
  run: ({ inputs, params }) => ({
    bytes: { bytes: inputs.data.bytes.slice(params.start), name: inputs.data.name },
  }),
});

const registry = createRegistry().register({ nodes: [cheapReverse, slice] });

const GRAPH: GraphFile = {
  version: 1,
  inputs: { src: { type: "string" }, start: { type: "number", default: 0 } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "src" } } },
    cheap: { type: "test.cheap_reverse", inputs: { data: "read.bytes" } },
    slice: { type: "test.slice", inputs: { data: "cheap.bytes" }, params: { start: { $input: "start" } } },
    write: { type: "io.write", inputs: { bytes: "slice.bytes" }, params: { path: "out.bin" } },
  },
};

Deno.test("a cheap result keeps its record, not its values; a run that needs them runs it again", async () => {
  const dir = await tempDir();
  const src = join(dir, "in.bin");
  const data = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) & 255);
  await Deno.writeFile(src, data);
  const cacheDir = join(dir, "cache"), outDir = join(dir, "out");
  const run = (start: number) => runGraph(GRAPH, { registry, inputs: { src, start }, cacheDir, outDir });
  const ran = () => runCounts.get("cheap") ?? 0;
  const before = ran();

  await run(0);
  assert.equal(ran(), before + 1);
  assert.deepEqual(await Deno.readFile(join(outDir, "out.bin")), data.toReversed());
  // One blob: the slice's. The read refers to its file; the cheap result has none.
  assert.equal((await new DiskCache(cacheDir).stats()).blobs, 1);

  const warm = await run(0);
  assert.deepEqual(Object.values(warm.nodes).map((n) => n.state), ["cached", "cached", "cached", "cached"]);
  assert.equal(ran(), before + 1, "a warm run needs no value of the cheap node");

  const changed = await run(10);
  assert.deepEqual(
    Object.fromEntries(Object.entries(changed.nodes).map(([id, n]) => [id, n.state])),
    { read: "cached", cheap: "done", slice: "done", write: "done" }, // found cached, then run for its values
  );
  assert.equal(ran(), before + 2, "the slice needed the cheap node's value: it ran again");
  assert.deepEqual(await Deno.readFile(join(outDir, "out.bin")), data.toReversed().slice(10));
  assert.deepEqual(changed.warnings, [], "running it again is no damage");

  // A warning is the node's result too: replayed with its record, and not said again when it reruns.
  await Deno.writeFile(src, data.with(0, 255));
  await run(0);
  const rerun = await run(5);
  assert.equal(rerun.nodes.cheap.state, "done");
  assert.deepEqual(rerun.warnings.map((w) => [w.id, w.message]), [["cheap", "starts with byte 255"]]);
  await Deno.remove(dir, { recursive: true });
});

const AIRPLANE = "aircraft/sketchbook_airplane.glb";
const MONKEY = "freelancer/librelancer_monkey.3db";
const GEOGRAFT = "dson/game_engine_mouth_geograft.duf";
/** The rig's scene nodes inside `rig.json`'s group (the report keeps its JSON). */
const RIG_SCENE_NODE = /^rig\/(parts|panels|hinges|sides|pivots)$/;
/** The glTF graphs' nodes before the export whose values the cache does not keep. */
const PASSING = ["decode", "png", "instances"];

Deno.test({
  name:
    "real files: an export that misses recomputes its valueless upstream, to the bytes of a build without cache",
  ignore: withoutCorpus(AIRPLANE) || withoutCorpus(MONKEY) || withoutCorpus(GEOGRAFT),
  async fn() {
    const dir = await tempDir();
    const graphs = new URL("../../graphs/", import.meta.url).pathname;
    // The same graph with the Khronos validator: the export's key changes, its bytes must not.
    const copies = join(dir, "graphs"); // beside a copy of the node group it names
    await Deno.mkdir(copies);
    await Deno.copyFile(join(graphs, "rig.json"), join(copies, "rig.json"));
    const withKhronos = async (graph: string) => {
      const khronos = JSON.parse(await Deno.readTextFile(join(graphs, graph)));
      khronos.nodes.export.params = { ...khronos.nodes.export.params, validate: "khronos" };
      const path = join(copies, `khronos_${graph}`);
      await Deno.writeTextFile(path, JSON.stringify(khronos));
      return path;
    };
    // Each graph and model, with the nodes whose values the cache does not keep: run again here.
    const cases: [string, string, (id: string) => boolean][] = [
      // decode: no compressed meshes, no library search; png and instances: pass the scene through.
      ["gltf.json", corpusFile(AIRPLANE)!, (id) => PASSING.includes(id)],
      ["gltf.json", corpusFile(MONKEY)!, (id) => PASSING.includes(id)],
      ["aircraft_file.json", corpusFile(AIRPLANE)!, (id) => PASSING.includes(id) || RIG_SCENE_NODE.test(id)],
      ["dson.json", corpusFile(GEOGRAFT)!, (id) => id === "preset"], // no preset: passed through
    ];
    for (const [graph, model, recomputed] of cases) {
      const name = `${graph} ${basename(model)}`;
      const at = (run: string) => ({ inputs: { model }, outDir: join(dir, run, name) });
      const cacheDir = join(dir, "cache", name);
      await runGraph(join(graphs, graph), { ...at("cold"), cacheDir });
      const again = await runGraph(await withKhronos(graph), { ...at("again"), cacheDir });
      const fresh = await runGraph(join(graphs, graph), { ...at("fresh"), noCache: true });
      assert.deepEqual(again.writes, fresh.writes, name);
      assert.equal(again.nodes.export.state, "done");
      for (const [id, node] of Object.entries(again.nodes)) {
        if (recomputed(id)) assert.equal(node.state, "done", `${name}: ${id} was run again`);
      }
    }
  },
});
