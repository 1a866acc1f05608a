/**
 * The box around drawn meshes from each accessor's own bounds, placed by node: what the rig needs to
 * tell copies apart and scale a band by, without placing every vertex.
 *
 * @module
 */

import type { Accessor, Node } from "@gltf-transform/core";
import { type Mat4, multiply, transformPoint, type Vec3 } from "./transform.ts";

/** A box: lowest and highest corner. */
export interface Bounds {
  readonly min: Vec3;
  readonly max: Vec3;
}

/**
 * The box around the drawn meshes of `nodes`, placed by `matrix` (scene → frame) times each node's
 * world matrix, from the corners of each accessor's own bounds (each read once per `cache`); undefined
 * when they draw nothing.
 */
export function meshBounds(
  nodes: Iterable<Node>,
  matrix: Mat4,
  cache = new Map<Accessor, Bounds | undefined>(),
): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const accessors = node.getMesh()?.listPrimitives().map((p) => p.getAttribute("POSITION")) ?? [];
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

/** An accessor's own bounds (normalized integers read as the values they stand for), or undefined when it has none. */
function accessorBounds(accessor: Accessor): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const element = [0, 0, 0];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(element[k])) continue;
      if (element[k] < min[k]) min[k] = element[k];
      if (element[k] > max[k]) max[k] = element[k];
    }
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}
