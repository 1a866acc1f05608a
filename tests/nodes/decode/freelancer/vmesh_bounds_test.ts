/**
 * Damage the independent reader rejects and the decoder once accepted (issue 10): a group whose
 * inclusive `vertexEnd` lies beyond the mesh, and a `VMeshRef` shorter than its 60 bytes.
 */
import assert from "node:assert/strict";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { encodeVMeshData, encodeVMeshRef, packVertices } from "../../../support/freelancer/encode_model.ts";
import { readVMeshData, readVMeshRef } from "../../../../nodes/decode/freelancer/codec/vmesh.ts";
import { selectRef } from "../../../../nodes/decode/freelancer/codec/vmesh_select.ts";
import { DecodeError } from "../../../../runtime/errors.ts";

const window = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "vmesh");

function mesh(vertexEnd: number, vertexCount = 4): Uint8Array {
  return encodeVMeshData({
    fvf: 0x002,
    groups: [{ materialId: 1, vertexStart: 0, vertexEnd, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices: packVertices(0x002, vertexCount, {
      positions: Array.from({ length: 3 * vertexCount }, (_, i) => i),
    }),
  });
}

Deno.test("a group vertexEnd of 0xFFFE beyond a 4-vertex mesh is a DecodeError at that field", () => {
  assert.doesNotThrow(() => readVMeshData(window(mesh(3)), "ok.vms"));
  assert.throws(() => readVMeshData(window(mesh(0xfffe)), "bad.vms"), (error: unknown) => {
    assert.ok(error instanceof DecodeError);
    assert.deepEqual(error.at, { offset: 16 + 6 });
    assert.match(error.expected, /below the 4 vertices/);
    return true;
  });
});

Deno.test("a ref whose start pushes a group's vertexEnd past the mesh is refused", () => {
  const data = readVMeshData(window(mesh(2)), "m.vms");
  const ref = {
    meshId: 1,
    vertexStart: 2,
    vertexCount: 3,
    indexStart: 0,
    indexCount: 3,
    groupStart: 0,
    groupCount: 1,
  };
  assert.throws(() => selectRef(data, { ...ref, offset: 0 }), DecodeError);
  assert.equal(selectRef(data, { ...ref, vertexStart: 1, offset: 0 }).length, 1);
});

Deno.test("a VMeshRef of 59 bytes is a DecodeError; 60 bytes decode", () => {
  const bytes = encodeVMeshRef({
    meshId: 1,
    vertexStart: 0,
    vertexCount: 3,
    indexStart: 0,
    indexCount: 3,
    groupStart: 0,
    groupCount: 1,
  });
  assert.equal(readVMeshRef(window(bytes)).groupCount, 1);
  assert.throws(() => readVMeshRef(window(bytes.subarray(0, 59))), DecodeError);
});
