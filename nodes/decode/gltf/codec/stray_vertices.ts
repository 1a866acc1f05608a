/**
 * Vertices no primitive draws, lying outside the drawn ones. Exporters keep them: loose vertices and
 * the leftovers of deleted faces (assimp without its remove-unused step, FBX SDK conversions keeping
 * every control point, a simplifier that does not compact), a stray point left at the origin, or a
 * collapsed one written as NaN or at 1e30. Viewers draw only the indexed triangles, so nothing shows;
 * but everything that reads the POSITION accessor whole does: its min/max bounds (three.js frames the
 * model by them), the rig's frame detection (one vertex at 1e30 makes the aircraft a point: the frame
 * is guessed wrong and every hinge with it) and a panel's hinge fit (a stray vertex at the origin
 * bends the fitted edge).
 *
 * So each such vertex of an indexed POSITION accessor is moved onto a drawn vertex of the same
 * accessor, with a warning naming the primitive, the count and the farthest one: the drawing is the
 * same, vertex counts and indices are unchanged, and bounds and hinges read only what viewers draw.
 * A stray vertex inside the drawn bounds is harmless to them and kept where it is. An accessor also
 * read without indices (every vertex drawn), or for anything but a primitive's POSITION, is left alone.
 *
 * @module
 */
import type { Accessor, Document, Primitive } from "@gltf-transform/core";

/** Fewest indices that draw anything, per mode (`primitive.mode`); an unknown mode draws nothing. */
const LEAST = [1, 2, 2, 2, 3, 3, 3];

/**
 * Moves the stray vertices of `doc` (decoded, its index values checked; a cut list's leftover index,
 * which primitive_counts.ts trims and names, still counts as using its vertex) onto drawn ones, in place,
 * and returns a repair (`<path>: <what>`, the path `/meshes/m/primitives/p/attributes/POSITION` of
 * the accessor's first primitive) per accessor that had any.
 *
 * @example
 * ```ts
 * moveStrayVertices(doc); // ["/meshes/2/primitives/0/attributes/POSITION: 1 vertex no primitive draws …"]
 * ```
 */
export function moveStrayVertices(doc: Document): string[] {
  const repairs: string[] = [];
  const seen = new Set<Accessor>();
  doc.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => {
      const position = primitive.getAttribute("POSITION");
      if (!position || seen.has(position)) return;
      seen.add(position);
      const repair = moveStrays(position);
      if (repair) repairs.push(`/meshes/${m}/primitives/${p}/attributes/POSITION: ${repair}`);
    });
  });
  return repairs;
}

function moveStrays(position: Accessor): string | undefined {
  const array = position.getArray();
  if (!array || position.getElementSize() !== 3) return undefined;
  const count = position.getCount();
  const drawn = new Uint8Array(count);
  for (const parent of position.listParents()) {
    if (parent.propertyType === "Root") continue;
    // Read as anything but a primitive's POSITION (a morph target, an animation, another attribute).
    if (parent.propertyType !== "Primitive") return undefined;
    const primitive = parent as Primitive;
    if (primitive.getAttribute("POSITION") !== position) return undefined;
    const indices = primitive.getIndices()?.getArray();
    // Without indices every vertex is drawn; with fewer than a triangle, line or point nothing is, and
    // the primitive is named and kept as it is (primitive_counts.ts).
    if (!indices || indices.length < LEAST[primitive.getMode()]) return undefined;
    for (let i = 0; i < indices.length; i++) drawn[indices[i]] = 1;
  }
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  let first = -1;
  for (let v = 0; v < count; v++) {
    if (!drawn[v] || !finite(array, v)) continue;
    if (first < 0) first = v;
    for (let k = 0; k < 3; k++) {
      const x = array[3 * v + k];
      if (x < low[k]) low[k] = x;
      if (x > high[k]) high[k] = x;
    }
  }
  if (first < 0) return undefined;
  let moved = 0, farthest = -1, worst = -1, was = "";
  for (let v = 0; v < count; v++) {
    if (drawn[v]) continue;
    let out = finite(array, v) ? 0 : Infinity;
    // Bounds are compared in the stored values: normalised integers map to floats linearly, axis by axis.
    for (let k = 0; k < 3 && out < Infinity; k++) {
      const x = array[3 * v + k];
      out = Math.max(out, low[k] - x, x - high[k]);
    }
    if (!(out > 0)) continue;
    if (out > worst) {
      [worst, farthest] = [out, v];
      was = [0, 1, 2].map((k) => format(array[3 * v + k])).join(", ");
    }
    for (let k = 0; k < 3; k++) array[3 * v + k] = array[3 * first + k];
    moved++;
  }
  if (moved === 0) return undefined;
  position.setArray(array);
  return `${moved} vert${moved === 1 ? "ex" : "ices"} of ${count} that no primitive draws lay outside the ` +
    `drawn ones (the farthest, vertex ${farthest}, at (${was}) in stored values): moved onto drawn vertex ${first} ` +
    "(viewers draw nothing of them; kept, they would set the bounds, the frame and hinges)";
}

function finite(array: ArrayLike<number>, v: number): boolean {
  return Number.isFinite(array[3 * v]) && Number.isFinite(array[3 * v + 1]) &&
    Number.isFinite(array[3 * v + 2]);
}

function format(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(4))) : String(x);
}
