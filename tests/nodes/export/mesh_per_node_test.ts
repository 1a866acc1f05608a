/**
 * `export.gltf` writes a mesh Blender 3.4 would copy per node as those copies (`mesh_per_node.ts`): a
 * morphed mesh drawn by nodes at different weights, one whose weights a clip keys, a mesh bound by two
 * skins. Each copy shares the original's accessors, is named apart (`Face_1`, extras.name `Face`), and
 * leaves nothing for the Blender warning to name; nodes drawing a mesh the same way keep sharing it.
 * Blender's and three.js's side: `tests/clients/blender_odd_test.ts`, `threejs_odd_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** A face mesh with one morph target drawn by a node per entry of `weights` (`null`: no weights). */
function crowd(weights: (number[] | null)[], keyed?: number): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const accessor = (values: number[]) =>
    doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(new Float32Array(values));
  const face = doc.createMesh("Face").addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", accessor([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .addTarget(
        doc.createPrimitiveTarget("smile").setAttribute("POSITION", accessor(new Array(9).fill(0.1))),
      ),
  ).setWeights([0]);
  const nodes = weights.map((w, i) => doc.createNode(`face${i}`).setMesh(face).setWeights(w ?? []));
  for (const node of nodes) scene.addChild(node);
  if (keyed !== undefined) {
    const sampler = doc.createAnimationSampler()
      .setInput(doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Float32Array([0, 1])))
      .setOutput(doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Float32Array([0, 1])));
    doc.createAnimation("talk").addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(nodes[keyed]).setTargetPath("weights").setSampler(sampler),
    );
  }
  return doc;
}

async function written(doc: Document) {
  const ctx = testContext();
  const json = glbJson((await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes);
  return { json, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("a morphed mesh drawn at different weights is written once per way, its data shared", async () => {
  const input = crowd([[0.5], [1], [0.5], null]);
  const { json, warnings } = await written(input);
  // Three ways: 0.5 (two nodes), 1, and no weights of the node's own (Blender's key tells them apart).
  assertEquals(json.nodes.map((n: Json) => n.mesh), [0, 1, 0, 2]);
  assertEquals(json.meshes.map((m: Json) => m.name), ["Face", "Face_1", "Face_2"]);
  assertEquals(json.meshes.map((m: Json) => m.extras?.name), [undefined, "Face", "Face"]);
  const primitives = json.meshes.map((m: Json) => JSON.stringify(m.primitives));
  assertEquals(new Set(primitives).size, 1, "every copy draws the same accessors");
  assertEquals(json.nodes.map((n: Json) => n.weights), [[0.5], [1], [0.5], undefined]);
  assert(!warnings.some((w) => w.includes("copies")), `${warnings}`);
  // The input is left as it was.
  assertEquals(input.getRoot().listMeshes().length, 1);
});

Deno.test("nodes at one weight share the mesh; a node whose weights a clip keys gets its own", async () => {
  assertEquals((await written(crowd([[0.5], [0.5]]))).json.meshes.length, 1);
  const { json } = await written(crowd([[0.5], [0.5], [0.5]], 1));
  assertEquals(json.nodes.map((n: Json) => n.mesh), [0, 1, 0]);
});
