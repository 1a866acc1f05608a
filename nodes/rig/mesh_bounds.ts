/**
 * The box around drawn meshes from each accessor's own bounds, placed by node: what the rig needs to
 * tell copies apart and scale a band by, without placing every vertex.
 *
 * @module
 */

import type { Node, Primitive } from "@gltf-transform/core";
import { IndexOutOfRangeError, primitiveTriangles } from "./geometry.ts";
import { drawnOnly } from "./drawn_vertices.ts";
import { type Mat4, multiply, transformPoint, type Vec3 } from "./transform.ts";

/** A box: lowest and highest corner. */
export interface Bounds {
  readonly min: Vec3;
  readonly max: Vec3;
}

/**
 * Boxes already read, one per primitive: its accessor's bounds over what that primitive draws. Keyed
 * by the primitive, not the accessor, since meshes may share a vertex buffer (a wing and its aileron
 * split by material, a game rip's one buffer for the whole model): each is its own part of it.
 */
export type BoundsCache = Map<Primitive, Bounds | undefined>;

/** How many primitives' boxes have been computed from their vertices: work a test may count. */
export const boundsWork = { computed: 0 };

/** Primitive modes that draw triangles: lists, strips, fans. */
export const TRIANGLE_MODES: ReadonlySet<number> = new Set([4, 5, 6]);

/**
 * The box around the drawn meshes of `nodes`, placed by `matrix` (scene → frame) times each node's
 * world matrix, from the corners of each primitive's box over what its triangles draw (each read
 * once per `cache`); undefined when they draw nothing.
 */
export function meshBounds(
  nodes: Iterable<Node>,
  matrix: Mat4,
  cache: BoundsCache = new Map(),
): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const primitives = node.getMesh()?.listPrimitives() ?? [];
    // A mesh that draws triangles is what they draw: a guide edge's lines (Blender's loose edges) beside
    // them are no part of its box, as no part of its fit.
    const surface = primitives.some((p) => TRIANGLE_MODES.has(p.getMode()));
    const drawing = primitives.filter((p) => !surface || TRIANGLE_MODES.has(p.getMode()))
      .filter((p) => p.getAttribute("POSITION")?.getType() === "VEC3");
    const world = drawing.length ? multiply(matrix, node.getWorldMatrix()) : undefined;
    for (const primitive of drawing) {
      if (!cache.has(primitive)) cache.set(primitive, memoBounds(primitive));
      const box = cache.get(primitive);
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

/** Where a primitive draws without indices: its vertices in order. */
const UNINDEXED = {};

/**
 * Boxes already read, by the vertex data they were read from: the position array, then the index
 * array ({@link UNINDEXED} without one), then the mode and how the positions are stored. Each rig node
 * works on its own copy of the scene (or the scene it was handed), whose primitives are new objects
 * but whose arrays are the very ones it was given: a scene's arrays are never written (a node that
 * moves vertices gives an accessor a new array, `runtime/scene/copy.ts`), so a box read from them holds
 * in every copy, and a mesh given new vertices is read anew. Before, each node (copies, hangars,
 * strays, debris, sides) read every primitive's box again: a hangar's ~9 times a run.
 */
const BY_DATA = new WeakMap<object, WeakMap<object, Map<string, Bounds | undefined>>>();

/**
 * A primitive's box in its mesh's space over what its triangles with an area draw (all its vertices
 * where it draws no triangle), read once per vertex data however many readers and rig nodes ask.
 * Undefined when it has no finite position.
 *
 * @example
 * ```ts
 * const box = drawnBox(node.getMesh()!.listPrimitives()[0]); // { min, max } in mesh space
 * ```
 */
export function drawnBox(primitive: Primitive): Bounds | undefined {
  return memoBounds(primitive);
}

/** {@link primitiveBounds}, read once per vertex data (see {@link BY_DATA}). */
function memoBounds(primitive: Primitive): Bounds | undefined {
  const accessor = primitive.getAttribute("POSITION")!;
  const positions = accessor.getArray(), indices = primitive.getIndices()?.getArray() ?? UNINDEXED;
  if (!positions) return primitiveBounds(primitive);
  let byIndices = BY_DATA.get(positions);
  if (!byIndices) BY_DATA.set(positions, byIndices = new WeakMap());
  let byMode = byIndices.get(indices);
  if (!byMode) byIndices.set(indices, byMode = new Map());
  // The count too: an accessor may read fewer elements than its array holds.
  const key = `${primitive.getMode()} ${accessor.getNormalized()} ${accessor.getCount()}`;
  if (!byMode.has(key)) byMode.set(key, primitiveBounds(primitive));
  return byMode.get(key);
}

/**
 * A primitive's positions' bounds (normalized integers read as the values they stand for) over the
 * vertices its triangles with an area draw (`drawn_vertices.ts`): a loose vertex left at the model's
 * origin stretched a surface's box to it, so that aircraft standing apart in a hangar overlapped and
 * could not be told apart; and where meshes share one vertex buffer (a game rip's one buffer for a
 * whole hangar) every mesh's box was the buffer's, each aircraft's parts as large as the hangar. The
 * vertices it indexes where none of its triangles has an area; all its accessor's where it draws no
 * triangle (points, lines) or a triangle indexes past them.
 * Undefined when it has none.
 */
function primitiveBounds(primitive: Primitive): Bounds | undefined {
  boundsWork.computed++;
  const accessor = primitive.getAttribute("POSITION")!;
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const count = accessor.getCount();
  let triangles: Uint32Array | undefined;
  try {
    triangles = primitiveTriangles(primitive, 0, count, accessor.getName());
  } catch (error) {
    if (!(error instanceof IndexOutOfRangeError)) throw error;
  }
  // Only the vertices its triangles index are read: a buffer hundreds of primitives share is read
  // once per primitive in the part each draws, not whole each time.
  const used = triangles?.length ? [...new Set(triangles)].sort((a, b) => a - b) : undefined;
  const read = new Float64Array(3 * (used?.length ?? count)), element = [0, 0, 0];
  for (let i = 0; i < (used?.length ?? count); i++) {
    accessor.getElement(used ? used[i] : i, element);
    read[3 * i] = element[0], read[3 * i + 1] = element[1], read[3 * i + 2] = element[2];
  }
  if (used && used.length < count) {
    const at = new Map(used.map((v, i) => [v, i]));
    triangles = triangles!.map((v) => at.get(v)!);
  }
  const { positions, count: drawn } = drawnOnly({ positions: read, count: read.length / 3, triangles });
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
