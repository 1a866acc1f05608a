/**
 * Ownership (`ctx.owns`): a node is told it holds the only reference to an input scene, and may
 * change it in place, only when nothing else can see that value again — and an in-place change
 * never reaches a value a cache tier, a caller or another node holds.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { createRegistry, defineNode, runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { testPlugin } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";

/** Every scene `own.make` made, newest last. */
const made: Document[] = [];
/** `ctx.owns("scene")` as each node id saw it in its last run. */
const owned = new Map<string, boolean>();
/** What `own.rename` saw, run after run: `ctx.owns("scene")`. */
const renames: boolean[] = [];

const make = defineNode({
  type: "own.make",
  version: 1,
  doc: "A scene with one node named `name`; keyed by the name only (`wait_ms` delays the lookup).",
  inputs: {},
  outputs: { scene: { type: "scene", doc: "The scene." } },
  params: {
    name: { type: "string", default: "wing", doc: "Node name." },
    wait_ms: { type: "number", default: 0, min: 0, doc: "Wait before the cache lookup." },
  },
  async fingerprint(params) {
    await new Promise((done) => setTimeout(done, params.wait_ms));
    return { name: params.name };
  },
  run({ params }) {
    const doc = new Document();
    doc.createScene("s").addChild(doc.createNode(params.name));
    made.push(doc);
    return { scene: doc };
  },
});

/** A custom node the way README "Writing nodes" shows it: in place when owned, else on a copy. */
const rename = defineNode({
  type: "own.rename",
  version: 1,
  doc: "Appends a suffix to the first node's name.",
  inputs: {
    scene: { type: "scene", doc: "The scene." },
    after: { type: "number", doc: "Only waited for.", optional: true },
  },
  outputs: { scene: { type: "scene", doc: "Renamed." } },
  params: { suffix: { type: "string", default: "-r", doc: "Appended." } },
  run({ inputs, params, ctx }) {
    owned.set(ctx.nodeId, ctx.owns("scene"));
    renames.push(ctx.owns("scene"));
    const scene = sceneToChange(inputs.scene, ctx.owns("scene"));
    const node = scene.getRoot().listNodes()[0];
    node.setName(node.getName() + params.suffix);
    return { scene };
  },
});

const pass = defineNode({
  type: "own.pass",
  version: 1,
  doc: "Returns its input as it is.",
  inputs: { scene: { type: "scene", doc: "The scene." } },
  outputs: { scene: { type: "scene", doc: "The same scene." } },
  params: {},
  run: ({ inputs, ctx }) => (owned.set(ctx.nodeId, ctx.owns("scene")), { scene: inputs.scene }),
});

/** What `own.invoker` saw: `ctx.owns("scene")`. */
const invokerOwned: boolean[] = [];

const invoker = defineNode({
  type: "own.invoker",
  version: 1,
  doc: "Renames through ctx.invoke.",
  inputs: { scene: { type: "scene", doc: "The scene." } },
  outputs: { scene: { type: "scene", doc: "Renamed." } },
  params: {},
  invokes: () => ["own.rename"],
  async run({ inputs, ctx }) {
    invokerOwned.push(ctx.owns("scene"));
    return { scene: (await ctx.invoke("own.rename", { scene: inputs.scene })).scene as Document };
  },
});

const registry = () =>
  createRegistry().register(testPlugin).register({ nodes: [make, rename, pass, invoker] });
const nameOf = (value: unknown) => (value as Document).getRoot().listNodes()[0].getName();

function graph(
  nodes: GraphFile["nodes"],
  outputs: GraphFile["outputs"],
  inputs?: GraphFile["inputs"],
): GraphFile {
  return { version: 1, ...(inputs ? { inputs } : {}), nodes, outputs };
}

const chain = graph(
  { m: { type: "own.make" }, r: { type: "own.rename", inputs: { scene: "m.scene" } } },
  { scene: "r.scene" },
);

Deno.test("ownership: a scene's one consumer owns it and changes it in place (with and without a cache)", async () => {
  for (const noCache of [false, true]) {
    owned.clear();
    const run = await runGraph(chain, { registry: registry(), cacheDir: false, noCache });
    assertEquals(owned.get("r"), true);
    assert(run.outputs.scene === made.at(-1), "the output is the scene own.make made, not a copy");
    assertEquals(nameOf(run.outputs.scene), "wing-r");
  }
});

Deno.test("ownership: refused for a scene two sockets consume; neither sees the other's change", async () => {
  owned.clear();
  const run = await runGraph(
    graph({
      m: { type: "own.make" },
      r1: { type: "own.rename", inputs: { scene: "m.scene" }, params: { suffix: "-1" } },
      r2: { type: "own.rename", inputs: { scene: "m.scene" }, params: { suffix: "-2" } },
    }, { a: "r1.scene", b: "r2.scene" }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals([owned.get("r1"), owned.get("r2")], [false, false]);
  assertEquals([nameOf(run.outputs.a), nameOf(run.outputs.b), nameOf(made.at(-1))], [
    "wing-1",
    "wing-2",
    "wing",
  ]);
});

Deno.test("ownership: refused for a graph output", async () => {
  owned.clear();
  const run = await runGraph(
    graph({ m: { type: "own.make" }, r: { type: "own.rename", inputs: { scene: "m.scene" } } }, {
      made: "m.scene",
      renamed: "r.scene",
    }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals(owned.get("r"), false);
  assertEquals([nameOf(run.outputs.made), nameOf(run.outputs.renamed)], ["wing", "wing-r"]);
});

Deno.test("ownership: refused with a caller's memory tier, whose entries stay as stored", async () => {
  owned.clear();
  const memory = new Map();
  const run = await runGraph(chain, { registry: registry(), cacheDir: false, memory });
  assertEquals(owned.get("r"), false);
  assertEquals(nameOf(run.outputs.scene), "wing-r");
  const kept = [...memory.values()].map((entry) => nameOf(entry.outputs.scene)).sort();
  assertEquals(kept, ["wing", "wing-r"]);
});

Deno.test("ownership: refused for a memory hit that two same-key nodes share", async () => {
  owned.clear();
  const run = await runGraph(
    graph({
      m1: { type: "own.make" },
      m2: { type: "own.make", params: { wait_ms: 30 } }, // same key; looked up once m1 is stored
      slow: { type: "test.add", inputs: { a: "n.value" }, params: { delay_ms: 80 } },
      n: { type: "test.const" },
      // r1 loads m1 only after m2's hit, so the hit is handed out before anyone could take it.
      r1: {
        type: "own.rename",
        inputs: { scene: "m1.scene", after: "slow.value" },
        params: { suffix: "-1" },
      },
      r2: { type: "own.rename", inputs: { scene: "m2.scene" }, params: { suffix: "-2" } },
    }, { a: "r1.scene", b: "r2.scene" }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals(run.nodes.m2.tier, "memory", "m2 was served m1's scene");
  assertEquals([owned.get("r1"), owned.get("r2")], [false, false]);
  assertEquals([nameOf(run.outputs.a), nameOf(run.outputs.b)], ["wing-1", "wing-2"]);
});

Deno.test("ownership: passes on with a scene returned as it is, unless someone else may hold it", async () => {
  owned.clear();
  const alone = await runGraph(
    graph({
      m: { type: "own.make" },
      p: { type: "own.pass", inputs: { scene: "m.scene" } },
      r: { type: "own.rename", inputs: { scene: "p.scene" } },
    }, { scene: "r.scene" }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals([owned.get("p"), owned.get("r")], [true, true]);
  assert(alone.outputs.scene === made.at(-1));

  owned.clear();
  const beside = await runGraph(
    graph({
      m: { type: "own.make" },
      p: { type: "own.pass", inputs: { scene: "m.scene" } },
      q: { type: "own.rename", inputs: { scene: "m.scene" }, params: { suffix: "-q" } },
      r: { type: "own.rename", inputs: { scene: "p.scene" } },
    }, { q: "q.scene", r: "r.scene" }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals([owned.get("p"), owned.get("q"), owned.get("r")], [false, false, false]);
  assertEquals([nameOf(beside.outputs.q), nameOf(beside.outputs.r)], ["wing-q", "wing-r"]);
});

Deno.test("ownership: refused for a scene the caller gives as a graph input", async () => {
  owned.clear();
  const given = new Document();
  given.createScene("s").addChild(given.createNode("given"));
  const run = await runGraph(
    graph(
      {
        p: { type: "own.pass", inputs: { scene: { $input: "scene" } } },
        r: { type: "own.rename", inputs: { scene: "p.scene" } },
      },
      { scene: "r.scene" },
      { scene: { type: "scene", description: "A scene." } },
    ),
    { registry: registry(), cacheDir: false, inputs: { scene: given } },
  );
  assertEquals([owned.get("p"), owned.get("r")], [false, false]);
  assertEquals([nameOf(given), nameOf(run.outputs.scene)], ["given", "given-r"]);
});

Deno.test("ownership: a node run through ctx.invoke owns nothing, though its caller does", async () => {
  owned.clear();
  renames.length = 0;
  const run = await runGraph(
    graph({ m: { type: "own.make" }, i: { type: "own.invoker", inputs: { scene: "m.scene" } } }, {
      scene: "i.scene",
    }),
    { registry: registry(), cacheDir: false },
  );
  assertEquals([invokerOwned.at(-1), renames], [true, [false]]);
  assertEquals(nameOf(run.outputs.scene), "wing-r");
});

Deno.test("ownership: an in-place change never alters what the disk cache holds", async () => {
  const cacheDir = await tempDir();
  try {
    const both = graph(chain.nodes, { made: "m.scene", renamed: "r.scene" });
    owned.clear();
    const cold = await runGraph(chain, { registry: registry(), cacheDir });
    assertEquals(owned.get("r"), true);
    const coldBytes = await writeGlb(cold.outputs.scene as Document, { generator: GENERATOR });

    // Warm, from disk: m's blob was written before r changed the scene, and r's after.
    const warm = await runGraph(both, { registry: registry(), cacheDir });
    assertEquals([warm.nodes.m.tier, warm.nodes.r.tier], ["disk", "disk"]);
    assertEquals([nameOf(warm.outputs.made), nameOf(warm.outputs.renamed)], ["wing", "wing-r"]);
    const warmBytes = await writeGlb(warm.outputs.renamed as Document, { generator: GENERATOR });
    assertEquals(warmBytes, coldBytes);

    // A scene decoded afresh from a disk blob is owned too, and changed from what the disk holds.
    owned.clear();
    const changed = graph(
      { ...chain.nodes, r: { ...chain.nodes.r, params: { suffix: "-s" } } },
      chain.outputs,
    );
    const again = await runGraph(changed, { registry: registry(), cacheDir });
    assertEquals([again.nodes.m.tier, owned.get("r")], ["disk", true]);
    assertEquals(nameOf(again.outputs.scene), "wing-s");
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("ownership: a sole consumer that does not ask keeps the writer's memo (one GLB encode for cache and export)", async () => {
  const { buildLargeGlb } = await import("../support/large_glb.ts");
  const { contentWrites } = await import("../../runtime/scene/gltf_io.ts");
  const dir = await tempDir();
  const model = `${dir}/grid.glb`;
  await Deno.writeFile(model, await buildLargeGlb(2_000));
  const graph = new URL("../../graphs/gltf.json", import.meta.url).pathname;
  // decode.auto's scene has one consumer, export.gltf, which owns it but never asks: the disk tier
  // stores the scene as GLB and the export reuses that encoding instead of writing it again.
  const before = contentWrites.count;
  const run = await runGraph(graph, { inputs: { model }, cacheDir: `${dir}/cache`, outDir: `${dir}/out` });
  assertEquals(run.nodes.decode.state, "done");
  assertEquals(
    contentWrites.count - before,
    1,
    "the scene's content was written once for the cache and the export",
  );
});
