/**
 * Reading accessor data ahead of glTF-Transform's reader gives the arrays its reader gives (same
 * type, same bits), on interleaved and packed files, misaligned input and the corpus.
 */
import assert from "node:assert/strict";
import { type Document, NodeIO, VertexLayout } from "@gltf-transform/core";
import { gltfIO, readGltf, readJsonDocument, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { readAccessorsAhead } from "../../../runtime/scene/read_accessors.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { randomScene } from "../../support/random_scene.ts";
import { buildLargeGlb } from "../../support/large_glb.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";

/** Asserts `readGltf` gives every accessor the type and bytes glTF-Transform's own reader gives it. */
async function assertSameArrays(glb: Uint8Array, label: string): Promise<number> {
  const io = await gltfIO();
  const reference = await io.readJSON(await io.binaryToJSON(glb));
  const read = await readGltf(glb);
  const expected = reference.getRoot().listAccessors(), actual = read.getRoot().listAccessors();
  assert.equal(actual.length, expected.length, label);
  for (const [i, accessor] of actual.entries()) {
    const [a, b] = [accessor.getArray()!, expected[i].getArray()!];
    assert.equal(a.constructor, b.constructor, `${label}: accessor ${i} type`);
    assert.deepEqual(bytes(a), bytes(b), `${label}: accessor ${i} data`);
    assert.equal(accessor.getNormalized(), expected[i].getNormalized(), `${label}: accessor ${i} normalized`);
  }
  return readAccessorsAhead(await io.binaryToJSON(glb)).arrays.size;
}

function bytes(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** `doc` as GLB written by glTF-Transform with the given vertex layout. */
async function glbOf(doc: Document, layout: VertexLayout): Promise<Uint8Array> {
  return await (await gltfIO()).setVertexLayout(layout).writeBinary(doc).finally(() =>
    gltfIO().then((io) => io.setVertexLayout(VertexLayout.INTERLEAVED))
  );
}

Deno.test("interleaved and packed random scenes read to glTF-Transform's arrays", async () => {
  for (let seed = 1; seed <= 40; seed++) {
    for (const layout of [VertexLayout.INTERLEAVED, VertexLayout.SEPARATE]) {
      const glb = await glbOf(randomScene(seed), layout);
      const taken = await assertSameArrays(glb, `seed ${seed} ${layout}`);
      const plain = randomScene(seed).getRoot().listAccessors().filter((accessor) => !accessor.getSparse());
      assert.equal(taken, plain.length, `seed ${seed}: all but the sparse read ahead`);
    }
  }
});

Deno.test("a binary chunk at an odd byte offset (misaligned words) reads to glTF-Transform's arrays", async () => {
  const io = await gltfIO();
  const jsonDoc = await io.binaryToJSON(await writeGlb(randomScene(3), { generator: GENERATOR }));
  const [[uri, bin]] = Object.entries(jsonDoc.resources);
  const shifted = new Uint8Array(bin.byteLength + 1).subarray(1);
  shifted.set(bin);
  const resources = { [uri]: shifted };
  const expected = (await io.readJSON({ json: structuredClone(jsonDoc.json), resources })).getRoot()
    .listAccessors();
  const actual = (await readJsonDocument({ json: jsonDoc.json, resources })).getRoot().listAccessors();
  assert.ok(expected.length > 0);
  for (const [i, accessor] of actual.entries()) {
    assert.deepEqual(bytes(accessor.getArray()!), bytes(expected[i].getArray()!), `accessor ${i}`);
  }
});

Deno.test("a 100k-vertex grid reads to glTF-Transform's arrays", async () => {
  await assertSameArrays(await buildLargeGlb(100_000), "grid");
});

Deno.test({
  name: "the sketchbook airplane reads to glTF-Transform's arrays",
  ignore: withoutCorpus("aircraft/sketchbook_airplane.glb"),
  async fn() {
    await assertSameArrays(Deno.readFileSync(corpusFile("aircraft/sketchbook_airplane.glb")!), "sketchbook");
  },
});

Deno.test("accessors out of their view's range or with broken numbers are left to glTF-Transform's reader", async () => {
  const io = new NodeIO();
  const jsonDoc = await io.binaryToJSON(await writeGlb(randomScene(5), { generator: GENERATOR }));
  const json = structuredClone(jsonDoc.json);
  json.accessors![0].count += 1_000_000;
  const ahead = readAccessorsAhead({ json, resources: jsonDoc.resources });
  assert.equal(ahead.arrays.has(0), false);
  assert.equal(ahead.arrays.size, json.accessors!.length - 1);
  assert.equal(ahead.jsonDoc.json.accessors![0], json.accessors![0]);
  assert.equal(json.accessors![1].count > 0, true, "the input JSON keeps its counts");
  // Nor are views whose numbers are not whole byte counts.
  json.bufferViews![json.accessors![1].bufferView!].byteLength = undefined as unknown as number;
  assert.equal(readAccessorsAhead({ json, resources: jsonDoc.resources }).arrays.has(1), false);
});
