/**
 * Draco-compressed GLBs for tests: a grid mesh compressed by Draco's own encoder (through
 * glTF-Transform), its bitstream taken out so a test can rewrite header bytes and wrap it again.
 *
 * @module
 */
import { Document, Format, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, KHRDracoMeshCompression } from "@gltf-transform/extensions";
import draco3d from "draco3dgltf";
import { glbOf } from "./shapes.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A Draco-compressed mesh: the GLB's JSON (its one buffer view holds the stream) and the stream. */
export interface DracoMesh {
  readonly json: Json;
  readonly stream: Uint8Array;
}

/**
 * An `n` × `n` vertex grid (positions and normals, `2(n-1)²` triangles) named `Aileron_L`, compressed
 * with `method`. A flat grid of whole-number coordinates is as compressible as a mesh gets.
 *
 * @example
 * ```ts
 * const { json, stream } = await dracoGrid(12, "sequential");
 * const glb = dracoGlb(json, stream);
 * ```
 */
export async function dracoGrid(n: number, method: "sequential" | "edgebreaker"): Promise<DracoMesh> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const positions = new Float32Array(n * n * 3);
  const normals = new Float32Array(n * n * 3);
  const indices = new Uint32Array((n - 1) * (n - 1) * 6);
  for (let i = 0; i < n * n; i++) {
    positions.set([Math.floor(i / n), 0, i % n], i * 3);
    normals.set([0, 1, 0], i * 3);
  }
  for (let i = 0, k = 0; i < n - 1; i++) {
    for (let j = 0; j < n - 1; j++, k += 6) {
      const a = i * n + j;
      indices.set([a, a + 1, a + n, a + 1, a + n + 1, a + n], k);
    }
  }
  const prim = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor("p", buffer).setType("VEC3").setArray(positions))
    .setAttribute("NORMAL", doc.createAccessor("n", buffer).setType("VEC3").setArray(normals))
    .setIndices(doc.createAccessor("i", buffer).setType("SCALAR").setArray(indices));
  doc.createScene("s").addChild(doc.createNode("Aileron_L").setMesh(doc.createMesh("m").addPrimitive(prim)));
  const methods = KHRDracoMeshCompression.EncoderMethod;
  doc.createExtension(KHRDracoMeshCompression).setRequired(true).setEncoderOptions({
    method: method === "sequential" ? methods.SEQUENTIAL : methods.EDGEBREAKER,
  });
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ "draco3d.encoder": await draco3d.createEncoderModule() });
  const written = await io.writeJSON(doc, { format: Format.GLB });
  const json = written.json as Json;
  const bin = Object.values(written.resources)[0];
  const view =
    json.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
  const stream = bin.slice(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
  return { json, stream };
}

/**
 * A GLB of `json` (from {@link dracoGrid}, edited as a test likes) whose only buffer holds `stream`,
 * read by every Draco primitive's view.
 */
export function dracoGlb(json: Json, stream: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(stream.length / 4) * 4);
  padded.set(stream);
  const copy = structuredClone(json);
  copy.buffers = [{ byteLength: padded.length }];
  copy.bufferViews = [{ buffer: 0, byteLength: stream.length }];
  for (const mesh of copy.meshes) {
    for (const p of mesh.primitives) p.extensions.KHR_draco_mesh_compression.bufferView = 0;
  }
  return glbOf(copy, padded);
}

/** Where a 2.2 stream without metadata starts its connectivity header (after magic, version, type, method, flags). */
export const CONNECTIVITY = 11;

/**
 * `mesh`'s stream with its header's face count and vertex count (sequential: points; edgebreaker:
 * encoded vertices, and its symbol count set to the faces, as Draco checks one against the other)
 * rewritten: what a hostile file declares to make the decoder allocate.
 */
export function withCounts(mesh: DracoMesh, faces: number, vertices: number): Uint8Array {
  const { stream } = mesh;
  const length = (from: number) => stream.subarray(from).findIndex((b) => !(b & 0x80)) + 1;
  if (stream[8] === 0) {
    const first = length(CONNECTIVITY), second = length(CONNECTIVITY + first);
    return spliced(stream, CONNECTIVITY, first + second, [...varint(faces), ...varint(vertices)]);
  }
  // Edgebreaker: traversal type, encoded vertices, faces, attribute data count, symbols.
  const at = CONNECTIVITY + 1;
  const first = length(at), second = length(at + first), symbols = at + first + second + 1;
  const counts = [...varint(vertices), ...varint(faces), stream[symbols - 1], ...varint(faces)];
  return spliced(stream, at, symbols + length(symbols) - at, counts);
}

/** A GLB whose one mesh has `copies` primitives decoding `mesh`'s one Draco view, each into accessors of its own. */
export function sharedDracoView(mesh: DracoMesh, copies: number): Uint8Array {
  const json = structuredClone(mesh.json);
  const primitive = json.meshes[0].primitives[0];
  const defs = [primitive.attributes.POSITION, primitive.attributes.NORMAL, primitive.indices]
    .map((i) => json.accessors[i]);
  json.accessors = Array.from({ length: copies }, () => defs).flat();
  json.meshes[0].primitives = Array.from({ length: copies }, (_, i) => ({
    ...primitive,
    attributes: { POSITION: 3 * i, NORMAL: 3 * i + 1 },
    indices: 3 * i + 2,
  }));
  return dracoGlb(json, mesh.stream);
}

/** `stream` with `remove` bytes at `at` replaced by `bytes` (a header rewritten). */
export function spliced(
  stream: Uint8Array,
  at: number,
  remove: number,
  bytes: ArrayLike<number>,
): Uint8Array {
  const out = new Uint8Array(stream.length - remove + bytes.length);
  out.set(stream.subarray(0, at));
  out.set(bytes, at);
  out.set(stream.subarray(at + remove), at + bytes.length);
  return out;
}

/** Draco's varint (unsigned LEB128) of `value`. */
export function varint(value: number): number[] {
  const bytes: number[] = [];
  do {
    const low = value % 128;
    value = Math.floor(value / 128);
    bytes.push(value ? low | 0x80 : low);
  } while (value);
  return bytes;
}
