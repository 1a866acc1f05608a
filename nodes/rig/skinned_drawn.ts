/**
 * Which vertices of a skinned mesh are drawn: per vertex set (the accessors its primitives' skinned
 * vertices come from, {@link vertexKey}), the vertices a triangle with an area draws, judged once per
 * mesh ({@link skinDrawnWork} counts the judging); how many it leaves out ({@link undrawnSkinned}); and
 * a primitive's triangles renumbered to the vertices kept. `bone_geometry.ts` gathers a bone's
 * geometry and a skinned node's rest through these marks.
 *
 * @module
 */
import type { Accessor, Mesh, Primitive } from "@gltf-transform/core";
import { drawsArea } from "./drawn_vertices.ts";
import { IndexOutOfRangeError, primitiveTriangles } from "./geometry.ts";

/** A number per accessor (and 0 for none), for keys naming which accessors a primitive draws. */
const accessorIds = new WeakMap<Accessor, number>();
let lastAccessorId = 0;
export function idOf(accessor: Accessor | null): number {
  if (!accessor) return 0;
  const known = accessorIds.get(accessor);
  if (known !== undefined) return known;
  accessorIds.set(accessor, ++lastAccessorId);
  return lastAccessorId;
}

/** The accessors a primitive's skinned vertices come from: positions, influences and morph targets. */
export function vertexKey(primitive: Primitive): string {
  const semantics = primitive.listSemantics().filter((s) => /^(POSITION|JOINTS_\d+|WEIGHTS_\d+)$/.test(s));
  const own = semantics.sort().map((s) => `${s}=${idOf(primitive.getAttribute(s))}`);
  const targets = primitive.listTargets().map((t) => idOf(t.getAttribute("POSITION")));
  return `${own.join(",")};${targets.join(",")}`;
}

/**
 * The triangles of a primitive whose three vertices were kept (`kept[i]`: the vertex's index among
 * the kept ones, −1 if not kept), renumbered to the kept vertices and offset by `base`. A triangle
 * with a vertex on another bone is not this bone's surface: it stretches as the bones move apart.
 */
export function keptTriangles(
  primitive: Primitive,
  kept: Int32Array,
  base: number,
  meshName: string,
): Uint32Array {
  const all = primitiveTriangles(primitive, 0, kept.length, meshName);
  const out = new Uint32Array(all.length);
  let written = 0;
  for (let t = 0; t < all.length; t += 3) {
    const a = kept[all[t]], b = kept[all[t + 1]], c = kept[all[t + 2]];
    if (a < 0 || b < 0 || c < 0) continue;
    out[written++] = base + a;
    out[written++] = base + b;
    out[written++] = base + c;
  }
  return out.slice(0, written);
}

/**
 * How many of `mesh`'s vertices (over its primitives' distinct vertex sets) {@link gatherSkinnedRest}
 * leaves out: no triangle with an area draws them. From the judged marks, placing no vertex.
 */
export function undrawnSkinned(mesh: Mesh): number {
  const marks = drawnVertices(mesh);
  if (!marks) return 0;
  let undrawn = 0;
  for (const mark of marks.values()) for (let i = 0; i < mark.length; i++) undrawn += mark[i] ? 0 : 1;
  return undrawn;
}

/** How many times a skinned mesh's drawn vertices were judged ({@link drawnVertices}): work a test may count. */
export const skinDrawnWork = { judged: 0 };

/** A mesh's judged vertices, and the arrays they were judged from (a changed array judges anew). */
const DRAWN_VERTICES = new WeakMap<Mesh, { from: unknown[]; marks: Map<string, Uint8Array> | undefined }>();

/**
 * Per vertex set of `mesh` (its primitives' {@link vertexKey}), which vertices a triangle with an
 * area ({@link drawsArea}, in the mesh's own space) of any of its primitives draws; undefined — every
 * vertex kept — where the mesh draws no area at all (points, lines), a position is not finite or an
 * index points past its vertices (their own checks name those, as drawn_vertices.ts leaves them).
 * Real skinned files carry weighted vertices nothing draws: Blender's Delete › Only Faces and Only
 * Edges & Faces leave a deleted face's corners with their vertex-group weights, which its glTF
 * exporter writes (Loose Points, Loose Edges) as a primitive of points or lines with JOINTS_0 and
 * WEIGHTS_0; a rip keeps them in the vertex list, and shares one skinned buffer across meshes. A set
 * no area draws (the points' own) is all left out. Judged once per mesh while its arrays stay.
 */
export function drawnVertices(mesh: Mesh): Map<string, Uint8Array> | undefined {
  const primitives = mesh.listPrimitives();
  const from = primitives.flatMap((p) => [
    p.getAttribute("POSITION")?.getArray(),
    p.getIndices()?.getArray(),
    p.getMode(),
  ]);
  const known = DRAWN_VERTICES.get(mesh);
  if (known && known.from.length === from.length && known.from.every((a, i) => a === from[i])) {
    return known.marks;
  }
  skinDrawnWork.judged++;
  const marks = judgeDrawn(primitives, mesh.getName());
  DRAWN_VERTICES.set(mesh, { from, marks });
  return marks;
}

/** {@link drawnVertices}, judged. */
function judgeDrawn(primitives: Primitive[], meshName: string): Map<string, Uint8Array> | undefined {
  const marks = new Map<string, Uint8Array>();
  const read = new Map<string, Float64Array>();
  let any = false;
  for (const primitive of primitives) {
    const position = primitive.getAttribute("POSITION");
    if (!position || position.getType() !== "VEC3") continue;
    const vertices = vertexKey(primitive), count = position.getCount();
    let p = read.get(vertices);
    if (!p) {
      p = new Float64Array(count * 3);
      const element = [0, 0, 0];
      for (let i = 0; i < count; i++) p.set(position.getElement(i, element), i * 3);
      for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return undefined;
      read.set(vertices, p);
      marks.set(vertices, new Uint8Array(count));
    }
    let triangles: Uint32Array;
    try {
      triangles = primitiveTriangles(primitive, 0, count, meshName);
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      return undefined;
    }
    const mark = marks.get(vertices)!;
    for (let t = 0; t + 2 < triangles.length; t += 3) {
      const a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
      if (!drawsArea(p, a, b, c)) continue;
      mark[a] = mark[b] = mark[c] = 1;
      any = true;
    }
  }
  if (!any) return undefined;
  // Where every vertex is drawn the gathering is as it was: no marks to look at.
  for (const [vertices, mark] of marks) if (mark.every((m) => m === 1)) marks.delete(vertices);
  return marks;
}
