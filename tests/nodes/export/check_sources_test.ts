/**
 * The output check given the arrays a GLB was written from (`writtenArrays`) reads their remembered
 * passes instead of the binary chunk — and comes to the same verdict, naming the same first error, on
 * GLBs written without the export's repair from the damage real sources carry.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { checkOutput } from "../../../nodes/export/check/mod.ts";
import { binRead } from "../../../nodes/export/check/data.ts";
import { writeGlb, writeGlbVia, writtenArrays, writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { prng } from "../../support/prng.ts";

type Damage =
  | "none"
  | "nan position"
  | "long normal"
  | "restart index"
  | "index past the end"
  | "infinite uv";

/**
 * Two parts of a converter's output (coarse positions, 16-bit-rounded normals, tiling UVs, 16-bit
 * indices), the second with `damage`, as a fuzzed or broken source leaves it and the writer writes it.
 */
function scene(seed: number, damage: Damage): Document {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const root = doc.createNode("root");
  doc.createScene("Scene").addChild(root);
  for (let part = 0; part < 2; part++) {
    const vertices = 30 + Math.floor(random() * 300);
    const positions = new Float32Array(3 * vertices), normals = new Float32Array(3 * vertices);
    const uvs = new Float32Array(2 * vertices);
    for (let v = 0; v < vertices; v++) {
      const n = [random() - 0.5, random() - 0.5, random() - 0.5 + 1e-3];
      const length = Math.hypot(n[0], n[1], n[2]);
      for (let c = 0; c < 3; c++) {
        positions[3 * v + c] = Math.round((random() - 0.5) * 512) / 16;
        normals[3 * v + c] = Math.round((n[c] / length) * 32767) / 32767;
      }
      uvs[2 * v] = random() * 4 - 2;
      uvs[2 * v + 1] = random();
    }
    const indices = new Uint16Array(3 * vertices);
    for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(random() * vertices);
    if (part === 1) {
      const at = Math.floor(random() * vertices);
      if (damage === "nan position") positions[3 * at + 1] = NaN;
      if (damage === "long normal") normals.set([0, 2, 0], 3 * at);
      if (damage === "restart index") indices[at] = 0xffff;
      if (damage === "index past the end") indices[at] = vertices + 3;
      if (damage === "infinite uv") uvs[2 * at] = -Infinity;
    }
    const accessor = (
      type: "VEC3" | "VEC2" | "SCALAR",
      array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
    ) => doc.createAccessor("", buffer).setType(type).setArray(array);
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("VEC3", positions))
      .setAttribute("NORMAL", accessor("VEC3", normals))
      .setAttribute("TEXCOORD_0", accessor("VEC2", uvs))
      .setIndices(accessor("SCALAR", indices));
    root.addChild(
      doc.createNode(`part_${part}`).setMesh(doc.createMesh(`part_${part}`).addPrimitive(primitive)),
    );
  }
  return doc;
}

const DAMAGES: Damage[] = [
  "none",
  "nan position",
  "long normal",
  "restart index",
  "index past the end",
  "infinite uv",
];

for (const damage of DAMAGES) {
  Deno.test(`the check from the written arrays gives the chunk's verdict: ${damage}`, async () => {
    for (const seed of [3101, 3102, 3103]) {
      const bytes = await writeGlb(scene(seed, damage), { generator: "partgraph test" });
      const sources = writtenArrays(bytes);
      assert.ok(sources, "the direct writer wrote this GLB");
      const fromChunk = checkOutput(bytes, "glb", writtenJson(bytes));
      const read = binRead.values;
      const fromArrays = checkOutput(bytes, "glb", writtenJson(bytes), sources);
      assert.deepEqual(fromArrays, fromChunk, `seed ${seed}`);
      assert.equal(fromChunk.kind, damage === "none" ? "valid" : "invalid", JSON.stringify(fromChunk));
      // A clean file's data rules all came from the arrays' passes: nothing read from the chunk.
      if (damage === "none") {
        assert.equal(binRead.values - read, 0, `seed ${seed}: values read from the chunk`);
      }
    }
  });
}

Deno.test("GLBs not written from the arrays carry none", async () => {
  const bytes = await writeGlbVia(scene(3104, "none"), { generator: "partgraph test" }, "gltf-transform");
  assert.equal(writtenArrays(bytes), undefined);
  assert.equal(writtenArrays(bytes.slice()), undefined);
});

Deno.test("a clean file checked from its arrays makes no view over the chunk; the chunk's check one per accessor read", async () => {
  for (const seed of [3105, 3106]) {
    const bytes = await writeGlb(scene(seed, "none"), { generator: "partgraph test" });
    const json = writtenJson(bytes) as { accessors: unknown[] };
    let views = binRead.views;
    assert.equal(checkOutput(bytes, "glb", json, writtenArrays(bytes)).kind, "valid");
    // Before: a typed view over the chunk per accessor, whether a rule read it or not.
    assert.equal(binRead.views - views, 0, `seed ${seed}: views made of ${json.accessors.length} accessors`);
    views = binRead.views;
    assert.equal(checkOutput(bytes, "glb", json).kind, "valid");
    // From the chunk: every float accessor (values, bounds) and index accessor (their largest) is read.
    assert.equal(binRead.views - views, json.accessors.length, `seed ${seed}: views made from the chunk`);
  }
});
