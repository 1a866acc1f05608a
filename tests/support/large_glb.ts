/**
 * The big-file benchmark model: a code-built GLB of one grid mesh with `vertices` vertices
 * (position, normal, UV) and two triangles per grid cell, in 32-bit indices. At 4M vertices it is
 * ~222 MB, the size the round-trip figure is quoted for.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";

/** The GLB's bytes (deterministic) for a square-ish grid of at least `vertices` vertices. */
export async function buildLargeGlb(vertices: number): Promise<Uint8Array> {
  const side = Math.ceil(Math.sqrt(vertices));
  const rows = Math.ceil(vertices / side);
  const count = side * rows;
  const positions = new Float32Array(3 * count), normals = new Float32Array(3 * count);
  const uvs = new Float32Array(2 * count);
  for (let v = 0; v < count; v++) {
    const x = v % side, y = Math.floor(v / side);
    positions[3 * v] = x / side;
    positions[3 * v + 1] = Math.sin(x * 0.01) * Math.cos(y * 0.01) * 0.05;
    positions[3 * v + 2] = y / side;
    normals[3 * v + 1] = 1;
    uvs[2 * v] = x / (side - 1);
    uvs[2 * v + 1] = y / (rows - 1);
  }
  const indices = new Uint32Array(6 * (side - 1) * (rows - 1));
  let i = 0;
  for (let y = 0; y + 1 < rows; y++) {
    for (let x = 0; x + 1 < side; x++) {
      const a = y * side + x, b = a + 1, c = a + side, d = c + 1;
      indices.set([a, c, b, b, c, d], i);
      i += 6;
    }
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (
    array: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>,
    type: "VEC3" | "VEC2" | "SCALAR",
  ) => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor(positions, "VEC3"))
    .setAttribute("NORMAL", accessor(normals, "VEC3"))
    .setAttribute("TEXCOORD_0", accessor(uvs, "VEC2"))
    .setIndices(accessor(indices, "SCALAR"))
    .setMaterial(doc.createMaterial("ground"));
  const mesh = doc.createMesh("grid").addPrimitive(primitive);
  doc.createScene("grid").addChild(doc.createNode("grid").setMesh(mesh));
  return await writeGlb(doc, { generator: "partgraph bench" });
}
