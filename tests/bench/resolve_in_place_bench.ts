/**
 * `constraints.resolve` on the 16 retail-shaped compounds of `freelancer_realistic_bench.ts`, on a
 * copy (`ctx.owns` false: every property re-created, vertex arrays shared) against in place (the
 * executor handed the scene over: extras settled, nothing copied). Only the resolve is timed; each
 * iteration decodes fresh scenes first. Prints µs per property of both after the table.
 *
 * Run: `deno bench --frozen --allow-read --allow-write tests/bench/resolve_in_place_bench.ts`
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { decodeCmp } from "../../nodes/decode/freelancer/decode_cmp.ts";
import { settleExtras } from "../../runtime/scene/copy.ts";
import { runNode, testContext } from "../support/context.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";

const FILES = Array.from({ length: 16 }, (_, i) => realisticCmp(i + 1, { parts: 8 + (i * 7) % 24 }));

async function decodeAll(): Promise<Document[]> {
  const ctx = testContext("bench");
  const scenes: Document[] = [];
  for (const [i, bytes] of FILES.entries()) {
    const decoded = await runNode(
      decodeCmp,
      { bytes: { bytes, name: `m${i}.cmp` } },
      { libraries: "none" },
      ctx,
    );
    scenes.push(decoded.scene as Document);
  }
  return scenes;
}

/** Resolves every scene, in place (as an owning run does: extras settled first) or on a copy. */
async function resolveAll(scenes: Document[], owned: boolean): Promise<void> {
  const ctx = { ...testContext("bench"), owns: () => owned };
  for (const scene of scenes) {
    if (owned) settleExtras(scene);
    await runNode(constraintsResolve, { scene }, {}, ctx);
  }
}

const properties = (await decodeAll()).reduce((sum, doc) => sum + doc.getGraph().listEdges().length, 0);
const least = { copy: Infinity, owned: Infinity };

for (const owned of [false, true]) {
  Deno.bench({
    name: `constraints.resolve, 16 realistic compounds, ${owned ? "in place (owned)" : "on a copy"}`,
    group: "resolve",
    baseline: !owned,
    n: 10,
    async fn(b) {
      const scenes = await decodeAll();
      b.start();
      const started = performance.now();
      await resolveAll(scenes, owned);
      const ms = performance.now() - started;
      b.end();
      least[owned ? "owned" : "copy"] = Math.min(least[owned ? "owned" : "copy"], ms);
    },
  });
}

globalThis.addEventListener("unload", () => {
  const per = (ms: number) => `${ms.toFixed(1)} ms, ${(ms * 1000 / properties).toFixed(2)} µs per edge`;
  console.log(`${properties} edges; least: copy ${per(least.copy)}; in place ${per(least.owned)}`);
});
