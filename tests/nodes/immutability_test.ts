/**
 * Values are immutable by contract: run every registered node on real inputs, and every ready-made
 * graph on its fixtures with each node wrapped, and prove that each input is the same afterwards —
 * but for an input the run says the node owns (`ctx.owns`), which it may change in place: the
 * graphs run both ways, with the run's own memory tier (inputs owned) and with a caller's (none).
 * A scene's digest is its GLB written from a copy plus every property's name and extras, so a node
 * that changes its input (as glTF-Transform's writer once did to mesh extras) is caught.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { extname, join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { createRegistry } from "../../mod.ts";
import { Registry } from "../../runtime/registry.ts";
import type { AnyNodeDef, BytesValue, JsonValue, SocketType } from "../../runtime/node.ts";
import { canonicalJson, sha256Hex } from "../../runtime/canonical.ts";
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode, testContext } from "../support/context.ts";
import { CORPUS_DIR, corpusFile } from "../support/corpus.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../support/graph_runs.ts";
import { tempDir } from "../support/temp.ts";
import { encodeRsc } from "../support/carnivores/rsc.ts";
import { encode3dn } from "../support/carnivores/encode_3dn.ts";
import { parse3df } from "../../nodes/decode/carnivores/codec/parse_3df.ts";

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

/**
 * Bytes made by code for a file extension the corpus has no file of: a Carnivores area (`.rsc`)
 * holding the corpus `.3df` as its one object, and that model as a mobile `.3dn`.
 */
const MADE: Record<string, () => Promise<BytesValue>> = {
  rsc: async () => {
    const model = parse3df(await Deno.readFile(CORPUS_DIR + SAMPLES["3df"]), "quad.3df", () => {});
    return { bytes: encodeRsc({ version: "c2", textures: 1, objects: [{ model }] }), name: "area.rsc" };
  },
  "3dn": async () => {
    const model = parse3df(await Deno.readFile(CORPUS_DIR + SAMPLES["3df"]), "quad.3df", () => {});
    return { bytes: encode3dn(model), name: "quad.3dn" };
  },
};

/** Digest of a scene that does not run the scene itself through the writer. */
async function sceneDigest(doc: Document): Promise<string> {
  const glb = await writeGlb(copyScene(doc), { generator: GENERATOR });
  const properties = doc.getGraph().listEdges().map((edge) => edge.getChild())
    .concat(doc.getRoot())
    .map((p) => {
      const named = p as unknown as { getName(): string; getExtras?(): unknown; propertyType: string };
      return [named.propertyType, named.getName(), named.getExtras?.() ?? null];
    });
  return sha256Hex(glb) + sha256Hex(canonicalJson(properties as never));
}

async function digest(type: SocketType, value: unknown): Promise<string> {
  if (value === undefined || value === null) return "none";
  if (type === "scene") return await sceneDigest(value as Document);
  if (type === "bytes") return sha256Hex((value as BytesValue).bytes) + (value as BytesValue).name;
  return canonicalJson(value as never);
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
    const tmp = await tempDir();
    const ran: string[] = [];
    const failed: string[] = [];
    for (const node of registry.list()) {
      const decoder = decoders.find((d) => d.node === node.type);
      const sample = decoder
        ? decoder.extensions.map((e) => SAMPLES[e]).find((s) => s && corpusFile(s))
        : SAMPLES.glb;
      const made = decoder && !sample ? decoder.extensions.map((e) => MADE[e]).find((m) => m) : undefined;
      const inputs: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(node.inputs)) {
        if (spec.optional) continue;
        inputs[name] = made && spec.type === "bytes"
          ? await made()
          : await sampleValue(spec.type, sample, sceneFor);
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

/**
 * A registry whose nodes check their inputs before and after running (but for the inputs they own,
 * listed in `owned`); `ran` counts each type.
 */
function checkingRegistry(ran: Map<string, number>, changed: string[], owned: string[]): Registry {
  const builtin = createRegistry();
  const wrap = (node: AnyNodeDef): AnyNodeDef => ({
    ...node,
    async run(args) {
      const all = Object.entries(args.inputs as Record<string, unknown>);
      for (const [name] of all) if (args.ctx.owns(name)) owned.push(`${node.type} ${name}`);
      const entries = all.filter(([name]) => !args.ctx.owns(name));
      const typeOf = (name: string) => node.inputs[name].type;
      const before = await Promise.all(entries.map(([name, v]) => digest(typeOf(name), v)));
      const result = await node.run(args);
      const after = await Promise.all(entries.map(([name, v]) => digest(typeOf(name), v)));
      entries.forEach(([name], i) => {
        if (before[i] !== after[i]) changed.push(`${node.type} changed its input '${name}'`);
      });
      ran.set(node.type, (ran.get(node.type) ?? 0) + 1);
      return result;
    },
  });
  return new Registry().register({
    nodes: builtin.list().map(wrap),
    decoders: [...builtin.decoders],
    resolvers: [...builtin.resolvers],
  });
}

const ran = new Map<string, number>();

for (const c of GRAPH_CASES) {
  const missing = missingCorpus(c);
  for (const callerMemory of [false, true]) {
    Deno.test({
      name: `immutability: every node of ${c.label} leaves its inputs unchanged${
        callerMemory ? " (caller's memory tier: nothing owned)" : " (but those it owns)"
      }${missing ? ` (skipped: corpus file ${missing} absent)` : ""}`,
      ignore: missing !== undefined,
      async fn() {
        const changed: string[] = [], owned: string[] = [];
        const total = () => [...ran.values()].reduce((sum, n) => sum + n, 0);
        const before = total();
        const memory = callerMemory ? new Map() : undefined;
        await runCase(c, { registry: checkingRegistry(ran, changed, owned), memory });
        assertEquals(changed, []);
        if (callerMemory) assertEquals(owned, []);
        else ownedTypes.push(...owned.map((entry) => entry.split(" ")[0]));
        assert(
          total() - before >= 4,
          `the graph's nodes ran through the checking registry (${total() - before})`,
        );
      },
    });
  }
}

/** Node types that owned an input in some graph run above. */
const ownedTypes: string[] = [];

Deno.test("immutability: in the graphs' own runs, constraints.resolve and the rig nodes owned their input", () => {
  // Meaningful only after the cases above (Deno runs a file's tests in order).
  const expected = [
    "constraints.resolve",
    "rig.assign_side",
    "rig.detect_panels",
    "rig.fit_hinge",
    "rig.insert_pivot",
    "rig.parts",
  ];
  assertEquals(expected.filter((type) => !ownedTypes.includes(type)), []);
});

Deno.test("immutability: the graphs ran the nodes that change scenes (export, resolve, rig, decoders)", () => {
  // Meaningful only after the cases above (Deno runs a file's tests in order).
  const expected = [
    "constraints.resolve",
    "decode.auto",
    "decode.car",
    "decode.cmp",
    "decode.gltf",
    "export.gltf",
    "rig.insert_pivot",
    "rig.parts",
    "rig.report",
  ];
  // Only the corpus airplane goes through decode.gltf; the others are code-built fixtures.
  const gltfCase = GRAPH_CASES.find((c) => c.graph === "gltf.json")!;
  const missing = expected.filter((type) => !ran.has(type))
    .filter((type) => type !== "decode.gltf" || !missingCorpus(gltfCase));
  assertEquals(missing, [], `node types that no graph case ran: ${missing}`);
});
