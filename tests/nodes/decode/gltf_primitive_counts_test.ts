/**
 * A primitive whose index (or vertex) count does not fit its mode — 14 indices in TRIANGLES, 5 in
 * LINES, 8 vertices without indices — loses the leftover viewers do not draw, with a warning naming
 * the primitive and the counts; one with nothing to draw is named and kept. The output is valid.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { khronosValidate } from "../../../nodes/export/khronos.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { crossCheck, describeCrossCheck, exportBytes } from "../../support/output_check.ts";
import { glbOf } from "../../support/shapes.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A GLB builder: data appended to one buffer, a view and an accessor per array. */
function builder() {
  const parts: Uint8Array[] = [], views: Json[] = [], accessors: Json[] = [];
  let length = 0;
  const add = (array: Float32Array | Uint16Array, type: string, target: number) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    views.push({ buffer: 0, byteOffset: length, byteLength: bytes.length, target });
    parts.push(bytes, new Uint8Array((4 - bytes.length % 4) % 4));
    length += Math.ceil(bytes.length / 4) * 4;
    const floats = array instanceof Float32Array;
    const count = array.length / (type === "VEC3" ? 3 : 1);
    const accessor: Json = { bufferView: views.length - 1, componentType: floats ? 5126 : 5123, count, type };
    if (type === "VEC3") {
      const axis = (k: number) => Array.from({ length: count }, (_, i) => array[i * 3 + k]);
      accessor.min = [0, 1, 2].map((k) => Math.min(...axis(k)));
      accessor.max = [0, 1, 2].map((k) => Math.max(...axis(k)));
    }
    accessors.push(accessor);
    return accessors.length - 1;
  };
  const positions = (n: number) =>
    add(
      Float32Array.from({ length: n * 3 }, (_, i) => i % 3 === 1 ? 0 : Math.floor(i / 3) * 0.1 + (i % 3)),
      "VEC3",
      34962,
    );
  const indices = (values: number[]) => add(Uint16Array.from(values), "SCALAR", 34963);
  const glb = (primitives: Json[]) => {
    const bin = new Uint8Array(length);
    let at = 0;
    for (const part of parts) bin.set(part, at), at += part.length;
    const meshes = primitives.map((primitive) => ({ primitives: [primitive] }));
    return glbOf({
      asset: { version: "2.0", generator: "CAD2glTF 1.2 (hand-cut index lists)" },
      buffers: [{ byteLength: length }],
      bufferViews: views,
      accessors,
      meshes,
      nodes: meshes.map((_, m) => ({ name: `Panel_${m}`, mesh: m })),
      scenes: [{ nodes: meshes.map((_, m) => m) }],
      scene: 0,
    }, bin);
  };
  return { positions, indices, glb, accessors };
}

async function decode(bytes: Uint8Array) {
  const ctx = testContext();
  const scene: Document = (await runNode(decodeGltf, { bytes: { bytes, name: "cut.glb" } }, {}, ctx)).scene;
  return { scene, warnings: ctx.warnings.map((w) => w.message), ctx };
}

Deno.test("indices and vertices past the last whole triangle or line are left out, each named; the output is valid", async () => {
  const b = builder();
  const grid = b.positions(6);
  const fourteen = b.indices([0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5, 5, 4]);
  const primitives = [
    { attributes: { POSITION: grid }, indices: fourteen }, // TRIANGLES: 12 kept
    { attributes: { POSITION: b.positions(8) } }, // TRIANGLES without indices: 6 vertices kept
    { attributes: { POSITION: grid }, indices: b.indices([0, 1, 1, 2, 3]), mode: 1 }, // LINES: 4 kept
    { attributes: { POSITION: grid }, indices: b.indices([0, 1]), mode: 5 }, // a strip drawing nothing
    { attributes: { POSITION: grid }, indices: fourteen, mode: 0 }, // POINTS sharing the 14: all kept
  ];
  const input = b.glb(primitives);
  const inputReport = await khronosValidate(input, 100);
  const incompatible = inputReport.issues.filter((i) => i.code === "MESH_PRIMITIVE_INCOMPATIBLE_MODE");
  assert.equal(incompatible.length, 4, "the input is as messy as meant");

  const { scene, warnings, ctx } = await decode(input);
  const counts = scene.getRoot().listMeshes().map((mesh) => {
    const p = mesh.listPrimitives()[0];
    return p.getIndices()?.getCount() ?? p.getAttribute("POSITION")!.getCount();
  });
  assert.deepEqual(counts, [12, 6, 4, 2, 14]);
  // The kept indices are the file's first ones, not others.
  assert.deepEqual(
    Array.from(scene.getRoot().listMeshes()[0].listPrimitives()[0].getIndices()!.getArray()!),
    [0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5],
  );
  const expected = [
    /cut\.glb at \/meshes\/0\/primitives\/0: 14 indices in mode TRIANGLES, not a multiple of 3: the last 2 indices .* left out/,
    /\/meshes\/1\/primitives\/0: 8 vertices \(no indices\) in mode TRIANGLES, not a multiple of 3: the last 2 vertices/,
    /\/meshes\/2\/primitives\/0: 5 indices in mode LINES, not a multiple of 2: the last 1 index /,
    /\/meshes\/3\/primitives\/0: 2 indices in mode TRIANGLE_STRIP, which draws nothing with fewer than 3; kept/,
  ];
  assert.equal(warnings.length, expected.length, warnings.join("\n"));
  expected.forEach((pattern, i) => assert.match(warnings[i], pattern));

  const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const report = await khronosValidate(out, 100);
  assert.equal(report.numErrors, 0, JSON.stringify(report.issues.slice(0, 3)));
  // Only the strip that draws nothing is still incompatible with its mode.
  const left = report.issues.filter((i) => i.code === "MESH_PRIMITIVE_INCOMPATIBLE_MODE");
  assert.equal(left.length, 1, JSON.stringify(left));
  const check = await crossCheck(await exportBytes(await readGltf(out)));
  assert.ok(check.fast.kind === "valid" && check.khronosErrors === 0, describeCrossCheck(check));
});

Deno.test("many primitives cut alike are one warning and a count, not one each", async () => {
  const b = builder();
  const grid = b.positions(6);
  const primitives = Array.from({ length: 40 }, () => ({
    attributes: { POSITION: grid },
    indices: b.indices([0, 1, 2, 2, 1, 3, 4]),
  }));
  const { scene, warnings } = await decode(b.glb(primitives));
  assert.ok(scene.getRoot().listMeshes().every((m) => m.listPrimitives()[0].getIndices()!.getCount() === 6));
  // Vertex 5 no index uses lies past the drawn ones: moved, and named once for the shared accessor.
  const strays = warnings.filter((w) => / 1 vertex of 6 that no primitive draws/.test(w));
  assert.equal(strays.length, 1, warnings.join("\n"));
  const cut = warnings.filter((w) => !strays.includes(w));
  assert.equal(cut.length, 4, warnings.join("\n"));
  assert.match(cut[3], /and 37 more like the last/);
});

Deno.test("counts that fit their modes are left alone, without a word", async () => {
  const b = builder();
  const grid = b.positions(6);
  const primitives = [
    { attributes: { POSITION: grid }, indices: b.indices([0, 1, 2, 2, 1, 3]) },
    { attributes: { POSITION: b.positions(9) } },
    { attributes: { POSITION: grid }, indices: b.indices([0, 1, 2, 3]), mode: 1 },
    { attributes: { POSITION: grid }, indices: b.indices([0, 1, 2, 3, 4]), mode: 5 },
    { attributes: { POSITION: grid }, mode: 2 },
  ];
  const { scene, warnings } = await decode(b.glb(primitives));
  assert.deepEqual(warnings, []);
  const counts = scene.getRoot().listMeshes().map((mesh) => {
    const p = mesh.listPrimitives()[0];
    return p.getIndices()?.getCount() ?? p.getAttribute("POSITION")!.getCount();
  });
  assert.deepEqual(counts, [6, 9, 4, 5, 6]);
});

Deno.test("a primitive of one index, as a cut list can leave, is named in the singular and kept", async () => {
  const b = builder();
  const { scene, warnings } = await decode(
    b.glb([{ attributes: { POSITION: b.positions(3) }, indices: b.indices([0]) }]),
  );
  assert.deepEqual(warnings, [
    "cut.glb at /meshes/0/primitives/0: 1 index in mode TRIANGLES, which draws nothing with fewer than 3; kept as it is",
  ]);
  assert.equal(scene.getRoot().listMeshes()[0].listPrimitives()[0].getIndices()!.getCount(), 1);
});
