import assert from "node:assert/strict";
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../../nodes/decode/freelancer/codec/build_scene.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { realisticCmp } from "../../../support/realistic_cmp.ts";
import { resolveFreelancerScene } from "../../../../nodes/decode/freelancer/resolver_run.ts";
import { forgetPngEncodings, loadPngEncoder } from "../../../../runtime/scene/png.ts";

// The tests build scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

const warn = () => {};
const glbOf = (bytes: Uint8Array) =>
  writeGlb(buildScene(decodeModel({ bytes, name: "r.cmp" }, [], warn), warn), { generator: "t" });

Deno.test("realistic compound: every part, LOD group and joint kind decodes", () => {
  const model = decodeModel({ bytes: realisticCmp(3, { parts: 12 }), name: "r.cmp" }, [], warn);
  assert.equal(model.parts.length, 12);
  assert.deepEqual(
    [...new Set(model.constraints.map((c) => c.kind))].sort(),
    ["cyl", "fix", "loose", "pris", "rev", "sphere"],
  );
  assert.ok(model.parts.every((p) => p.fragment.lods.length >= 3 && p.fragment.lods.length <= 5));
});

Deno.test("realistic compound: decoded and resolved, it gives no warning (retail has no offsets, its Cyl turns are angles)", () => {
  const warnings: string[] = [];
  const keep = (m: string) => warnings.push(m);
  const doc = buildScene(
    decodeModel({ bytes: realisticCmp(3, { parts: 12 }), name: "r.cmp" }, [], keep),
    keep,
  );
  resolveFreelancerScene(doc, {}, keep);
  // Every retail Cons offset is zero, so a retail-shaped file has none to warn about; its Cyl record's
  // turn (±30°, whole degrees as a modelling tool stores them) tells the disputed limit order.
  assert.deepEqual(warnings, []);
});

Deno.test("accessors share slabs without overlapping, and hold the source vertices", () => {
  const doc = buildScene(
    decodeModel({ bytes: realisticCmp(5, { parts: 16 }), name: "r.cmp" }, [], warn),
    warn,
  );
  const ranges = doc.getRoot().listAccessors().map((a) => a.getArray()!)
    .map((array) => ({
      buffer: array.buffer,
      start: array.byteOffset,
      end: array.byteOffset + array.byteLength,
    }));
  assert.ok(new Set(ranges.map((r) => r.buffer)).size < ranges.length / 10, "arrays are carved from slabs");
  const byBuffer = Map.groupBy(ranges, (r) => r.buffer);
  for (const list of byBuffer.values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) {
      assert.ok(list[i].start >= list[i - 1].end, "no two arrays overlap");
    }
  }
  // Generated normals are unit vectors; a mix-up of slabs or remap tables would break that.
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const normals = prim.getAttribute("NORMAL")?.getArray();
      for (let i = 0; normals && i < normals.length; i += 3) {
        assert.ok(Math.abs(Math.hypot(normals[i], normals[i + 1], normals[i + 2]) - 1) < 1e-4);
      }
    }
  }
});

Deno.test("decoding another model in between leaves no trace: same model, same bytes", async () => {
  const a = realisticCmp(1, { parts: 10 }), b = realisticCmp(2, { parts: 20 });
  const first = await glbOf(a);
  await glbOf(b);
  assert.deepEqual(await glbOf(a), first);
});

Deno.test("textures remembered from an earlier decode give the bytes of a first decode", async () => {
  const bytes = realisticCmp(4, { parts: 9 });
  forgetPngEncodings();
  const first = await glbOf(bytes);
  const doc = buildScene(decodeModel({ bytes, name: "r.cmp" }, [], warn), warn);
  assert.ok(doc.getRoot().listTextures().length >= 2, "the compound has textures to remember");
  assert.deepEqual(await writeGlb(doc, { generator: "t" }), first);
});
