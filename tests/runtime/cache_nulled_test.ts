/**
 * A scene read from the disk cache gives `export.gltf` what the scene it stored gave: NaN and ±Infinity
 * in extras (a GLB writes them null) and the places a copy had nulled (`copy.ts`'s record) come back
 * with it (`runtime/scene/nulled_record.ts`), so a warm run warns as the cold run does and writes the
 * same bytes. Scenes made as a damaged file's decoder or a script leaves them: a hinge formula divided
 * by a zero length, an Infinity range, NaN in a primitive's, a clip's, an accessor's and the asset's
 * extras, some passed through a node that copies the scene first.
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { createRegistry, runGraph } from "../../mod.ts";
import { defineNode, type Plugin } from "../../runtime/node.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { nulledRecord } from "../../runtime/scene/nulled_record.ts";
import { decodeValue, encodeValue } from "../../runtime/cache/codec.ts";
import { prng } from "../support/prng.ts";

/** A scene of seed `seed` with non-finite numbers in the extras of several kinds of property. */
function nanScene(seed: number): Document {
  const next = prng(seed);
  const odd = () => [NaN, Infinity, -Infinity][Math.floor(next() * 3)];
  const doc = new Document();
  const buffer = doc.createBuffer();
  doc.getRoot().getAsset().extras = next() < 0.5 ? { scale: odd() } : { ok: 1 };
  const scene = doc.createScene("Scene");
  for (let i = 0; i < 2 + Math.floor(next() * 4); i++) {
    const position = doc.createAccessor().setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, i + 1]));
    if (next() < 0.3) position.setExtras({ range: [0, odd()] });
    const primitive = doc.createPrimitive().setAttribute("POSITION", position);
    if (next() < 0.4) primitive.setExtras({ lod: { error: odd(), level: i } });
    const node = doc.createNode(`Flap_${i}`).setMesh(doc.createMesh(`Flap_${i}`).addPrimitive(primitive));
    node.setExtras(next() < 0.6 ? { hinge: { angle: odd(), axis: [1, 0, odd()] } } : { part: i });
    scene.addChild(node);
  }
  const input = doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Float32Array([0, 1]));
  const output = doc.createAccessor().setBuffer(buffer).setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 1, 1]));
  const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
  const clip = doc.createAnimation("Deploy").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(doc.getRoot().listNodes()[0]).setTargetPath("translation")
      .setSampler(sampler),
  );
  if (next() < 0.5) clip.setExtras({ speed: odd() });
  return doc;
}

const nanNode = defineNode({
  type: "test.nan_scene",
  version: 1,
  doc: "A scene with NaN and Infinity in its extras.",
  inputs: {},
  outputs: { scene: { type: "scene", doc: "The scene." } },
  params: { seed: { type: "number", default: 1, doc: "Seed." } },
  run: ({ params }) => ({ scene: nanScene(params.seed) }),
});

const copyNode = defineNode({
  type: "test.copy_scene",
  version: 1,
  doc: "A copy of its scene (NaN in extras becomes null, remembered).",
  inputs: { scene: { type: "scene", doc: "The scene." } },
  outputs: { scene: { type: "scene", doc: "Its copy." } },
  params: {},
  run: ({ inputs }) => ({ scene: copyScene(inputs.scene) }),
});

const plugin: Plugin = { nodes: [nanNode, copyNode] };
const registry = createRegistry().register(plugin);

/** nan → (copy →) export, its name a graph input: a new name re-runs the export alone. */
const graph = (copied: boolean): GraphFile => ({
  version: 1,
  inputs: { seed: { type: "number", default: 1 }, name: { type: "string", default: "a" } },
  nodes: {
    nan: { type: "test.nan_scene", params: { seed: { $input: "seed" } } },
    ...copied && { copy: { type: "test.copy_scene", inputs: { scene: "nan.scene" } } },
    export: {
      type: "export.gltf",
      params: { name: { $input: "name" } },
      inputs: { scene: copied ? "copy.scene" : "nan.scene" },
    },
  },
  outputs: { glb: "export.bytes" },
});

/** Seeds no change was made for. */
const HELD_OUT = [201, 202, 203, 204, 205, 206];

Deno.test(`a warm run (upstream scenes from the disk cache) warns and writes as the cold run, seeds ${HELD_OUT.join(", ")}`, async () => {
  const dir = await Deno.makeTempDir();
  try {
    let warned = 0;
    for (const seed of HELD_OUT) {
      for (const copied of [false, true]) {
        const cacheDir = join(dir, `cache_${seed}_${copied}`);
        const run = (name: string, cache: string | false) =>
          runGraph(graph(copied), { inputs: { seed, name }, cacheDir: cache, registry });
        const cold = await run("b", false);
        await run("a", cacheDir);
        const warm = await run("b", cacheDir);
        const label = `seed ${seed}${copied ? ", copied" : ""}`;
        equal(warm.nodes.nan.state, "cached", label);
        equal(warm.nodes.export.state, "done", label);
        const messages = (r: typeof cold) => r.warnings.map((w) => w.message);
        equal(messages(warm), messages(cold), label);
        equal(warm.outputs.glb, cold.outputs.glb, label);
        if (messages(cold).some((m) => m.includes("NaN or Infinity"))) warned++;
      }
    }
    assert(warned >= 8, `${warned} runs warned of NaN: the seeds hold some`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a scene stored and read by the cache's codec keeps its numbers and nulled places; a clean one stores no record", async () => {
  for (const scene of [nanScene(207), copyScene(nanScene(207))]) {
    const stored = await encodeValue("scene", scene);
    assert(stored.meta !== undefined, "seed 207 holds non-finite extras");
    const read = await decodeValue("scene", stored) as Document;
    equal(nulledRecord(read), nulledRecord(scene));
    equal(
      read.getRoot().listNodes().map((n) => n.getExtras()),
      scene.getRoot().listNodes().map((n) => n.getExtras()),
    );
  }
  const clean = new Document();
  clean.createNode("Door").setExtras({ angle: 1 });
  equal(nulledRecord(clean), undefined);
  equal((await encodeValue("scene", clean)).meta, undefined);
});
