/**
 * Primitives as Microsoft Flight Simulator's exporters pack them. Every primitive of a mesh names the
 * same vertex pool and the same index list; which part of the list is its own is said only in its
 * extras, `ASOBO_primitive`: `StartIndex` (its first index), `PrimitiveCount` (its triangles) and
 * `BaseVertexIndex` (added to each of its indices, which are 16-bit). Read as glTF says, each
 * primitive draws the whole list — every material over the whole mesh, the parts joined. Each
 * primitive is given its own part of the list here, and the extras, which no longer describe it,
 * are dropped.
 *
 * The packing also writes triangles in the order the sim's own coordinate system wants, against
 * glTF's: where a primitive's triangles turn away from its own normals nearly everywhere, they are
 * turned round ({@link windTriangles}).
 *
 * @module
 */
import type { Accessor, Document, Primitive } from "@gltf-transform/core";
import type { Json } from "./checker.ts";
import { gltfError, type GltfSource } from "./container.ts";

/** Meshes and primitives in the file's order (glTF-Transform keeps it), with their JSON paths. */
function eachPrimitive(doc: Document, visit: (primitive: Primitive, path: string) => void): void {
  doc.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => visit(primitive, `/meshes/${m}/primitives/${p}`));
  });
}

/**
 * Gives each primitive with `ASOBO_primitive` extras its own index list: indices `StartIndex` to
 * `StartIndex + 3 × PrimitiveCount` (to the list's end without a count) of the shared list, plus
 * `BaseVertexIndex`. A range past the list, or a field that is not a whole number, is a `DecodeError`
 * at the extras' JSON path. Returns how many primitives were cut from a shared list. Runs before the
 * index values are checked against vertex counts, so the base is checked too.
 */
export function splitPackedPrimitives(doc: Document, source: GltfSource): number {
  let split = 0;
  const replaced = new Set<Accessor>();
  eachPrimitive(doc, (primitive, path) => {
    const extras = primitive.getExtras() as Json;
    const packing = extras?.ASOBO_primitive;
    if (typeof packing !== "object" || packing === null || Array.isArray(packing)) return;
    const at = `${path}/extras/ASOBO_primitive`;
    const field = (name: string, fallback: number | undefined) => {
      const value = (packing as Json)[name] ?? fallback;
      if (value === undefined) return undefined;
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        throw gltfError(source, { jsonPath: `${at}/${name}` }, "a whole number ≥ 0", JSON.stringify(value));
      }
      return value as number;
    };
    const { ASOBO_primitive: _, ...rest } = extras;
    primitive.setExtras(rest);
    const indices = primitive.getIndices();
    const values = indices?.getArray();
    if (!indices || !values) return;
    const start = field("StartIndex", 0)!, base = field("BaseVertexIndex", 0)!;
    const triangles = field("PrimitiveCount", undefined);
    const end = triangles === undefined ? values.length : start + 3 * triangles;
    if (end > values.length) {
      throw gltfError(
        source,
        { jsonPath: at },
        `a range inside its index list (accessor of ${values.length} indices)`,
        `indices ${start} to ${end} (StartIndex ${start}, PrimitiveCount ${triangles})`,
      );
    }
    if (start === 0 && end === values.length && base === 0) return;
    const own = new Uint32Array(end - start);
    for (let i = start; i < end; i++) own[i - start] = values[i] + base;
    primitive.setIndices(
      doc.createAccessor(indices.getName()).setType("SCALAR").setArray(own).setBuffer(indices.getBuffer()),
    );
    replaced.add(indices);
    split++;
  });
  // The shared list is no primitive's any more: left, it would be written out unused.
  for (const accessor of replaced) {
    if (accessor.listParents().every((parent) => parent === doc.getRoot())) accessor.dispose();
  }
  return split;
}

/** Share of a primitive's triangle area that must face against its normals before it is turned round. */
const AGAINST_NORMALS = 0.9;

/**
 * Turns round the triangles of each indexed triangle-list primitive whose winding faces against its
 * own normals over more than 90 % of its area (where three.js, culling back faces, would show the
 * inside of the model). Returns the JSON paths of the primitives turned.
 */
export function windTriangles(doc: Document): string[] {
  const turned: string[] = [];
  eachPrimitive(doc, (primitive, path) => {
    const indices = primitive.getIndices();
    const index = indices?.getArray();
    const position = primitive.getAttribute("POSITION")?.getArray();
    const normal = primitive.getAttribute("NORMAL")?.getArray();
    if (primitive.getMode() !== 4 || !indices || !index || !position || !normal) return;
    let along = 0, against = 0;
    for (let t = 0; t + 2 < index.length; t += 3) {
      const a = 3 * index[t], b = 3 * index[t + 1], c = 3 * index[t + 2];
      const ux = position[b] - position[a], uy = position[b + 1] - position[a + 1];
      const uz = position[b + 2] - position[a + 2];
      const vx = position[c] - position[a], vy = position[c + 1] - position[a + 1];
      const vz = position[c + 2] - position[a + 2];
      // The face normal by the winding, its length twice the area; against the summed vertex normals.
      const fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx;
      const nx = normal[a] + normal[b] + normal[c], ny = normal[a + 1] + normal[b + 1] + normal[c + 1];
      const nz = normal[a + 2] + normal[b + 2] + normal[c + 2];
      const area = Math.hypot(fx, fy, fz);
      if (fx * nx + fy * ny + fz * nz < 0) against += area;
      else along += area;
    }
    if (!(against > AGAINST_NORMALS * (along + against))) return;
    const flipped = index.slice();
    for (let t = 0; t + 2 < flipped.length; t += 3) {
      flipped[t + 1] = index[t + 2];
      flipped[t + 2] = index[t + 1];
    }
    // An index list another primitive shares keeps its order there.
    const own = indices.listParents().filter((parent) => parent !== doc.getRoot()).length > 1
      ? indices.clone()
      : indices;
    primitive.setIndices(own.setArray(flipped));
    turned.push(path);
  });
  return turned;
}
