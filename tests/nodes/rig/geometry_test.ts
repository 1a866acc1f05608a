/**
 * Gathering a panel's triangles: lists, strips and fans as glTF defines them, offset past earlier
 * primitives, and an index past the vertices a typed error; vertices and triangles that several
 * primitives share are gathered once.
 */
import assert, { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { Primitive } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError } from "../../../nodes/rig/geometry.ts";
import { gatherBonePositions } from "../../../nodes/rig/bone_geometry.ts";
import { aircraftMatrix, resolveFrame } from "../../../nodes/rig/frame.ts";
import { prng } from "../../support/prng.ts";
import { coarsePanel } from "./coarse_panels.ts";
import { IDENTITY, newScene } from "./fixtures.ts";
import { skinnedPanel } from "./skinned_panel.ts";

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

Deno.test("primitives sharing a vertex accessor gather its vertices once; the same index list again adds no triangles", () => {
  const doc = newScene();
  const position = doc.createAccessor().setType("VEC3").setArray(new Float32Array(15).map((_, i) => i));
  const listA = doc.createAccessor().setType("SCALAR").setArray(new Uint16Array([0, 1, 2]));
  const listB = doc.createAccessor().setType("SCALAR").setArray(new Uint16Array([2, 3, 4]));
  const delta = doc.createAccessor().setType("VEC3").setArray(new Float32Array(15).fill(1));
  const mesh = doc.createMesh("Shared");
  const add = (indices: typeof listA, morphed = false) => {
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setIndices(indices);
    if (morphed) primitive.addTarget(doc.createPrimitiveTarget().setAttribute("POSITION", delta));
    mesh.addPrimitive(primitive);
  };
  // 500 copies of one primitive (a 1 MB GLB so made gathered 500 × 65,535 vertices), another index
  // list over the same vertices, and one primitive whose morph moves them (its own vertices).
  for (let i = 0; i < 500; i++) add(listA);
  add(listB);
  add(listA, true);
  mesh.setWeights([0.5]);
  const node = doc.createNode("Shared").setMesh(mesh);
  doc.getRoot().getDefaultScene()!.addChild(node);
  const { positions, count, triangles } = gatherPositions(node, IDENTITY, { triangles: true });
  assertEquals(count, 10);
  assertEquals([...triangles!], [0, 1, 2, 2, 3, 4, 5, 6, 7]);
  assertEquals([...positions.subarray(15, 18)], [0.5, 1.5, 2.5]);
});

Deno.test("a skinned mesh's primitive repeated 300 times gathers for its bone what it gathered once", () => {
  const next = prng(7);
  const { doc, bone } = skinnedPanel(coarsePanel(next), next);
  const frame = aircraftMatrix(resolveFrame(doc, "-Z", "+Y"));
  const once = gatherBonePositions(doc, bone, frame, { triangles: true });
  const mesh = doc.getRoot().listMeshes().find((m) =>
    m.listPrimitives().some((p) => p.getAttribute("JOINTS_0"))
  )!;
  const primitive = mesh.listPrimitives()[0];
  // Clones draw the very same accessors (glTF-Transform shares them): 300 × the vertices before.
  for (let i = 0; i < 299; i++) mesh.addPrimitive(primitive.clone());
  const repeated = gatherBonePositions(doc, bone, frame, { triangles: true });
  assert.ok(once.count > 0);
  assertEquals(repeated.count, once.count);
  assertEquals(repeated.positions, once.positions);
  assertEquals(repeated.triangles, once.triangles);
});
