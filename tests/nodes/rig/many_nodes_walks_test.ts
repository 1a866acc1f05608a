/**
 * The rig's six nodes on a scene of very many nodes walk its tree a fixed, small number of times, counted
 * (not timed): the children listed (`Node.listChildren` calls) per node stay the same from 2,000 to 20,000
 * empty nodes beside the demo fighter (a CAD export's or a game rip's bare transforms: every one a scene
 * root, or all under one group), so no walk is nested in another, and stay within a budget, so no extra
 * walk of every node creeps in. The hostile fuzz's million-node fighter (seed 7102 case 25) paid each walk
 * a million times, in each node's copy of the scene.
 *
 * Measured before the change (`scene_order.ts`: top-level nodes, part nodes and the default scene's order
 * walked once per state of the tree, shared by the rig's readings): 23 (flat) and 25 (one group) walks a
 * node with the scene handed over, 26 and 29 with each node copying it; after: 11, 13, 16 and 19.
 */
import assert from "node:assert/strict";
import { type Document, Node } from "@gltf-transform/core";
import { buildFighterScene } from "../../../nodes/demo/fighter_run.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigAssignSide } from "../../../nodes/rig/assign_side.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import type { JsonValue } from "../../../runtime/node.ts";
import { runNode, testContext } from "../../support/context.ts";

/** Walks a node above which a walk of every node was added (after the change: 13 handed over, 19 copied). */
const BUDGET = { owned: 15, copied: 21 };

type Shape = "flat" | "one-group";

/** The demo fighter beside `count` empty nodes, each a scene root or all under one group. */
function manyNodes(shape: Shape, count: number): Document {
  const doc = buildFighterScene(2);
  const scene = doc.getRoot().listScenes()[0];
  const holder = shape === "flat" ? scene : doc.createNode("Empties");
  if (holder !== scene) scene.addChild(holder as Node);
  for (let i = 0; i < count; i++) holder.addChild(doc.createNode(""));
  return doc;
}

/** `listChildren` calls of the rig's six nodes on {@link manyNodes}, owned or each copying. */
async function walks(shape: Shape, count: number, owned: boolean): Promise<number> {
  const { listChildren } = Node.prototype;
  let calls = 0;
  Node.prototype.listChildren = function (this: Node) {
    calls++;
    return listChildren.call(this);
  };
  try {
    const ctx = { ...testContext(), owns: () => owned };
    let scene = manyNodes(shape, count);
    for (const node of [rigParts, rigDetectPanels, rigFitHinge, rigAssignSide, rigInsertPivot]) {
      // As graphs/aircraft_file.json runs them: the frame found from the geometry.
      const params: Record<string, JsonValue> = node === rigFitHinge || node === rigAssignSide
        ? { forward: "auto", up: "auto" }
        : {};
      scene = (await runNode(node, { scene }, params, ctx)).scene;
    }
    await runNode(rigReport, { scene }, {}, ctx);
    return calls;
  } finally {
    Node.prototype.listChildren = listChildren;
  }
}

for (const shape of ["flat", "one-group"] as Shape[]) {
  for (const owned of [true, false]) {
    const how = owned ? "scene handed over" : "each node copying";
    Deno.test(`rig nodes on many nodes (${shape}, ${how}): a fixed, small number of tree walks per node`, async () => {
      // Per empty node: the fighter's own walks (its few dozen nodes, nothing beside them) taken off.
      const fighter = await walks(shape, 0, owned);
      const small = (await walks(shape, 2_000, owned) - fighter) / 2_000;
      const large = (await walks(shape, 20_000, owned) - fighter) / 20_000;
      assert.ok(
        Math.abs(large - small) < 0.1,
        `${small.toFixed(2)} walks per node at 2,000 nodes, ${large.toFixed(2)} at 20,000`,
      );
      const budget = BUDGET[owned ? "owned" : "copied"];
      assert.ok(large <= budget, `${large.toFixed(2)} walks per node (budget ${budget})`);
    });
  }
}
