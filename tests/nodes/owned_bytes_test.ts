/**
 * Same output bytes whether nodes change the scenes they own in place (a run with its own memory
 * tier, as the CLI and batch run graphs) or work on copies (a caller's memory tier, as the studio,
 * watch mode and API callers with `memory`), for every ready-made graph.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { sha256Hex } from "../../runtime/canonical.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../support/graph_runs.ts";

for (const c of GRAPH_CASES) {
  const missing = missingCorpus(c);
  Deno.test({
    name: `owned in place or copied: ${c.label} gives the same bytes${
      missing ? ` (skipped: corpus file ${missing} absent)` : ""
    }`,
    ignore: missing !== undefined,
    async fn() {
      const owning = await runCase(c);
      const copying = await runCase(c, { memory: new Map() });
      assert(owning.glb && copying.glb, "the graph gave a GLB");
      assertEquals(sha256Hex(owning.glb), sha256Hex(copying.glb));
    },
  });
}
