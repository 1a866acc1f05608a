/**
 * `constraints.resolve` on a Carnivores scene with no bones to resolve (every `.car`, and a glTF a
 * partgraph run wrote from one) hands the scene on as it is where it cannot own it (the studio, a
 * test context), instead of copying every node: counted, not timed. A boned `.3df` is still resolved
 * on a copy, its input unchanged.
 *
 * @module
 */
import { ok as assert, strictEqual } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { readGltf, writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { nodesCreated } from "../../../support/nodes_created.ts";
import { fuzzSeeds } from "../../../fuzz/seeds.ts";

async function decoded(format: "car" | "3df"): Promise<Document> {
  const seed = (await fuzzSeeds())[format];
  return (await runNode(decodeAuto, { bytes: { bytes: seed.bytes, name: seed.name } })).scene;
}

Deno.test("resolve: a .car scene and a glTF written from one (2,000 more nodes) are handed on, not copied", async () => {
  const car = await decoded("car");
  // The hostile set's million-node car, small: the car resolved and written, then many bare nodes.
  const written = await readGltf(
    await writeGlb((await runNode(constraintsResolve, { scene: car })).scene, { generator: "t" }),
  );
  const scene = written.getRoot().listScenes()[0];
  for (let i = 0; i < 2_000; i++) scene.addChild(written.createNode(""));
  for (const input of [car, written]) {
    const ctx = testContext();
    let output: Document | undefined;
    const made = await nodesCreated(async () => {
      output = (await runNode(constraintsResolve, { scene: input }, {}, ctx)).scene;
    });
    // Before: a copy, one node made per node of the scene (2,001 for the written car).
    strictEqual(made, 0, `${made} nodes made resolving a scene of ${input.getRoot().listNodes().length}`);
    assert(output === input, "the scene itself is handed on");
    strictEqual(ctx.warnings.length, 0);
  }
});

Deno.test("resolve: a boned .3df is still resolved, on a copy", async () => {
  const limb = await decoded("3df");
  const before = limb.getRoot().listNodes().length;
  const resolved = (await runNode(constraintsResolve, { scene: limb })).scene as Document;
  assert(resolved !== limb);
  strictEqual(limb.getRoot().listSkins().length, 0, "the input keeps no skin");
  strictEqual(limb.getRoot().listNodes().length, before);
  strictEqual(resolved.getRoot().listSkins().length, 1);
  assert(resolved.getRoot().listNodes().length > before, "joints added");
});
