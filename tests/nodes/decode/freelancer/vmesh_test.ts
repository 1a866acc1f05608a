import assert from "node:assert/strict";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { encodeVMeshData, packVertices } from "../../../support/freelancer/encode_model.ts";
import {
  readVMeshData,
  readVWireData,
  vertexLayout,
} from "../../../../nodes/decode/freelancer/codec/vmesh.ts";
import { selectRef, selectWire } from "../../../../nodes/decode/freelancer/codec/vmesh_select.ts";
import { DecodeError } from "../../../../runtime/errors.ts";

const window = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "vmesh");
const wholeRef = (groups: number, vertexStart = 0) => ({
  meshId: 1,
  vertexStart,
  vertexCount: 0,
  indexStart: 0,
  indexCount: 0,
  groupStart: 0,
  groupCount: groups,
  offset: 0,
});

Deno.test("vertex strides of every retail FVF (and UV-set counts up to 8)", () => {
  const strides: Record<number, number> = {
    0x112: 32,
    0x212: 40,
    0x102: 20,
    0x142: 24,
    0x012: 24,
    0x152: 36,
    0x252: 44,
    0x002: 12,
    0x812: 24 + 64,
  };
  for (const [fvf, stride] of Object.entries(strides)) {
    const layout = vertexLayout(Number(fvf));
    assert.ok(typeof layout !== "string", layout as string);
    assert.equal(layout.stride, stride, `FVF 0x${Number(fvf).toString(16)}`);
  }
  assert.equal(typeof vertexLayout(0x912), "string", "9 UV sets");
  assert.equal(typeof vertexLayout(0x110), "string", "no position");
  assert.equal(typeof vertexLayout(0x1112), "string", "unknown bit");
});

for (const fvf of [0x002, 0x012, 0x102, 0x112, 0x142, 0x152, 0x212, 0x252, 0x312, 0x812]) {
  Deno.test(`FVF 0x${fvf.toString(16).padStart(3, "0")}: every attribute round-trips, diffuse read as B,G,R,A`, () => {
    const layout = vertexLayout(fvf);
    if (typeof layout === "string") throw new Error(layout);
    const count = 5;
    const positions = Array.from({ length: 3 * count }, (_, i) => i * 0.5 - 3);
    const normals = Array.from(
      { length: count },
      (_, v) => [0, 0, 0].map((_, c) => (c === v % 3 ? (v % 2 ? -1 : 1) : 0)),
    ).flat();
    const diffuse = [0xff102030, 0x80ff0000, 0x0000ff00, 0xff0000ff, 0xffffffff];
    const uvs = Array.from(
      { length: layout.uvCount },
      (_, set) => Array.from({ length: 2 * count }, (_, i) => set + i / 16),
    );
    const vertices = packVertices(fvf, count, { positions, normals, diffuse, uvs });
    const indices = [0, 1, 2, 2, 3, 4];
    const bytes = encodeVMeshData({
      fvf,
      groups: [{ materialId: 7, vertexStart: 0, vertexEnd: 4, indexCount: 6 }],
      indices,
      vertices,
    });
    assert.equal(bytes.length, 16 + 12 + 2 * 6 + layout.stride * count);
    const mesh = readVMeshData(window(bytes), "m.vms");
    const [prim] = selectRef(mesh, wholeRef(1));
    assert.equal(prim.materialId, 7);
    assert.deepEqual(Array.from(prim.positions), Array.from(new Float32Array(positions)));
    assert.deepEqual(Array.from(prim.indices), indices);
    assert.equal(prim.normals !== undefined, (fvf & 0x10) !== 0);
    if (prim.normals) assert.deepEqual(Array.from(prim.normals), normals);
    assert.equal(prim.colors !== undefined, (fvf & 0x40) !== 0);
    if (prim.colors) {
      // 0xFF102030: A=FF R=10 G=20 B=30; linear conversion is monotonic so compare the order R<G<B.
      const [r, g, b, a] = prim.colors.subarray(0, 4);
      assert.ok(r < g && g < b && a === 1, `${r} ${g} ${b} ${a}`);
      assert.deepEqual(Array.from(prim.colors.subarray(4, 8)), [1, 0, 0, Math.fround(128 / 255)]);
      assert.deepEqual(Array.from(prim.colors.subarray(12, 16)), [0, 0, 1, 1]);
    }
    assert.equal(prim.uvs.length, layout.uvCount);
    prim.uvs.forEach((uv, set) => assert.deepEqual(Array.from(uv), Array.from(new Float32Array(uvs[set]))));
  });
}

Deno.test("inclusive vertexEnd, ref start + group start + index, interleaved groups sliced by used indices", () => {
  const count = 10;
  const positions = Array.from({ length: 3 * count }, (_, i) => Math.floor(i / 3));
  const vertices = packVertices(0x002, count, { positions });
  const bytes = encodeVMeshData({
    fvf: 0x002,
    groups: [
      // Interleaved: both groups span vertices 0..5 (relative), using even and odd ones.
      { materialId: 1, vertexStart: 0, vertexEnd: 5, indexCount: 3 },
      { materialId: 2, vertexStart: 0, vertexEnd: 5, indexCount: 3 },
      // vertexEnd is inclusive: index 2 on start 2 reaches vertexEnd 4.
      { materialId: 3, vertexStart: 2, vertexEnd: 4, indexCount: 3 },
    ],
    indices: [0, 2, 4, 1, 3, 5, 0, 1, 2],
    vertices,
  });
  const mesh = readVMeshData(window(bytes), "m.vms");
  const prims = selectRef(mesh, wholeRef(3, 3));
  const vertexIds = (p: { positions: Float32Array; indices: Uint16Array }) =>
    Array.from(p.indices, (i) => p.positions[3 * i]);
  assert.deepEqual(vertexIds(prims[0]), [3, 5, 7]);
  assert.equal(prims[0].positions.length, 9, "only the vertices the group uses");
  assert.deepEqual(vertexIds(prims[1]), [4, 6, 8]);
  assert.deepEqual(vertexIds(prims[2]), [5, 6, 7]);
});

Deno.test("bad VMeshData: short leaf, index past the vertex buffer, group past the index buffer", () => {
  const vertices = packVertices(0x002, 3, { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0] });
  const good = encodeVMeshData({
    fvf: 0x002,
    groups: [{ materialId: 0, vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices,
  });
  assert.throws(() => readVMeshData(window(good.subarray(0, good.length - 1)), "m"), DecodeError);
  const tooFar = encodeVMeshData({
    fvf: 0x002,
    groups: [{ materialId: 0, vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 3],
    vertices,
  });
  const error = (() => {
    try {
      selectRef(readVMeshData(window(tooFar), "m"), wholeRef(1));
    } catch (e) {
      return e as DecodeError;
    }
  })();
  assert.ok(error instanceof DecodeError);
  assert.equal((error.at as { offset: number }).offset, 16 + 12 + 4, "the third index");
  const view = new DataView(good.buffer.slice(0));
  view.setUint16(16 + 8, 6, true);
  assert.throws(() => readVMeshData(window(new Uint8Array(view.buffer)), "m"), DecodeError);
  assert.throws(() => selectRef(readVMeshData(window(good), "m"), { ...wholeRef(2) }), DecodeError);
});

Deno.test("an index past the mesh, found while rebasing, names the group's largest index and leaves the next selection right", () => {
  // Six vertices on a line; group 0 uses five of them before an index past the mesh (a damaged
  // index list), group 1 draws three of the same five.
  const positions = Array.from({ length: 18 }, (_, i) => i % 3 === 0 ? i / 3 : 0);
  const bytes = encodeVMeshData({
    fvf: 0x002,
    groups: [
      { materialId: 1, vertexStart: 0, vertexEnd: 5, indexCount: 6 },
      { materialId: 2, vertexStart: 0, vertexEnd: 5, indexCount: 3 },
    ],
    indices: [0, 1, 2, 3, 4, 9, 2, 3, 4],
    vertices: packVertices(0x002, 6, { positions }),
  });
  const mesh = readVMeshData(window(bytes), "m");
  const error = (() => {
    try {
      selectRef(mesh, { ...wholeRef(1) });
    } catch (e) {
      return e as DecodeError;
    }
  })();
  assert.ok(error instanceof DecodeError);
  assert.equal((error.at as { offset: number }).offset, 16 + 24 + 2 * 5, "the sixth index, 9");
  assert.match(error.message, /\b9\b/);
  // The vertices group 0 had rebased before the bad index must not be taken as already copied.
  const [prim] = selectRef(mesh, { ...wholeRef(1), groupStart: 1 });
  assert.deepEqual([...prim.indices], [0, 1, 2]);
  assert.deepEqual([...prim.positions], [2, 0, 0, 3, 0, 0, 4, 0, 0]);
  // A wireframe's index past the mesh is named the same way, and leaves the table clean too.
  const wire = new Uint8Array(16 + 2 * 4);
  const view = new DataView(wire.buffer);
  view.setUint32(0, 16, true);
  view.setUint16(12, 4, true);
  [3, 4, 4, 7].forEach((index, i) => view.setUint16(16 + 2 * i, index, true));
  assert.throws(
    () => selectWire(mesh, readVWireData(window(wire))),
    (e: unknown) => e instanceof DecodeError && (e.at as { offset: number }).offset === 16 + 6,
  );
  assert.deepEqual([...selectRef(mesh, { ...wholeRef(1), groupStart: 1 })[0].positions], [
    2,
    0,
    0,
    3,
    0,
    0,
    4,
    0,
    0,
  ]);
});
