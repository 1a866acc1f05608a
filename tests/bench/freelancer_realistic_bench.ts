/**
 * `decode.cmp` throughput on compounds shaped like retail ones (many parts, 3–5 LODs, small material
 * groups, textures; `realistic_cmp.ts`) next to the single-mesh compound (`large_cmp.ts`), through
 * the node API as a graph runs them: decode only, and decode + `constraints.resolve` + `export.gltf`.
 * Run: `deno bench --frozen --allow-read --allow-write tests/bench/freelancer_realistic_bench.ts`.
 * Besides the Deno.bench timings it prints MB/s and µs per accessor of each set (the best of five
 * passes, so other processes on a shared machine disturb the figure less), with the load average.
 */
import type { Document } from "@gltf-transform/core";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { decodeCmp } from "../../nodes/decode/freelancer/decode_cmp.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { buildLargeCompound } from "../support/large_cmp.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";

/** A named set of files. */
interface BenchSet {
  readonly label: string;
  readonly files: readonly Uint8Array[];
}

const REALISTIC: BenchSet = {
  label: "realistic (16 compounds)",
  files: Array.from({ length: 16 }, (_, i) => realisticCmp(i + 1, { parts: 8 + (i * 7) % 24 })),
};
const SINGLE_MESH: BenchSet = { label: "single-mesh (1 compound)", files: [buildLargeCompound()] };

/** Runs the set through decode.cmp (and resolve + export); returns the accessor count. */
async function runSet(set: BenchSet, withExport: boolean): Promise<number> {
  let accessors = 0;
  const ctx = testContext("bench");
  for (const [i, bytes] of set.files.entries()) {
    const decoded = await runNode(
      decodeCmp,
      { bytes: { bytes, name: `m${i}.cmp` } },
      { libraries: "none" },
      ctx,
    );
    const scene = decoded.scene as Document;
    accessors += scene.getRoot().listAccessors().length;
    if (!withExport) continue;
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    await runNode(exportGltf, { scene: resolved.scene }, {}, ctx);
  }
  return accessors;
}

async function report(set: BenchSet, withExport: boolean): Promise<string> {
  const bytes = set.files.reduce((sum, f) => sum + f.byteLength, 0);
  let accessors = await runSet(set, withExport);
  let best = Infinity;
  for (let pass = 0; pass < 5; pass++) {
    const start = performance.now();
    accessors = await runSet(set, withExport);
    best = Math.min(best, performance.now() - start);
  }
  const stage = withExport ? "decode + resolve + export" : "decode only";
  return `${set.label}, ${stage}: ${(bytes / 1e6).toFixed(1)} MB, ${accessors} accessors, ` +
    `${best.toFixed(0)} ms = ${(bytes / 1e3 / best).toFixed(0)} MB/s, ` +
    `${(best * 1000 / accessors).toFixed(1)} µs per accessor`;
}

for (const set of [REALISTIC, SINGLE_MESH]) {
  for (const withExport of [false, true]) console.log(await report(set, withExport));
}
console.log(`load average ${loadAverage()} on ${navigator.hardwareConcurrency} cores`);

/** The 1/5/15-minute load average, so a figure can be read against how busy the machine was. */
function loadAverage(): string {
  try {
    return Deno.loadavg().map((load) => load.toFixed(1)).join(" ");
  } catch {
    return "unknown (run with --allow-sys to see it)";
  }
}

for (const set of [REALISTIC, SINGLE_MESH]) {
  Deno.bench({ name: `decode.cmp, ${set.label}`, group: set.label, n: 3 }, async () => {
    await runSet(set, false);
  });
  Deno.bench(
    { name: `decode.cmp + resolve + export.gltf, ${set.label}`, group: set.label, n: 3 },
    async () => {
      await runSet(set, true);
    },
  );
}
