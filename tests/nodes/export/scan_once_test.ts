/**
 * Issue #12: `export.gltf` reads each vertex array once — the repair's check for non-finite values,
 * the GLB writer's bounds and the output check share one pass per array — and its repair copies only
 * the arrays a repair writes into (the rest shared with the scene given). Counted, not timed: calls
 * of `Number.isFinite` (every one of the three scans asks it per float value) and the identity of
 * arrays.
 */
import assert from "node:assert/strict";
import { type Accessor, Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { repairForExport } from "../../../nodes/export/repair.ts";
import { runNode, testContext } from "../../support/context.ts";
import { prng } from "../../support/prng.ts";

/**
 * A game rip's mesh set, as converters leave one: many small groups (20–2,000 vertices) of 16-bit
 * indices, normals stored at 16-bit precision (unit within rounding), UVs tiling past 0..1, coarse
 * positions; one group of `damaged` has a NaN position (a broken vertex the decoder passed through).
 */
function ripScene(seed: number, groups: number, damaged: boolean): Document {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const root = doc.createNode("rip");
  doc.createScene("Scene").addChild(root);
  for (let g = 0; g < groups; g++) {
    const vertices = 20 + Math.floor(random() * 1980);
    const positions = new Float32Array(3 * vertices), normals = new Float32Array(3 * vertices);
    const uvs = new Float32Array(2 * vertices);
    for (let v = 0; v < vertices; v++) {
      for (let c = 0; c < 3; c++) positions[3 * v + c] = Math.round((random() - 0.5) * 4096) / 256;
      const n = [random() - 0.5, random() - 0.5, random() - 0.5 + 1e-3];
      const length = Math.hypot(n[0], n[1], n[2]);
      for (let c = 0; c < 3; c++) normals[3 * v + c] = Math.round((n[c] / length) * 32767) / 32767;
      uvs[2 * v] = random() * 3 - 1;
      uvs[2 * v + 1] = random() * 2;
    }
    if (damaged && g === 1) positions[4] = NaN;
    const indices = new Uint16Array(3 * Math.floor(vertices * 1.5));
    for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(random() * vertices);
    const accessor = (
      name: string,
      type: "VEC3" | "VEC2" | "SCALAR",
      array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
    ) => doc.createAccessor(`${name}_${g}`, buffer).setType(type).setArray(array);
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("pos", "VEC3", positions))
      .setAttribute("NORMAL", accessor("nrm", "VEC3", normals))
      .setAttribute("TEXCOORD_0", accessor("uv", "VEC2", uvs))
      .setIndices(accessor("idx", "SCALAR", indices));
    root.addChild(doc.createNode(`group_${g}`).setMesh(doc.createMesh(`group_${g}`).addPrimitive(primitive)));
  }
  return doc;
}

/** Float values in the scene's accessors. */
function floatValues(doc: Document): number {
  return doc.getRoot().listAccessors().reduce(
    (sum: number, a: Accessor) => sum + (a.getArray() instanceof Float32Array ? a.getArray()!.length : 0),
    0,
  );
}

/** Calls of `Number.isFinite` while `run` runs. */
async function finiteChecks(run: () => Promise<unknown>): Promise<number> {
  const original = Number.isFinite;
  let calls = 0;
  Number.isFinite = (value: unknown) => {
    calls++;
    return original(value);
  };
  try {
    await run();
  } finally {
    Number.isFinite = original;
  }
  return calls;
}

for (const damaged of [false, true]) {
  Deno.test(`export.gltf reads each float value once${damaged ? ", a repair applied" : ""}`, async () => {
    const scene = ripScene(damaged ? 1202 : 1201, 24, damaged);
    const values = floatValues(scene);
    const ctx = testContext();
    const calls = await finiteChecks(() => runNode(exportGltf, { scene }, {}, ctx));
    // One pass per array; the repaired one's copy twice more (repaired, then its bounds); and a few
    // hundred calls per mesh for JSON numbers and node bounds. Before: 2.4 per value (3.4 repaired).
    const repaired = damaged
      ? scene.getRoot().listAccessors().find((a) => a.getName() === "pos_1")!
      : undefined;
    const allowed = values + 2 * (repaired?.getArray()?.length ?? 0) + 200 * 24;
    assert.ok(
      calls <= allowed,
      `${calls} finiteness checks for ${values} float values (${(calls / values).toFixed(2)} per value)`,
    );
    assert.equal(ctx.warnings.some((w) => w.message.includes("non-finite")), damaged);
  });
}

Deno.test("repairs copy the arrays they write into, no others; the scene given keeps its values", () => {
  const scene = ripScene(1203, 12, true);
  const accessors = scene.getRoot().listAccessors();
  const named = (name: string) => accessors.findIndex((a) => a.getName() === name);
  // Two more kinds of damage, elsewhere: a normal of length 2, an index past the last vertex.
  accessors[named("nrm_3")].getArray()!.set([0, 2, 0], 6);
  accessors[named("idx_5")].getArray()![7] = 60_000;
  const before = accessors.map((a) => a.getArray()!);
  const values = before.map((array) => Array.from(array));
  const warnings: string[] = [];
  const repaired = repairForExport(scene, (message) => warnings.push(message));
  assert.notEqual(repaired, scene);
  assert.equal(warnings.length, 3, warnings.join("\n"));
  const after = repaired.getRoot().listAccessors().map((a) => a.getArray()!);
  assert.equal(after.length, before.length);
  const copied = after.flatMap((array, i) => (array === before[i] ? [] : [i]));
  assert.deepEqual(copied, [named("pos_1"), named("nrm_3"), named("idx_5")].sort((a, b) => a - b));
  assert.deepEqual(before.map((array) => Array.from(array)), values, "the scene given keeps its values");
  assert.equal(after[named("pos_1")][4], 0);
  assert.equal(after[named("idx_5")][7], 0);
  assert.deepEqual(Array.from(after[named("nrm_3")].subarray(6, 9)), [0, 1, 0]);
});
