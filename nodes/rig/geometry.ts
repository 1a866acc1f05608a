/**
 * Gathers the vertices of every mesh under a node into one flat `Float64Array`, transformed once by
 * (aircraft frame × world matrix) — the input {@link fitHinge} and side assignment work on. Double
 * precision because the world matrix may carry a huge offset (a model placed in geographic
 * coordinates) that float32 would round to decimetres.
 *
 * @module
 */
import type { Accessor, Node, Primitive } from "@gltf-transform/core";
import { type Mat4, multiply } from "./transform.ts";

/** Positions of a subtree, `xyz` triples, and (when asked for) its triangles. */
export interface GatheredPositions {
  readonly positions: Float64Array;
  readonly count: number;
  /**
   * With `triangles: true`: vertex-index triples into `positions` of every triangle (triangle lists,
   * strips and fans); empty when the geometry has none (points, lines).
   */
  readonly triangles?: Uint32Array;
}

/** Thrown by {@link gatherPositions} when a primitive's index points past its vertices. */
export class IndexOutOfRangeError extends Error {
  constructor(mesh: string, index: number, vertices: number) {
    super(`mesh '${mesh}' has a triangle index ${index} past its ${vertices} vertices`);
    this.name = "IndexOutOfRangeError";
  }
}

/** Nodes of a subtree in depth-first order (stable: child order), the root first. */
export function subtreeNodes(root: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    const children = node.listChildren();
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

/**
 * Positions of every primitive of every mesh under `root` (or of `root`'s own mesh only, with
 * `descend: false`), transformed by `frame × world`, in the shape the mesh is drawn at rest: morph
 * targets are added at the node's (else the mesh's) default weights. Skinned and instanced meshes
 * are read in their bind/base pose. With `local: true` no matrix is applied: the positions are in the
 * mesh's own space, as {@link placePositions} takes them.
 *
 * @example
 * ```ts
 * const { positions, count } = gatherPositions(panelNode, aircraftMatrix(frame));
 * ```
 */
export function gatherPositions(
  root: Node,
  frame: Mat4,
  options: { descend?: boolean; triangles?: boolean; local?: boolean } = {},
): GatheredPositions {
  const sources: { accessor: Accessor; matrix: number[] | undefined; morphs: Morph[] }[] = [];
  const triangleParts: Uint32Array[] = [];
  let total = 0;
  for (const node of options.descend === false ? [root] : subtreeNodes(root)) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const matrix = options.local ? undefined : multiply(frame, node.getWorldMatrix());
    const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
    // Primitives sharing one vertex accessor (and the same morphs) share its gathered vertices: a mesh
    // of 500 primitives over one 65,535-vertex accessor gathered it 500 times (7 GB for a 1 MB GLB).
    const gathered = new Map<Accessor, { morphs: Morph[]; base: number }[]>();
    const drawnTriangles = new Map<Accessor | null, Set<string>>();
    for (const primitive of mesh.listPrimitives()) {
      const accessor = primitive.getAttribute("POSITION");
      if (!accessor || accessor.getType() !== "VEC3") continue;
      const morphs: Morph[] = [];
      primitive.listTargets().forEach((target, t) => {
        const delta = target.getAttribute("POSITION");
        const weight = weights[t] ?? 0;
        if (delta && weight !== 0 && delta.getCount() === accessor.getCount()) morphs.push({ delta, weight });
      });
      const earlier = gathered.get(accessor) ?? [];
      gathered.set(accessor, earlier);
      let base = earlier.find((e) => sameMorphs(e.morphs, morphs))?.base;
      if (base === undefined) {
        base = total;
        earlier.push({ morphs, base });
        sources.push({ accessor, matrix, morphs });
        total += accessor.getCount();
      }
      // The same vertices drawn by the same index list again are the same triangles again.
      const drawn = `${base} ${primitive.getMode()}`, indices = primitive.getIndices();
      if (options.triangles && !drawnTriangles.get(indices)?.has(drawn)) {
        drawnTriangles.set(indices, (drawnTriangles.get(indices) ?? new Set()).add(drawn));
        triangleParts.push(primitiveTriangles(primitive, base, accessor.getCount(), mesh.getName()));
      }
    }
  }
  const positions = new Float64Array(total * 3);
  let offset = 0;
  const element = [0, 0, 0];
  for (const { accessor, matrix: m, morphs } of sources) {
    const count = accessor.getCount();
    const array = accessor.getArray();
    const fast = array instanceof Float32Array && !accessor.getNormalized() && array.length >= count * 3;
    if (fast && morphs.length === 0) {
      if (!m) {
        positions.set(array.subarray(0, count * 3), offset);
        offset += count * 3;
        continue;
      }
      // The common case in a loop of its own: plain floats, no morph, no call per vertex.
      for (let i = 0; i < count * 3; i += 3, offset += 3) {
        const x = array[i], y = array[i + 1], z = array[i + 2];
        positions[offset] = m[0] * x + m[4] * y + m[8] * z + m[12];
        positions[offset + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
        positions[offset + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      }
      continue;
    }
    for (let i = 0; i < count; i++, offset += 3) {
      let x: number, y: number, z: number;
      if (fast) {
        x = array[i * 3];
        y = array[i * 3 + 1];
        z = array[i * 3 + 2];
      } else {
        accessor.getElement(i, element);
        [x, y, z] = element;
      }
      for (const { delta, weight } of morphs) {
        delta.getElement(i, element);
        x += weight * element[0];
        y += weight * element[1];
        z += weight * element[2];
      }
      if (!m) {
        [positions[offset], positions[offset + 1], positions[offset + 2]] = [x, y, z];
        continue;
      }
      positions[offset] = m[0] * x + m[4] * y + m[8] * z + m[12];
      positions[offset + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      positions[offset + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    }
  }
  if (!options.triangles) return { positions, count: total };
  const triangles = new Uint32Array(triangleParts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of triangleParts) {
    triangles.set(part, at);
    at += part.length;
  }
  return { positions, count: total, triangles };
}

/**
 * Writes `count` positions of mesh space (from `gatherPositions(…, { local: true })`) into `out`,
 * transformed by `matrix` with the very arithmetic `gatherPositions` uses, so both give the same
 * bits: many nodes drawing one mesh can share its gathered positions.
 *
 * @example
 * ```ts
 * placePositions(local.positions, local.count, multiply(frame, node.getWorldMatrix()), scratch);
 * ```
 */
export function placePositions(local: Float64Array, count: number, matrix: Mat4, out: Float64Array): void {
  const m = matrix;
  for (let i = 0; i < count * 3; i += 3) {
    const x = local[i], y = local[i + 1], z = local[i + 2];
    out[i] = m[0] * x + m[4] * y + m[8] * z + m[12];
    out[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    out[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  }
}

const TRIANGLES = 4, TRIANGLE_STRIP = 5, TRIANGLE_FAN = 6;

/** A primitive's triangles as vertex-index triples, offset by `base`; empty for points and lines. */
export function primitiveTriangles(
  primitive: Primitive,
  base: number,
  vertices: number,
  meshName: string,
): Uint32Array {
  const mode = primitive.getMode();
  if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) return new Uint32Array(0);
  const indices = primitive.getIndices()?.getArray();
  const n = indices ? indices.length : vertices;
  if (mode === TRIANGLES) {
    // The common case, without a call per index: the list as it is, checked and offset.
    const out = new Uint32Array(n - (n % 3));
    if (!indices) {
      for (let i = 0; i < out.length; i++) out[i] = base + i;
      return out;
    }
    for (let i = 0; i < out.length; i++) {
      const index = indices[i];
      if (!(index < vertices)) throw new IndexOutOfRangeError(meshName, index, vertices);
      out[i] = base + index;
    }
    return out;
  }
  const at = (i: number): number => {
    const index = indices ? indices[i] : i;
    if (!(index < vertices)) throw new IndexOutOfRangeError(meshName, index, vertices);
    return base + index;
  };
  // Strips and fans: every vertex after the second adds a triangle.
  const count = n < 3 ? 0 : n - 2;
  const out = new Uint32Array(count * 3);
  for (let t = 0; t < count; t++) {
    out[3 * t] = at(mode === TRIANGLE_FAN ? 0 : t);
    out[3 * t + 1] = at(t + 1);
    out[3 * t + 2] = at(t + 2);
  }
  return out;
}
/** A morph target's position deltas and their default weight. */
interface Morph {
  readonly delta: Accessor;
  readonly weight: number;
}

function sameMorphs(a: readonly Morph[], b: readonly Morph[]): boolean {
  return a.length === b.length && a.every((m, i) => m.delta === b[i].delta && m.weight === b[i].weight);
}

/** Bounding box (`min`, `max`) of gathered positions, or undefined when empty. */
export function positionBounds(
  { positions, count }: GatheredPositions,
): { min: [number, number, number]; max: [number, number, number] } | undefined {
  if (count === 0) return undefined;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let o = 0; o < count * 3; o += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[o + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  return { min, max };
}
