/**
 * The fuzz pipeline hands each step's scene to the next, as `partgraph run` does (`ctx.owns`): counted,
 * not timed — the glTF-Transform nodes created while one case runs, on the hostile many-nodes habit
 * (bare nodes, half of them tops of the scene and half under its first node) over the demo fighter
 * and over a Carnivores car written out as glTF (whose source format sends it to the bone resolver).
 * When no step owned its input, every rig node copied the scene, and `constraints.resolve` did too for
 * the car: 6–7 nodes made per node of the file, where the decode's one is all a run makes.
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { buildFighterScene } from "../../nodes/demo/fighter_run.ts";
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../support/context.ts";
import { nodesCreated } from "../support/nodes_created.ts";
import { prng } from "../support/prng.ts";
import { runFuzzCase } from "./pipeline.ts";
import { fuzzSeeds } from "./seeds.ts";

/** `count` bare nodes added as the hostile many-nodes family adds them, on one side or the other. */
function addBareNodes(doc: Document, count: number, seed: number): Document {
  const random = prng(seed);
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const first = doc.getRoot().listNodes()[0];
  for (let i = 0; i < count; i++) {
    // Runs of each kind, as files grow them: a tool appends a batch of roots, or of one node's children.
    const under = Math.floor(i / 250) % 2 === 0 ? random() < 0.9 : random() < 0.1;
    (under ? first : scene).addChild(doc.createNode(""));
  }
  return doc;
}

/** The `.car` fuzz seed decoded and resolved, as the hostile set's `car` base is made. */
async function carScene(): Promise<Document> {
  const seed = (await fuzzSeeds()).car;
  const ctx = testContext();
  const decoded =
    (await runNode(decodeAuto, { bytes: { bytes: seed.bytes, name: seed.name } }, {}, ctx)).scene;
  const resolved = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene;
  return await readGltf(await writeGlb(resolved, { generator: "partgraph fuzz" }));
}

const BARE = 2_000;

for (
  const [base, make] of [["fighter", () => Promise.resolve(buildFighterScene(1))], ["car", carScene]] as const
) {
  Deno.test(`fuzz hand-over: ${base} with ${BARE} bare nodes, about one node made per node of the file`, async () => {
    const doc = addBareNodes(await make(), BARE, 0x5eed + base.length);
    const inFile = doc.getRoot().listNodes().length;
    const bytes = await writeGlb(doc, { generator: "partgraph fuzz" });
    let outcome = "";
    const made = await nodesCreated(async () => {
      outcome = (await runFuzzCase(bytes, `many-nodes-${base}.glb`)).outcome;
    });
    assert(outcome === "ok" || outcome === "typed", `the case ended ${outcome}`);
    // The decode makes each node once; the rig adds a few pivots. Before: a copy per rig node (and
    // per resolve for the car), 6.0 and 7.0 per node.
    const perNode = made / inFile;
    assert(perNode < 1.2, `${made} nodes made for ${inFile} in the file: ${perNode.toFixed(2)} per node`);
  });
}
