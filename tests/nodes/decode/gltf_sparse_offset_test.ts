/**
 * A sparse accessor's `indices` and `values` without a `byteOffset` start at their views' first byte,
 * whatever the accessor's own `byteOffset` (glTF 2.0, 3.6.2.3). glTF-Transform reads each part through
 * `{...accessor, ...part}`, so the accessor's offset leaked into parts that give none: found by the
 * structure sweep (sparse.glb, `/accessors/0/byteOffset = 1`: a RangeError).
 */
import assert from "node:assert/strict";
import type { Mesh } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode } from "../../support/context.ts";
import { embeddedView, messyGlb, type MessyJson, wingPrimitive } from "../../support/messy_gltf.ts";

/** The wing's positions, 12 bytes into their view, with vertex 3 moved by a sparse substitution. */
function offsetSparse(json: MessyJson): void {
  const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
  const accessor = json.accessors[wingPrimitive(json).attributes.POSITION];
  accessor.bufferView = embeddedView(json, new Float32Array([9, 9, 9, ...positions]));
  accessor.byteOffset = 12;
  accessor.sparse = {
    count: 1,
    indices: { bufferView: embeddedView(json, new Uint16Array([3, 0])), componentType: 5123 },
    values: { bufferView: embeddedView(json, new Float32Array([1, 1, 0.5])) },
  };
  accessor.max = [1, 1, 0.5];
}

Deno.test("a sparse accessor at a byteOffset reads its indices and values from their own views' starts", async () => {
  const bytes = await messyGlb(offsetSparse);
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "sparse.glb" } });
  const wing = scene.getRoot().listMeshes().find((m: Mesh) => m.getName() === "wing")!;
  const position = wing.listPrimitives()[0].getAttribute("POSITION")!;
  assert.deepEqual([...position.getArray()!], [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5]);
});
