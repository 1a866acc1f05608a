/**
 * A rigid follower (`extra` of type `studio/node/rigid_follow`: a prop Daz keeps on a mesh's surface)
 * is not made to follow — glTF has no such constraint — so it is warned once, naming the first's JSON
 * path, instead of left silent; a node without one is not warned.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";

/** A figure and a ring on its second bone, the ring's instance carrying `extra`. */
function withRing(extra: unknown[]): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.node_library as Json[]).push({ id: "Ring", name: "Ring", label: "Ring", type: "prop" });
  const scene = json.scene as Json;
  (scene.nodes as Json[]).push({ id: "Ring-1", url: "#Ring", parent: "F-1:#F_bone1", extra });
  return json;
}

async function decoded(json: Json) {
  const ctx = testContext();
  const scene = (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "ring.duf" } }, {}, ctx))
    .scene as Document;
  return { scene, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("dson: a rigid follower is warned, naming its path; it stays under its parent as written", async () => {
  const follow = { type: "studio/node/rigid_follow", vertex_count: 16, rigidity_group: { id: "g" } };
  const { scene, warnings } = await decoded(withRing([{ type: "studio/node/other" }, follow]));
  const index = (withRing([]).scene as { nodes: unknown[] }).nodes.length - 1;
  assert.deepEqual(warnings, [
    `dson: ring.duf at /scene/nodes/${index}/extra/1: 1 rigid follower(s) (the first 'Ring-1') stay under ` +
    "their parents as written: Daz keeps them on a mesh's surface as it is posed or morphed, glTF has no " +
    "such constraint, so a posed or morphed figure leaves them behind",
  ]);
  const ring = scene.getRoot().listNodes().find((n) => n.getName() === "Ring")!;
  assert.equal(ring.getParentNode()?.getName(), "F_bone1");
  assert.deepEqual((await decoded(withRing([{ type: "studio/node/other" }]))).warnings, []);
});
