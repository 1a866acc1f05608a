/**
 * The DSON meshes of a decoded scene as `dson.apply_preset`'s projection reads them
 * (`preset_project.ts`): each mesh's DSON geometry rebuilt from its primitives (`_DSON_VERTEX` maps
 * glTF vertices to DSON ones; triangles as the decoder split the quads; float32 metres back to cm),
 * a morph target's deltas, and the decoder's nearest-surface search (`nearest_surface.ts`) between
 * them, kept in memory per arrays for a later preset on the same scene.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { DSON_VERTEX_ATTRIBUTE } from "./build_primitive.ts";
import { METRES_PER_CM } from "./model.ts";
import { type BodySurface, nearestSurface, type SurfaceHits } from "./nearest_surface.ts";
import { unpackIndices } from "./packed_ints.ts";

/** A morph record of `extras.partgraph.dson.morphs`, as far as it is read here. */
export interface MorphRecord {
  id?: unknown;
  name?: unknown;
  label?: unknown;
  auto_follow?: unknown;
  /** A merged graft's morph: the merged grafts it came with (decode.dson v31). */
  grafts?: unknown;
}

/** A DSON mesh of the scene: its figure, DSON vertex count and geometry rebuilt from its primitives. */
export interface DrawnMesh {
  readonly mesh: Mesh;
  readonly figure: Node;
  readonly vertexCount: number;
  /** The glTF vertices' DSON vertex, per primitive. */
  readonly dsonVertex: readonly number[][];
  surface?: BodySurface;
}

/**
 * Searches made for earlier presets, by the first position array of the item: each with every
 * array it was made from (the body's positions, vertex map and indices, the item's positions and
 * vertex map). Arrays are never written in place (`runtime/scene/copy.ts`), and copies of a scene
 * share them, so the same arrays give the same search: a second preset on a decoded scene (trying
 * shapes) reuses it, and the result is what searching again gives. Weak: dropped with the scene.
 */
const searches = new WeakMap<object, { arrays: readonly object[]; hits: SurfaceHits | undefined }[]>();

/** The arrays a search for `m` reads. */
function arraysOf(m: DrawnMesh): object[] {
  return m.mesh.listPrimitives().flatMap((primitive) =>
    ["POSITION", DSON_VERTEX_ATTRIBUTE].map((name) => primitive.getAttribute(name)!.getArray()!)
      .concat(primitive.getIndices()?.getArray() ?? [])
  );
}

/**
 * The nearest body surface of each of `item`'s vertices (`nearest_surface.ts`), searched once per
 * arrays. `graft`: `body` is a mesh with merged grafts, searched from its body's own surface onto
 * the grafts' own vertices ({@link graftSearch}).
 */
export function search(body: DrawnMesh, item: DrawnMesh, graft?: GraftBody): SurfaceHits | undefined {
  const arrays = [...arraysOf(body), ...arraysOf(item)];
  const key = arraysOf(item)[0];
  const list = searches.get(key) ?? [];
  const found = list.find((e) =>
    e.arrays.length === arrays.length && e.arrays.every((a, i) => a === arrays[i])
  );
  if (found) return found.hits;
  let hits: SurfaceHits | undefined;
  if (graft) hits = graftSearch(body, graft);
  else {
    body.surface ??= surfaceOf(body);
    hits = nearestSurface(body.surface, positionsOf(item));
  }
  searches.set(key, [...list, { arrays, hits }]);
  return hits;
}

/** A merged graft's body as decode.dson records it (`graft_body`). */
export interface GraftBody {
  readonly vertexCount: number;
  readonly hiddenPolyVerts: Int32Array;
  /** Where each merged graft's own vertices end (decode.dson v31; absent before). */
  readonly graftEnds?: readonly number[];
  /** How many leading triangles of each primitive are the body's (v31; absent before). */
  readonly bodyTriangles?: readonly number[];
}

/**
 * The `graft_body` record of a mesh with merged grafts; undefined when absent or malformed. Its
 * hidden polygons are packed since decode.dson v31 (`hidden_poly_verts_packed`), a JSON list before.
 */
export function graftBodyOf(m: DrawnMesh): GraftBody | undefined {
  const record = (getPartgraphExtras(m.mesh).dson as {
    graft_body?: {
      vertex_count?: unknown;
      hidden_poly_verts?: unknown;
      hidden_poly_verts_packed?: unknown;
      graft_ends?: unknown;
      body_triangles?: unknown;
    };
  })
    ?.graft_body;
  const count = record?.vertex_count, packed = record?.hidden_poly_verts_packed;
  if (typeof count !== "number" || !Number.isInteger(count) || count <= 0 || count > m.vertexCount) {
    return undefined;
  }
  const list = record?.hidden_poly_verts;
  const hidden = typeof packed === "string"
    ? unpackIndices(packed)
    : Array.isArray(list) && list.every(Number.isInteger)
    ? Int32Array.from(list as number[])
    : undefined;
  if (!hidden || hidden.length % 4 !== 0 || !hidden.every((v) => v >= -1 && v < count)) return undefined;
  const ends = record?.graft_ends;
  const graftEnds = Array.isArray(ends) &&
      ends.every((e, k) => Number.isInteger(e) && e >= (k ? ends[k - 1] : count) && e <= m.vertexCount)
    ? ends as number[]
    : undefined;
  const tris = record?.body_triangles;
  const bodyTriangles = Array.isArray(tris) && tris.length === m.mesh.listPrimitives().length &&
      tris.every((n) => Number.isInteger(n) && n >= 0)
    ? tris as number[]
    : undefined;
  return {
    vertexCount: count,
    hiddenPolyVerts: hidden,
    ...(graftEnds ? { graftEnds } : {}),
    ...(bodyTriangles ? { bodyTriangles } : {}),
  };
}

/**
 * The body's surface (its drawn triangles whose corners are all its own, and the polygons the
 * grafts hide, as the decode projected from the body before merging) nearest each of the grafts'
 * own vertices (those from `graft.vertexCount` on), as the decode projects onto a graft.
 */
function graftSearch(m: DrawnMesh, graft: GraftBody): SurfaceHits | undefined {
  const all = surfaceOf(m);
  const polys: number[] = [];
  // The body's triangles lead each primitive (v31); before, told by their corners, which took a
  // graft's triangle between welded vertices for the body's.
  const body = graft.bodyTriangles;
  const lead = new Uint8Array(all.polyCount);
  for (let p = 0, f = 0; p < m.mesh.listPrimitives().length; p++) {
    const count = (m.mesh.listPrimitives()[p].getIndices()?.getCount() ?? 0) / 3;
    for (let t = 0; t < count; t++, f++) lead[f] = body ? (t < body[p] ? 1 : 0) : 1;
  }
  for (let f = 0; f < all.polyCount; f++) {
    const corners = all.polyVerts.subarray(f * 4, f * 4 + 3);
    if (lead[f] && corners.every((v) => v < graft.vertexCount)) polys.push(...corners, -1);
  }
  polys.push(...graft.hiddenPolyVerts);
  return nearestSurface(
    {
      positions: all.positions,
      vertexCount: graft.vertexCount,
      polyVerts: Int32Array.from(polys),
      polyCount: polys.length / 4,
    },
    all.positions.subarray(graft.vertexCount * 3),
  );
}

/** The figure node a node belongs to: the nearest of it and its ancestors whose DSON type is `figure`. */
export function figureOf(node: Node | null): Node | undefined {
  for (let n = node; n; n = n.getParentNode()) {
    if ((getPartgraphExtras(n).dson as { type?: unknown } | undefined)?.type === "figure") return n;
  }
  return undefined;
}

/** The scene's DSON meshes whose every primitive maps its vertices to DSON ones, with their figure. */
export function sceneMeshes(doc: Document): DrawnMesh[] {
  const out: DrawnMesh[] = [];
  const seen = new Set<Mesh>();
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh || seen.has(mesh)) continue;
    seen.add(mesh);
    const dson = getPartgraphExtras(mesh).dson as { vertex_count?: unknown; morphs?: unknown } | undefined;
    const vertexCount = dson?.vertex_count;
    if (typeof vertexCount !== "number" || !Number.isInteger(vertexCount) || vertexCount < 0) continue;
    // A skinned mesh sits at the scene root: it belongs to the figure of its joints.
    const figure = figureOf(node.getSkin()?.listJoints()[0] ?? node.getParentNode());
    if (!figure) continue;
    const dsonVertex: number[][] = [];
    for (const primitive of mesh.listPrimitives()) {
      const map = primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)?.getArray();
      const position = primitive.getAttribute("POSITION")?.getArray();
      if (!map || !position || position.length !== map.length * 3) break;
      const list = Array.from(map, Math.round);
      if (!list.every((v) => v >= 0 && v < vertexCount)) break;
      dsonVertex.push(list);
    }
    if (dsonVertex.length !== mesh.listPrimitives().length) continue;
    out.push({ mesh, figure, vertexCount, dsonVertex });
  }
  return out;
}

/** The mesh's DSON vertex positions (cm), flat xyz, from its primitives (rest, as decoded). */
export function positionsOf(m: DrawnMesh): Float64Array {
  const out = new Float64Array(m.vertexCount * 3);
  m.mesh.listPrimitives().forEach((primitive, p) => {
    const position = primitive.getAttribute("POSITION")!.getArray()!;
    m.dsonVertex[p].forEach((v, i) => {
      for (let c = 0; c < 3; c++) out[v * 3 + c] = position[i * 3 + c] / METRES_PER_CM;
    });
  });
  return out;
}

/** The mesh's surface as the decoder's search takes it: its drawn triangles, in DSON vertices. */
export function surfaceOf(m: DrawnMesh): BodySurface {
  const polys: number[] = [];
  m.mesh.listPrimitives().forEach((primitive, p) => {
    const indices = primitive.getIndices()?.getArray();
    if (!indices) return;
    for (let t = 0; t + 2 < indices.length; t += 3) {
      polys.push(
        m.dsonVertex[p][indices[t]],
        m.dsonVertex[p][indices[t + 1]],
        m.dsonVertex[p][indices[t + 2]],
        -1,
      );
    }
  });
  return {
    positions: positionsOf(m),
    vertexCount: m.vertexCount,
    polyVerts: Int32Array.from(polys),
    polyCount: polys.length / 4,
  };
}

/** Morph target `k` of the mesh as DSON deltas (cm) of every vertex. */
export function targetDeltas(m: DrawnMesh, k: number): { index: Int32Array; delta: Float64Array } {
  const delta = new Float64Array(m.vertexCount * 3);
  m.mesh.listPrimitives().forEach((primitive, p) => {
    const target = primitive.listTargets()[k]?.getAttribute("POSITION");
    if (!target) return;
    const element = [0, 0, 0];
    m.dsonVertex[p].forEach((v, i) => {
      target.getElement(i, element); // sparse accessors read through getElement
      for (let c = 0; c < 3; c++) delta[v * 3 + c] = element[c] / METRES_PER_CM;
    });
  });
  return { index: Int32Array.from({ length: m.vertexCount }, (_, v) => v), delta };
}
