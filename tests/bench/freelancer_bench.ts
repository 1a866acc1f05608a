/**
 * Decode throughput of a code-built ≥ 50 MB `.cmp` (26 parts, each with a 65,535-vertex FVF 0x112
 * mesh). Run: `deno bench --frozen --allow-read --allow-write tests/bench/freelancer_bench.ts`.
 * Besides the Deno.bench timings it prints MB/s for the VMesh stage and the memory a full decode
 * holds, relative to the file size (figures recorded in docs/freelancer.md).
 */
import { flCrc32 } from "../../nodes/decode/freelancer/crc.ts";
import {
  compoundTree,
  encodeVMeshData,
  packVertices,
  type PartSpec,
} from "../support/freelancer/encode_model.ts";
import { encodeUtf } from "../support/freelancer/encode_utf.ts";
import { decodeModel } from "../../nodes/decode/freelancer/model.ts";
import { buildScene } from "../../nodes/decode/freelancer/scene.ts";
import { selectRef } from "../../nodes/decode/freelancer/vmesh.ts";

const PARTS = 26;
const VERTICES = 65535;
const TRIANGLES = 21845;

function buildLargeCompound(): Uint8Array {
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

const BYTES = buildLargeCompound();
const MB = BYTES.length / 1e6;
const warn = () => {};
const file = { bytes: BYTES, name: "bench.cmp" };

function selectAll(): number {
  const model = decodeModel(file, [], warn);
  let vertices = 0;
  for (const part of model.parts) {
    for (const ref of part.fragment.lods) {
      for (const prim of selectRef(model.meshes.get(ref.meshId)!, ref)) vertices += prim.positions.length / 3;
    }
  }
  return vertices;
}

function report(): void {
  // Memory first, before other decodes leave garbage: rss growth over one decode (pages the decode
  // had to obtain) and the exact bytes of typed arrays the scene holds.
  const rssBefore = Deno.memoryUsage().rss;
  const held = buildScene(decodeModel(file, [], warn), warn);
  const rssGrowth = Deno.memoryUsage().rss - rssBefore;
  let arrays = 0;
  for (const accessor of held.getRoot().listAccessors()) arrays += accessor.getArray()!.byteLength;
  selectAll();
  const runs = 5;
  let start = performance.now();
  for (let i = 0; i < runs; i++) selectAll();
  const vmesh = (performance.now() - start) / runs;
  start = performance.now();
  for (let i = 0; i < runs; i++) buildScene(decodeModel(file, [], warn), warn);
  const full = (performance.now() - start) / runs;
  const ratio = (n: number) => (n / BYTES.length).toFixed(2);
  console.log(
    `freelancer bench: ${MB.toFixed(1)} MB .cmp; VMesh decode+select ${vmesh.toFixed(0)} ms = ` +
      `${(MB / vmesh * 1000).toFixed(0)} MB/s; decode.cmp scene ${full.toFixed(0)} ms = ${
        (MB / full * 1000).toFixed(0)
      } MB/s; ` +
      `scene arrays ${(arrays / 1e6).toFixed(1)} MB = ${ratio(arrays)}× the file (file + scene ${
        ratio(arrays + BYTES.length)
      }×); ` +
      `rss growth over one decode ${(rssGrowth / 1e6).toFixed(1)} MB = ${ratio(rssGrowth)}×`,
  );
}
report();

Deno.bench({ name: `UTF tree + VMesh headers (${MB.toFixed(1)} MB .cmp)`, n: 20 }, () => {
  decodeModel(file, [], warn);
});

Deno.bench({ name: `VMesh decode + select to typed arrays (${MB.toFixed(1)} MB .cmp)`, n: 10 }, () => {
  selectAll();
});

Deno.bench({ name: `decode.cmp to a glTF scene (${MB.toFixed(1)} MB .cmp)`, n: 10 }, () => {
  buildScene(decodeModel(file, [], warn), warn);
});
