/**
 * Modellers' and rippers' leftovers given to every part of any generated scene, so the rig's readers
 * of a part's vertices (spinner finders, tab riding, split pieces, linkages, hinge hardware, the body
 * it sits on) can be measured on them. Each habit leaves what every part draws where it was, so the
 * scene's truths hold unchanged; only vertices no triangle with an area draws are added:
 *
 * - `shared_buffer`: every mesh drawn out of one vertex buffer, each primitive indexing its own range
 *   (a game rip's one buffer for the whole aircraft, `one_buffer.ts`).
 * - `origin_vertex`: a loose vertex at the scene's origin in every primitive's vertex list, drawn by
 *   no triangle (a deleted face's corner an exporter kept).
 * - `collapsed_origin`: a triangle collapsed onto the scene's origin in every primitive (all three
 *   corners there: a face an exporter welded to nothing).
 * - `leftovers`: two to six loose vertices within the part's own size of it in every primitive
 *   (faces deleted, their corners kept), one to three of them on its box's far corners.
 * - `loose_edges`: guide edges kept beside every mesh's triangles, exported as a primitive of lines
 *   (Blender's loose edges): one along the part's longest extent run out half its length past both
 *   ends, one from its middle to the scene's origin.
 *
 * Deterministic from a seed.
 *
 * @module
 */
import type { Accessor, Document, Mesh, Node, Primitive } from "@gltf-transform/core";
import { invertAffine, type Mat4, transformPoint, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { oneVertexBuffer } from "./one_buffer.ts";

/** The habits, cycled by callers. */
export const UNDRAWN_HABITS = [
  "shared_buffer",
  "origin_vertex",
  "collapsed_origin",
  "leftovers",
  "loose_edges",
] as const;

/** One habit, or `clean` (the scene as generated). */
export type UndrawnHabit = (typeof UNDRAWN_HABITS)[number] | "clean";

/**
 * Gives `doc`'s every mesh `habit` (see the module doc); what each part draws is unchanged. A mesh
 * drawn by several nodes takes it once, placed by the first node drawing it.
 */
export function giveUndrawn(doc: Document, habit: UndrawnHabit, seed: number): void {
  if (habit === "clean") return;
  if (habit === "shared_buffer") return oneVertexBuffer(doc);
  const next = prng(seed * 4099 + 17);
  const firstNode = new Map<Mesh, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (mesh && !firstNode.has(mesh)) firstNode.set(mesh, node);
  }
  for (const [mesh, node] of firstNode) {
    const toLocal = invertAffine(node.getWorldMatrix() as unknown as Mat4);
    const origin = transformPoint(toLocal, [0, 0, 0]);
    for (const primitive of mesh.listPrimitives()) {
      if (![4, 5, 6].includes(primitive.getMode()) || !primitive.getAttribute("POSITION")) continue;
      if (habit === "origin_vertex") appendVertices(doc, primitive, [origin], []);
      if (habit === "collapsed_origin") appendVertices(doc, primitive, [origin, origin, origin], [0, 1, 2]);
      if (habit === "leftovers") {
        const { min, max } = boxOf(primitive);
        const size = Math.max(...max.map((m, k) => m - min[k]));
        const n = 2 + Math.floor(5 * next()), corners = 1 + Math.floor(3 * next());
        const loose: Vec3[] = [];
        for (let i = 0; i < n; i++) {
          loose.push(
            i < corners
              // A far corner of its box pushed out: a deleted flange's tip.
              ? [0, 1, 2].map((k) => (next() < 0.5 ? min[k] : max[k]) + (next() - 0.5) * 0.3 * size) as Vec3
              : [0, 1, 2].map((k) => (min[k] + max[k]) / 2 + (2 * next() - 1) * size) as Vec3,
          );
        }
        appendVertices(doc, primitive, loose, []);
      }
    }
    if (habit === "loose_edges") addGuideEdges(doc, mesh, origin);
  }
}

/** A primitive's positions' box in its mesh's space. */
function boxOf(primitive: Primitive): { min: Vec3; max: Vec3 } {
  const p = primitive.getAttribute("POSITION")!, element: number[] = [];
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.getCount(); i++) {
    p.getElement(i, element);
    for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], element[k]), max[k] = Math.max(max[k], element[k]);
  }
  return { min, max };
}

/**
 * Appends `points` to every attribute of `primitive` (positions; zeros, or an up normal, for the rest,
 * morph targets included) and `corners` (indices among `points`) to its triangles; indices are made
 * for a primitive drawn without them, so the loose points are drawn by nothing.
 */
function appendVertices(doc: Document, primitive: Primitive, points: Vec3[], corners: number[]): void {
  const position = primitive.getAttribute("POSITION")!, count = position.getCount();
  const indices = primitive.getIndices();
  const old = indices?.getArray() ?? Uint32Array.from({ length: count }, (_, i) => i);
  const grow = (accessor: Accessor, fill: (i: number) => number[]) => {
    const size = accessor.getElementSize(), held = accessor.getArray()!;
    const out = new (held.constructor as Float32ArrayConstructor)(held.length + size * points.length);
    out.set(held);
    points.forEach((_, i) => out.set(fill(i).slice(0, size), held.length + size * i));
    // A new array, as a tool writing the file would make: the scene's arrays are never written.
    accessor.setArray(out);
  };
  grow(position, (i) => points[i]);
  for (const semantic of primitive.listSemantics()) {
    if (semantic === "POSITION") continue;
    grow(primitive.getAttribute(semantic)!, () => semantic === "NORMAL" ? [0, 1, 0] : [0, 0, 0, 0]);
  }
  for (const target of primitive.listTargets()) {
    for (const semantic of target.listSemantics()) grow(target.getAttribute(semantic)!, () => [0, 0, 0, 0]);
  }
  const list = new Uint32Array(old.length + corners.length);
  list.set(old);
  corners.forEach((c, i) => list[old.length + i] = count + c);
  if (indices) indices.setArray(list);
  else {
    primitive.setIndices(
      doc.createAccessor().setType("SCALAR").setBuffer(position.getBuffer()).setArray(list),
    );
  }
}

/**
 * A primitive of lines beside `mesh`'s triangles: its longest extent run out half its length past
 * both ends, and an edge from its middle to `origin` (the scene's origin in the mesh's space).
 */
function addGuideEdges(doc: Document, mesh: Mesh, origin: Vec3): void {
  const boxes = mesh.listPrimitives().filter((p) =>
    [4, 5, 6].includes(p.getMode()) && p.getAttribute("POSITION")
  )
    .map(boxOf);
  if (!boxes.length) return;
  const min = [0, 1, 2].map((k) => Math.min(...boxes.map((b) => b.min[k])));
  const max = [0, 1, 2].map((k) => Math.max(...boxes.map((b) => b.max[k])));
  const middle = min.map((m, k) => (m + max[k]) / 2);
  const long = [0, 1, 2].reduce((a, k) => max[k] - min[k] > max[a] - min[a] ? k : a, 0);
  const end = (f: number) => middle.map((m, k) => k === long ? m + f * (max[k] - min[k]) : m);
  const positions = [...end(-1), ...end(1), ...middle, ...origin];
  const buffer = mesh.listPrimitives()[0].getAttribute("POSITION")!.getBuffer();
  mesh.addPrimitive(
    doc.createPrimitive().setMode(1)
      .setAttribute(
        "POSITION",
        doc.createAccessor(`${mesh.getName()}.edges`).setBuffer(buffer).setType("VEC3")
          .setArray(new Float32Array(positions)),
      )
      .setIndices(
        doc.createAccessor(`${mesh.getName()}.edge_indices`).setBuffer(buffer).setType("SCALAR")
          .setArray(new Uint32Array([0, 1, 2, 3])),
      ),
  );
}

/**
 * `doc` written again by an exporter that keeps only what faces use (Blender's glTF exporter: the
 * vertices its faces index, each object's own, and no loose edges by default): every triangle
 * primitive's attributes (morph targets' too) cut down to the vertices its triangles index, in their
 * order, into accessors of its own; primitives of lines or points beside triangles dropped. What each
 * primitive draws is unchanged; a collapsed triangle's corners are indexed, so they stay.
 */
export function writtenAgain(doc: Document): void {
  for (const mesh of doc.getRoot().listMeshes()) {
    const surface = mesh.listPrimitives().some((p) => [4, 5, 6].includes(p.getMode()));
    for (const primitive of mesh.listPrimitives()) {
      if (![4, 5, 6].includes(primitive.getMode())) {
        if (surface) mesh.removePrimitive(primitive);
        continue;
      }
      const position = primitive.getAttribute("POSITION");
      if (!position) continue;
      const count = position.getCount();
      const old = primitive.getIndices()?.getArray() ?? Uint32Array.from({ length: count }, (_, i) => i);
      const index = new Int32Array(count).fill(-1), kept: number[] = [];
      for (const i of old) if (index[i] < 0) index[i] = kept.length, kept.push(i);
      if (kept.length === count && primitive.getIndices()) continue;
      kept.sort((a, b) => a - b);
      kept.forEach((v, i) => index[v] = i);
      const cut = (accessor: Accessor): Accessor => {
        const size = accessor.getElementSize(), held = accessor.getArray()!;
        const out = new (held.constructor as Float32ArrayConstructor)(kept.length * size);
        kept.forEach((v, i) => out.set(held.subarray(v * size, v * size + size), i * size));
        return doc.createAccessor(accessor.getName()).setType(accessor.getType())
          .setNormalized(accessor.getNormalized()).setBuffer(accessor.getBuffer()).setArray(out);
      };
      for (const semantic of primitive.listSemantics()) {
        primitive.setAttribute(semantic, cut(primitive.getAttribute(semantic)!));
      }
      for (const target of primitive.listTargets()) {
        for (const semantic of target.listSemantics()) {
          target.setAttribute(semantic, cut(target.getAttribute(semantic)!));
        }
      }
      primitive.setIndices(
        doc.createAccessor().setType("SCALAR").setBuffer(position.getBuffer())
          .setArray(Uint32Array.from(old, (i) => index[i])),
      );
    }
  }
}
