/**
 * Prints the SHA-256 of every output a change must leave byte-identical: each graph in `graphs/` on
 * the inputs the tests use (corpus cases skipped when the corpus is absent), and five realistic
 * compounds through `decode.cmp` (both `lods` layouts) + `constraints.resolve` + `export.gltf`.
 * Run it on two commits and diff the output:
 * `deno run --frozen --allow-read --allow-write scripts/output_digests.ts > digests.txt`.
 *
 * @module
 */
import { sha256Hex } from "../runtime/canonical.ts";
import { constraintsResolve } from "../nodes/constraints/resolve.ts";
import { decodeCmp } from "../nodes/decode/freelancer/decode_cmp.ts";
import { exportGltf } from "../nodes/export/gltf.ts";
import { runNode } from "../tests/support/context.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../tests/support/graph_runs.ts";
import { realisticCmp } from "../tests/support/realistic_cmp.ts";

for (const c of GRAPH_CASES) {
  if (missingCorpus(c)) {
    console.log(`${c.label}: skipped (corpus file ${missingCorpus(c)} absent)`);
    continue;
  }
  const { glb } = await runCase(c);
  console.log(`${c.label}: ${glb ? sha256Hex(glb) : "no GLB"}`);
}
for (const seed of [1, 2, 3, 17, 40]) {
  const bytes = realisticCmp(seed, { parts: 12 + seed % 20 });
  for (const lods of ["first", "all"]) {
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: `r${seed}.cmp` } }, {
      libraries: "none",
      lods,
    });
    const resolved = await runNode(constraintsResolve, { scene });
    const { bytes: glb } = await runNode(exportGltf, { scene: resolved.scene });
    console.log(`realistic seed ${seed}, lods ${lods}: ${sha256Hex(glb.bytes)}`);
  }
}
