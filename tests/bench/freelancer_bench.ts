/**
 * Decode throughput of a code-built ≥ 50 MB `.cmp` (26 parts, each with a 65,535-vertex FVF 0x112
 * mesh). Run: `deno bench --frozen --allow-read --allow-write tests/bench/freelancer_bench.ts`.
 * Besides the Deno.bench timings it prints MB/s for the VMesh stage and the memory a full decode
 * holds, relative to the file size (figures recorded in docs/freelancer.md).
 */
import { buildLargeCompound } from "../support/large_cmp.ts";
import { decodeModel } from "../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../nodes/decode/freelancer/codec/build_scene.ts";
import { selectRef } from "../../nodes/decode/freelancer/codec/vmesh_select.ts";
import { loadPngEncoder } from "../../runtime/scene/png.ts";

// Scenes are built here without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

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
