/**
 * Values are immutable by contract: run every registered node on real inputs and prove that each
 * input is byte-for-byte the same afterwards.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { extname, join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { createRegistry } from "../../mod.ts";
import type { AnyNodeDef, BytesValue, JsonValue, SocketType } from "../../runtime/node.ts";
import { canonicalJson, sha256Hex } from "../../runtime/canonical.ts";
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode, testContext } from "../support/context.ts";
import { CORPUS_DIR, corpusFile } from "../support/corpus.ts";

/** A corpus sample for each file extension a decoder claims. */
const SAMPLES: Record<string, string> = {
  glb: "aircraft/sketchbook_airplane.glb",
  "3db": "freelancer/librelancer_monkey.3db",
  cmp: "freelancer/librelancer_monkey.3db",
  "3df": "carnivores/synthetic_quad.3df",
  car: "carnivores/synthetic_quad.car",
  duf: "dson/game_engine_mouth_geograft.duf",
  dsf: "dson/synthetic_rigidity.dsf",
};

async function digest(type: SocketType, value: unknown): Promise<string> {
  if (type === "scene") return sha256Hex(await writeGlb(value as Document, { generator: GENERATOR }));
  if (type === "bytes") return sha256Hex((value as BytesValue).bytes) + (value as BytesValue).name;
  return canonicalJson(value ?? null);
}

Deno.test({
  name: "every registered node leaves its inputs unchanged",
  ignore: !corpusFile(SAMPLES.glb),
  async fn() {
    const registry = createRegistry();
    const decoders = registry.decoders;
    const aircraft = await Deno.readFile(CORPUS_DIR + SAMPLES.glb);
    const sceneFor = async (): Promise<Document> => {
      const demo = registry.get("demo.fighter");
      if (demo) return (await runNode(demo, {})).scene;
      return await readGltf(aircraft);
    };
    const tmp = await Deno.makeTempDir();
    const ran: string[] = [];
    const failed: string[] = [];
    for (const node of registry.list()) {
      const decoder = decoders.find((d) => d.node === node.type);
      const sample = decoder
        ? decoder.extensions.map((e) => SAMPLES[e]).find((s) => s && corpusFile(s))
        : SAMPLES.glb;
      const inputs: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(node.inputs)) {
        if (spec.optional) continue;
        inputs[name] = await sampleValue(spec.type, sample, sceneFor);
      }
      const params = requiredParams(node, sample, tmp);
      const before = await Promise.all(
        Object.entries(inputs).map(([n, v]) => digest(node.inputs[n].type, v)),
      );
      try {
        await runNode(node, inputs, params, testContext(node.type));
        ran.push(node.type);
      } catch (error) {
        failed.push(`${node.type}: ${error instanceof Error ? error.message : error}`);
      }
      const after = await Promise.all(Object.entries(inputs).map(([n, v]) => digest(node.inputs[n].type, v)));
      assertEquals(after, before, `${node.type} changed its inputs`);
    }
    // The check means something only if the nodes really ran on these inputs.
    assertEquals(failed, [], "nodes that could not run on sample inputs");
    assert(ran.length === registry.list().length);
  },
});

async function sampleValue(type: SocketType, sample: string | undefined, scene: () => Promise<Document>) {
  switch (type) {
    case "scene":
      return await scene();
    case "bytes": {
      const file = sample ?? SAMPLES.glb;
      return {
        bytes: await Deno.readFile(CORPUS_DIR + file),
        name: file.split("/").pop()! + (extname(file) ? "" : ".bin"),
      };
    }
    case "json":
      return { sample: [1, 2, 3] };
    case "string":
      return "sample";
    case "number":
      return 1;
    case "boolean":
      return true;
  }
}

function requiredParams(
  node: AnyNodeDef,
  sample: string | undefined,
  tmp: string,
): Record<string, JsonValue> {
  const params: Record<string, JsonValue> = {};
  for (const [name, spec] of Object.entries(node.params)) {
    if (spec.default !== undefined) continue;
    if (spec.type === "path") {
      params[name] = spec.access === "read" ? CORPUS_DIR + (sample ?? SAMPLES.glb) : join(tmp, `${name}.out`);
    }
  }
  return params;
}
