/**
 * A mesh's box (`mesh_bounds.ts`: a primitive's bounds over what its triangles draw) is computed once
 * per run of the rig, not once per rig node and per reader: the copies, the hangar layout, the mirror
 * strays, the debris and the side assignment each built a cache of their own, so a hangar's every
 * primitive was boxed five or more times. The boxes are memoised on the vertex data (its arrays are
 * never written once a scene holds them: `runtime/scene/copy.ts`), so a rig node's copy of the scene
 * reuses them, and a mesh given new vertices (a split, a clip) is boxed anew.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { boundsWork, meshBounds } from "../../../nodes/rig/mesh_bounds.ts";
import { IDENTITY } from "../../../nodes/rig/transform.ts";
import { rig } from "./pipeline.ts";
import { HANGAR_LAYOUTS, HANGAR_NAMINGS, hangarSample } from "./hangar_scenes.ts";
import { oneVertexBuffer } from "./one_buffer.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";

/** The distinct primitives drawing triangles from vertex data of their own, in a scene. */
function boxable(doc: ReturnType<typeof hangarSample>["doc"]): number {
  return doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives())
    .filter((p) => [4, 5, 6].includes(p.getMode()) && p.getAttribute("POSITION")).length;
}

Deno.test("a hangar's primitives are boxed at most once each per rig run", async () => {
  const over: string[] = [];
  // Seeds of no other hangar test; every layout, two namings, with and without one vertex buffer.
  for (const [l, layout] of HANGAR_LAYOUTS.entries()) {
    for (const shared of [false, true]) {
      const naming = HANGAR_NAMINGS[(2 * l + (shared ? 1 : 0)) % HANGAR_NAMINGS.length];
      const sample = hangarSample(3700 + l, naming, layout);
      if (shared) oneVertexBuffer(sample.doc);
      const primitives = boxable(sample.doc);
      const before = boundsWork.computed;
      await rig(sample.doc);
      const computed = boundsWork.computed - before;
      // Pivots inserted and surfaces split or cut give new primitives; none is boxed twice.
      if (computed > primitives) {
        over.push(`${layout} ${naming} shared=${shared}: ${computed} of ${primitives}`);
      }
    }
  }
  assertEquals(over, []);
});

Deno.test("a mesh given new vertices is boxed anew, not from the old box", () => {
  const sample = hangarSample(3710, HANGAR_NAMINGS[0], HANGAR_LAYOUTS[0]);
  const node = sample.doc.getRoot().listNodes().find((n) => n.getMesh())!;
  const first = meshBounds([node], IDENTITY)!;
  const position = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  // A node that moves vertices gives the accessor a new array (the scene's arrays are never written).
  position.setArray(Float32Array.from(position.getArray()!, (v) => 2 * v));
  const second = meshBounds([node], IDENTITY)!;
  for (let k = 0; k < 3; k++) {
    assertEquals(Math.abs(second.max[k] - second.min[k] - 2 * (first.max[k] - first.min[k])) < 1e-4, true);
  }
});

Deno.test("a rig node's copy of the scene (sharing its vertex data) reuses the boxes; a full copy reads its own", () => {
  const sample = hangarSample(3711, HANGAR_NAMINGS[1], HANGAR_LAYOUTS[1]);
  const nodes = (doc: typeof sample.doc) => doc.getRoot().listNodes().filter((n) => n.getMesh());
  const first = nodes(sample.doc).map((n) => meshBounds([n], IDENTITY));
  const start = boundsWork.computed;
  // As `sceneToChange` hands a node that does not own its input: new primitives over the same arrays.
  const shared = copyScene(sample.doc, { shareData: true });
  assertEquals(nodes(shared).map((n) => meshBounds([n], IDENTITY)), first);
  assertEquals(boundsWork.computed - start, 0);
  // A full copy holds arrays of its own (a node that writes vertices works on one): read anew, the same.
  const full = copyScene(sample.doc);
  assertEquals(nodes(full).map((n) => meshBounds([n], IDENTITY)), first);
  assertEquals(boundsWork.computed - start, boxable(sample.doc));
});
