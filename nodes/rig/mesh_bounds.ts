/**
 * The box around drawn meshes from each accessor's own bounds, placed by node: what the rig needs to
 * tell copies apart and scale a band by, without placing every vertex.
 *
 * @module
 */

import { type Accessor, type Node, Primitive } from "@gltf-transform/core";
import { IndexOutOfRangeError, primitiveTriangles } from "./geometry.ts";
import { drawnOnly } from "./drawn_vertices.ts";
import { type Mat4, multiply, transformPoint, type Vec3 } from "./transform.ts";

/** A box: lowest and highest corner. */
export interface Bounds {
  readonly min: Vec3;
  readonly max: Vec3;
}

/** Primitive modes that draw triangles: lists, strips, fans. */
const TRIANGLE_MODES: ReadonlySet<number> = new Set([4, 5, 6]);

/**
 * The box around the drawn meshes of `nodes`, placed by `matrix` (scene → frame) times each node's
 * world matrix, from the corners of each accessor's own bounds over what its triangles draw (each read
 * once per `cache`); undefined when they draw nothing.
 */
export function meshBounds(
  nodes: Iterable<Node>,
  matrix: Mat4,
  cache = new Map<Accessor, Bounds | undefined>(),
): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const primitives = node.getMesh()?.listPrimitives() ?? [];
    // A mesh that draws triangles is what they draw: a guide edge's lines (Blender's loose edges) beside
    // them are no part of its box, as no part of its fit.
    const surface = primitives.some((p) => TRIANGLE_MODES.has(p.getMode()));
    const accessors = primitives.filter((p) => !surface || TRIANGLE_MODES.has(p.getMode()))
      .map((p) => p.getAttribute("POSITION"));
    const world = accessors.length ? multiply(matrix, node.getWorldMatrix()) : undefined;
    for (const accessor of accessors) {
      if (!accessor || accessor.getType() !== "VEC3") continue;
      if (!cache.has(accessor)) cache.set(accessor, accessorBounds(accessor));
      const box = cache.get(accessor);
      if (!box) continue;
      for (let corner = 0; corner < 8; corner++) {
        const p = transformPoint(world!, [0, 1, 2].map((k) => (corner >> k) & 1 ? box.max[k] : box.min[k]));
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], p[k]);
          max[k] = Math.max(max[k], p[k]);
        }
      }
    }
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}

/**
 * An accessor's own bounds (normalized integers read as the values they stand for) over the vertices
 * the triangles with an area of the primitives drawing from it draw (`drawn_vertices.ts`): a loose
 * vertex left at the model's origin stretched a surface's box to it, so that aircraft standing apart
 * in a hangar overlapped and could not be told apart. All its vertices where no triangle draws from it
 * (points, lines) or a triangle indexes past them. Undefined when it has none.
 */
function accessorBounds(accessor: Accessor): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const count = accessor.getCount(), read = new Float64Array(3 * count);
  const element = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    accessor.getElement(i, element);
    read[3 * i] = element[0], read[3 * i + 1] = element[1], read[3 * i + 2] = element[2];
  }
  const { positions, count: drawn } = drawnOnly({ positions: read, count, triangles: drawnFrom(accessor) });
  for (let i = 0; i < 3 * drawn; i += 3) {
    for (let k = 0; k < 3; k++) {
      const value = positions[i + k];
      if (!Number.isFinite(value)) continue;
      if (value < min[k]) min[k] = value;
      if (value > max[k]) max[k] = value;
    }
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}

/**
 * The triangles of every primitive drawing from `accessor` (its positions), one list; undefined where
 * one indexes past its vertices (then every vertex counts, as before).
 */
function drawnFrom(accessor: Accessor): Uint32Array | undefined {
  const vertices = accessor.getCount(), parts: Uint32Array[] = [];
  for (const parent of accessor.listParents()) {
    if (!(parent instanceof Primitive) || parent.getAttribute("POSITION") !== accessor) continue;
    try {
      parts.push(primitiveTriangles(parent, 0, vertices, accessor.getName()));
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      return undefined;
    }
  }
  if (parts.length === 1) return parts[0];
  const out = new Uint32Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}
