/**
 * The single-mesh benchmark compound: a code-built ≥ 50 MB `.cmp` of 26 parts, each with a
 * 65,535-vertex FVF 0x112 mesh whose every vertex is used. The opposite of a retail model (see
 * `realistic_cmp.ts`): few, huge accessors.
 *
 * @module
 */
import { flCrc32 } from "../../nodes/decode/freelancer/codec/crc.ts";
import { compoundTree, encodeVMeshData, packVertices, type PartSpec } from "./freelancer/encode_model.ts";
import { encodeUtf } from "./freelancer/encode_utf.ts";

const PARTS = 26;
const VERTICES = 65535;
const TRIANGLES = 21845;

/** The compound's bytes (deterministic). */
export function buildLargeCompound(): Uint8Array {
  const positions = new Float32Array(3 * VERTICES),
    normals = new Float32Array(3 * VERTICES),
    uv = new Float32Array(2 * VERTICES);
  for (let v = 0; v < VERTICES; v++) {
    positions.set([v % 256, Math.floor(v / 256), (v * 7) % 13], 3 * v);
    normals.set([0, 0, 1], 3 * v);
    uv.set([(v % 256) / 255, Math.floor(v / 256) / 255], 2 * v);
  }
  const vertices = packVertices(0x112, VERTICES, { positions, normals, uvs: [uv] });
  const indices = new Uint16Array(3 * TRIANGLES);
  // Every vertex used once (the last triangle repeats vertex 0), so the whole buffer is gathered.
  for (let i = 0; i < indices.length; i++) indices[i] = i % VERTICES;
  const meshes = Array.from({ length: PARTS }, (_, p) => ({
    name: `bench.part${p}.lod0.vms`,
    data: encodeVMeshData({
      fvf: 0x112,
      groups: [{
        materialId: flCrc32("bench"),
        vertexStart: 0,
        vertexEnd: VERTICES - 1,
        indexCount: indices.length,
      }],
      indices,
      // Distinct payloads: the UTF writer would otherwise share one data range.
      vertices: (() => {
        const copy = vertices.slice();
        copy[0] = p;
        return copy;
      })(),
    }),
  }));
  const parts: PartSpec[] = meshes.map((m, p) => ({
    name: p === 0 ? "Root" : `Part${p}`,
    fileName: `part${p}.3db`,
    fragment: {
      lods: [{
        meshId: flCrc32(m.name),
        vertexStart: 0,
        vertexCount: VERTICES,
        indexStart: 0,
        indexCount: indices.length,
        groupStart: 0,
        groupCount: 1,
      }],
    },
  }));
  const constraints = parts.slice(1).map((p) => ({
    kind: "fix" as const,
    parent: "Root",
    child: p.name,
    translation: [0, 0, 0],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  }));
  return encodeUtf(compoundTree({ meshes, parts, constraints }));
}
