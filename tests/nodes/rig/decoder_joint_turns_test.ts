/**
 * Decoder joints turn rigidly too: every rotation pivot `constraints.resolve` makes for a Freelancer
 * compound (Rev, Cyl, Sphere and Loose joints, nested under each other) moves the parts under it onto
 * the ideal rotation about its world hinge, before and after the rig runs on the scene.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { isSimilarity } from "../../../nodes/rig/unscale.ts";
import { runNode } from "../../support/context.ts";
import { buildCompound } from "../decode/freelancer/fixtures.ts";
import { rig } from "./pipeline.ts";
import { measureTurns, rotationPivots } from "./rigid_turns.ts";

Deno.test("Freelancer joint pivots turn their parts rigidly, before and after the rig", async () => {
  const { bytes } = buildCompound();
  const decoded = (await runNode(decodeCmp, { bytes: { bytes, name: "ship.cmp" } }, {})).scene as Document;
  const resolved = (await runNode(constraintsResolve, { scene: decoded }, {})).scene as Document;
  const rigged = (await rig(resolved)).scene;
  for (const scene of [resolved, rigged]) {
    const pivots = rotationPivots(scene);
    // Turret (rev), Piston (cyl) and Radar, Cargo (sphere, loose: three turns each).
    assertEquals(pivots.length, 8);
    for (const pivot of pivots) {
      assert(isSimilarity(pivot.getWorldMatrix()), `${pivot.getName()}: similarity`);
    }
    for (const turn of measureTurns(scene, pivots)) {
      assert(turn.offIdeal < 1e-9, `${turn.pivot}: ${turn.offIdeal} off the ideal rotation`);
      assertEquals(turn.othersMoved, 0, turn.pivot);
    }
  }
});
