/**
 * Gathers the vertices of every mesh under a node into one flat `Float32Array`, transformed once by
 * (aircraft frame × world matrix) — the input {@link fitHinge} and side assignment work on.
 *
 * @module
 */
import type { Accessor, Node } from "@gltf-transform/core";
import { type Mat4, multiply } from "./transform.ts";

/** Positions of a subtree, `xyz` triples. */
export interface GatheredPositions {
  readonly positions: Float32Array;
  readonly count: number;
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
 * `descend: false`), transformed by `frame × world`. Skinned and instanced meshes are read in their bind/base pose.
 *
 * @example
 * ```ts
 * const { positions, count } = gatherPositions(panelNode, aircraftMatrix(frame));
 * ```
 */
export function gatherPositions(
  root: Node,
  frame: Mat4,
  options: { descend?: boolean } = {},
): GatheredPositions {
  const sources: { accessor: Accessor; matrix: number[] }[] = [];
  let total = 0;
  for (const node of options.descend === false ? [root] : subtreeNodes(root)) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const matrix = multiply(frame, node.getWorldMatrix());
    for (const primitive of mesh.listPrimitives()) {
      const accessor = primitive.getAttribute("POSITION");
      if (!accessor || accessor.getType() !== "VEC3") continue;
      sources.push({ accessor, matrix });
      total += accessor.getCount();
    }
  }
  const positions = new Float32Array(total * 3);
  let offset = 0;
  const element = [0, 0, 0];
  for (const { accessor, matrix: m } of sources) {
    const count = accessor.getCount();
    const array = accessor.getArray();
    const fast = array instanceof Float32Array && !accessor.getNormalized() && array.length >= count * 3;
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
      positions[offset] = m[0] * x + m[4] * y + m[8] * z + m[12];
      positions[offset + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      positions[offset + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    }
  }
  return { positions, count: total };
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
