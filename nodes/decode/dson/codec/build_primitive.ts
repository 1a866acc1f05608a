/**
 * One glTF primitive per surface of a {@link SceneMesh}. DSON polygons index positions and UVs
 * separately, glTF vertices carry both: a glTF vertex is made per unique (vertex, UV) pair of the
 * surface's corners, quads become two triangles, UV v is flipped, and skin slots, rigidity weights
 * and morph deltas follow their DSON vertex.
 *
 * @module
 */
import type { Primitive } from "@gltf-transform/core";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { METRES_PER_CM, type Morph, type SceneMesh } from "./model.ts";
import { INFLUENCES } from "./skin.ts";

/** Vertex attribute holding each glTF vertex's DSON vertex index. */
export const DSON_VERTEX_ATTRIBUTE = "_DSON_VERTEX";
/** Vertex attribute holding the rigidity weight map. */
export const RIGIDITY_ATTRIBUTE = "_RIGIDITY";

/**
 * One primitive of the polygons on surface `surface`, or undefined when it has none. `jointSlot`
 * maps a scene node to its joint index in the mesh's skin.
 *
 * @example
 * ```ts
 * const primitive = buildPrimitive(new SceneAccessors(doc, doc.createBuffer()), mesh, 0, undefined);
 * ```
 */
export function buildPrimitive(
  accessors: SceneAccessors,
  mesh: SceneMesh,
  surface: number,
  jointSlot: Int32Array | undefined,
): Primitive | undefined {
  const { uv } = mesh;
  const { dsonVertex, uvIndex, indices } = splitCorners(mesh, surface);
  if (indices.length === 0) return undefined;
  const n = dsonVertex.length;
  const { doc } = accessors;
  const accessor = accessors.create.bind(accessors);
  const positions = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) positions[i * 3 + k] = mesh.positions[dsonVertex[i] * 3 + k] * METRES_PER_CM;
  }
  const primitive = doc.createPrimitive()
    .setIndices(accessor("SCALAR", n < 65536 ? Uint16Array.from(indices) : Uint32Array.from(indices)))
    .setAttribute("POSITION", accessor("VEC3", positions))
    .setAttribute(DSON_VERTEX_ATTRIBUTE, accessor("SCALAR", Float32Array.from(dsonVertex)));
  if (uv) {
    const texcoords = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      texcoords[i * 2] = uv.coords[uvIndex[i] * 2];
      texcoords[i * 2 + 1] = 1 - uv.coords[uvIndex[i] * 2 + 1];
    }
    primitive.setAttribute("TEXCOORD_0", accessor("VEC2", texcoords));
  }
  if (mesh.skin && jointSlot) {
    const { joints, weights } = skinAttributes(mesh.skin, dsonVertex, jointSlot);
    primitive.setAttribute("JOINTS_0", accessor("VEC4", joints));
    primitive.setAttribute("WEIGHTS_0", accessor("VEC4", weights));
  }
  if (mesh.rigidity?.weights) {
    const weights = mesh.rigidity.weights;
    primitive.setAttribute(
      RIGIDITY_ATTRIBUTE,
      accessor("SCALAR", Float32Array.from(dsonVertex, (v) => weights[v])),
    );
  }
  for (const morph of mesh.morphs) {
    const { deltas, moved } = morphDeltas(morph, dsonVertex, mesh.vertexCount);
    const target = doc.createPrimitiveTarget(morph.name)
      .setAttribute("POSITION", accessor("VEC3", deltas).setSparse(moved * 3 < n));
    primitive.addTarget(target);
  }
  return primitive;
}

/**
 * The glTF vertices of a surface's corners (the DSON vertex and UV index of each) and its triangle
 * indices into them.
 */
function splitCorners(
  mesh: SceneMesh,
  surface: number,
): { dsonVertex: number[]; uvIndex: number[]; indices: number[] } {
  const { polyVerts, polyMaterial, uv } = mesh;
  const uvCount = uv ? uv.coords.length / 2 : 0;
  // Most corners use their vertex's own UV (uv index = vertex index): those go through a flat
  // table; only seam corners need the (vertex, uv) map.
  const plainVertexOf = new Int32Array(mesh.vertexCount).fill(-1);
  const seamVertexOf = new Map<number, number>();
  const dsonVertex: number[] = [];
  const uvIndex: number[] = [];
  const indices: number[] = [];
  const corner = (p: number, k: number): number => {
    const v = polyVerts[p * 4 + k];
    const t = uv ? uv.cornerUv[p * 4 + k] : v;
    if (t === v) {
      if (plainVertexOf[v] < 0) {
        plainVertexOf[v] = dsonVertex.push(v) - 1;
        uvIndex.push(t);
      }
      return plainVertexOf[v];
    }
    const key = v * uvCount + t;
    let index = seamVertexOf.get(key);
    if (index === undefined) {
      index = dsonVertex.push(v) - 1;
      uvIndex.push(t);
      seamVertexOf.set(key, index);
    }
    return index;
  };
  for (let p = 0; p < mesh.polyCount; p++) {
    if (polyMaterial[p] !== surface) continue;
    const a = corner(p, 0), b = corner(p, 1), c = corner(p, 2);
    indices.push(a, b, c);
    if (polyVerts[p * 4 + 3] >= 0) indices.push(a, c, corner(p, 3));
  }
  if (mesh.graftBody && mesh.polyCount && surface === polyMaterial[0]) {
    for (const v of hiddenOnly(mesh)) {
      dsonVertex.push(v);
      uvIndex.push(Math.max(0, Math.min(v, uvCount - 1)));
    }
  }
  return { dsonVertex, uvIndex, indices };
}

/**
 * The body vertices of a mesh with merged grafts that only the polygons the grafts hide use. They
 * are kept, undrawn (no triangle names them), in the first polygon's primitive, with their position,
 * skin and morph deltas: dson.apply_preset projects a body morph onto the grafts from the body's
 * surface under them (`graft_body`), as the decode does, and needs where those vertices are and how
 * each morph moves them (before, decode.dson v31: dropped, so the hidden polygons' corners read as
 * the origin and still, and a graft over them followed 0.41 cm off the decode's projection).
 */
function hiddenOnly(mesh: SceneMesh): number[] {
  const used = new Uint8Array(mesh.vertexCount);
  for (const v of mesh.polyVerts) if (v >= 0) used[v] = 1;
  const out: number[] = [];
  for (const v of mesh.graftBody!.hiddenPolyVerts) {
    if (v >= 0 && !used[v]) used[v] = 1, out.push(v);
  }
  return out;
}

/** `JOINTS_0` and `WEIGHTS_0` of the glTF vertices, from the DSON vertices' skin slots. */
function skinAttributes(
  skin: NonNullable<SceneMesh["skin"]>,
  dsonVertex: readonly number[],
  jointSlot: Int32Array,
): { joints: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>; weights: Float32Array<ArrayBuffer> } {
  const n = dsonVertex.length;
  const jointCount = jointSlot.length;
  const joints = jointCount < 256 ? new Uint8Array(n * INFLUENCES) : new Uint16Array(n * INFLUENCES);
  const weights = new Float32Array(n * INFLUENCES);
  for (let i = 0; i < n; i++) {
    const o = i * INFLUENCES;
    for (let s = 0; s < INFLUENCES; s++) {
      const node = skin.slotNode[dsonVertex[i] * INFLUENCES + s];
      const w = skin.slotWeight[dsonVertex[i] * INFLUENCES + s];
      const joint = node >= 0 && w > 0 ? jointSlot[node] : 0;
      const weight = node >= 0 ? w : 0;
      // Two influences on one joint (two DSON joints naming one bone, or graft bones the target
      // lacks, all sent to its root) are invalid glTF: add the weight to the slot already there.
      let merged = false;
      for (let t = 0; t < s && weight > 0 && !merged; t++) {
        if (weights[o + t] > 0 && joints[o + t] === joint) {
          weights[o + t] += weight;
          merged = true;
        }
      }
      joints[o + s] = merged ? 0 : joint;
      weights[o + s] = merged ? 0 : weight;
    }
  }
  return { joints, weights };
}

/** A morph's position deltas (metres) per glTF vertex, and how many vertices it moves. */
export function morphDeltas(
  morph: Pick<Morph, "index" | "delta">,
  dsonVertex: readonly number[],
  vertexCount: number,
): { deltas: Float32Array<ArrayBuffer>; moved: number } {
  const n = dsonVertex.length;
  const deltaOf = new Int32Array(vertexCount).fill(-1);
  for (let k = 0; k < morph.index.length; k++) deltaOf[morph.index[k]] = k;
  const deltas = new Float32Array(n * 3);
  let moved = 0;
  for (let i = 0; i < n; i++) {
    const k = deltaOf[dsonVertex[i]];
    if (k < 0) continue;
    moved++;
    for (let c = 0; c < 3; c++) deltas[i * 3 + c] = morph.delta[k * 3 + c] * METRES_PER_CM;
  }
  return { deltas, moved };
}
