/**
 * Gathering a panel's triangles: lists, strips and fans as glTF defines them, offset past earlier
 * primitives, and an index past the vertices a typed error.
 */
import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { Primitive } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError } from "../../../nodes/rig/geometry.ts";
import { IDENTITY, newScene } from "./fixtures.ts";

const { TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN } = Primitive.Mode;

/** A node with one primitive per (mode, indices) pair, five vertices each. */
function panel(primitives: { mode: typeof TRIANGLES; indices?: number[] }[]) {
  const doc = newScene();
  const mesh = doc.createMesh("Panel");
  for (const { mode, indices } of primitives) {
    const position = doc.createAccessor().setType("VEC3").setArray(new Float32Array(15).map((_, i) => i));
    const primitive = doc.createPrimitive().setMode(mode).setAttribute("POSITION", position);
    if (indices) {
      primitive.setIndices(doc.createAccessor().setType("SCALAR").setArray(new Uint16Array(indices)));
    }
    mesh.addPrimitive(primitive);
  }
  const node = doc.createNode("Panel").setMesh(mesh);
  doc.getRoot().getDefaultScene()!.addChild(node);
  return node;
}

/**
 * The triangles glTF 2.0 (3.7.2.1) defines for the vertex order in each mode; a strip's every other
 * triangle is listed unflipped (the fit never reads winding).
 */
function expected(mode: number, order: number[]): number[] {
  if (mode === TRIANGLES) return order.slice(0, order.length - (order.length % 3));
  const out: number[] = [];
  for (let i = 2; i < order.length; i++) {
    out.push(mode === TRIANGLE_FAN ? order[0] : order[i - 2], order[i - 1], order[i]);
  }
  return out;
}

Deno.test("triangle lists, strips and fans, indexed or not, are gathered as glTF defines them", () => {
  const order = [4, 0, 3, 1, 2];
  for (const mode of [TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN]) {
    for (const indices of [undefined, order]) {
      // A list before it: its five vertices come first, so this primitive's indices are offset by 5.
      const node = panel([{ mode: TRIANGLES, indices: [0, 1, 2] }, { mode, indices }]);
      const { triangles, count } = gatherPositions(node, IDENTITY, { triangles: true });
      assertEquals(count, 10);
      const own = expected(mode, indices ?? [0, 1, 2, 3, 4]).map((i) => i + 5);
      assertEquals(
        [...triangles!],
        [0, 1, 2, ...own],
        `mode ${mode}, ${indices ? "indexed" : "not indexed"}`,
      );
    }
  }
});

Deno.test("an index past the primitive's vertices is a typed error naming the mesh", () => {
  for (const mode of [TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN]) {
    const node = panel([{ mode, indices: [0, 1, 5] }]);
    assertThrows(
      () => gatherPositions(node, IDENTITY, { triangles: true }),
      (error: Error) => error instanceof IndexOutOfRangeError && error.message.includes("'Panel'"),
    );
  }
});
