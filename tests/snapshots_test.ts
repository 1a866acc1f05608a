/**
 * Decoded-scene snapshots (see tests/support/snapshot.ts): each fixture is read, decoded by
 * `decode.auto` and resolved by `constraints.resolve` — what `partgraph inspect` shows — and its
 * readable dump compared with the committed one. Corpus fixtures skip when the corpus is absent.
 */
import type { Document } from "@gltf-transform/core";
import { runGraph } from "../mod.ts";
import { INSPECT_GRAPH } from "../cli/tools.ts";
import { corpusFile, withoutCorpus } from "./support/corpus.ts";
import { assertSnapshot, sceneSnapshot } from "./support/snapshot.ts";

const CORPUS_FIXTURES = [
  "aircraft/sketchbook_airplane.glb",
  "freelancer/librelancer_monkey.3db",
  "carnivores/synthetic_quad.3df",
  "carnivores/synthetic_quad.car",
  "dson/game_engine_mouth_geograft.duf",
  "dson/synthetic_rigidity.dsf",
];

for (const fixture of CORPUS_FIXTURES) {
  Deno.test({
    name: `snapshot: ${fixture} decoded and resolved`,
    ignore: withoutCorpus(fixture),
    async fn() {
      const run = await runGraph(INSPECT_GRAPH, { inputs: { file: corpusFile(fixture)! }, cacheDir: false });
      await assertSnapshot(fixture.replace("/", "__"), sceneSnapshot(run.outputs.scene as Document));
    },
  });
}

Deno.test("snapshot: the demo fighter, rigged", async () => {
  const run = await runGraph({
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      rig: { type: "graph", graph: "graphs/rig.json", inputs: { scene: "fighter.scene" } },
    },
    outputs: { scene: "rig.scene" },
  }, { cacheDir: false });
  await assertSnapshot("demo__fighter_rigged", sceneSnapshot(run.outputs.scene as Document));
});
