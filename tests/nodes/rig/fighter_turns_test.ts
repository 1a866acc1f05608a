/**
 * The demo fighter's pivots turn their panels rigidly — the canards under the non-uniformly scaled
 * `Canards` group included — in memory and in the written file, with and without `zero_rest`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { rig } from "./pipeline.ts";
import { measureTurns, rotationPivots } from "./rigid_turns.ts";

for (const zeroRest of [false, true]) {
  Deno.test(`demo fighter${zeroRest ? ", zero_rest" : ""}: every pivot turns its panel rigidly`, async () => {
    const source = (await runNode(demoFighter, {})).scene;
    const rigged = await rig(source, { forward: "auto", up: "auto" }, {}, { zero_rest: zeroRest });
    assertEquals(rigged.ctx.warnings.filter((w) => w.message.includes("shear")), []);
    const glb = await writeGlb(rigged.scene, { generator: GENERATOR });
    const reread = await readGltf(glb);
    // The rig on its own output changes nothing.
    const again = await rig(reread, { forward: "auto", up: "auto" }, {}, { zero_rest: zeroRest });
    assertEquals(await writeGlb(again.scene, { generator: GENERATOR }), glb);
    for (const scene of [rigged.scene, reread]) {
      const pivots = rotationPivots(scene).filter((n) => n.getName().startsWith("HINGE_auto_"));
      assertEquals(pivots.length, 21);
      const turns = measureTurns(scene, pivots);
      const bad = turns.filter((t) => !(t.offIdeal <= 1e-6) || t.othersMoved !== 0);
      assertEquals(bad, []);
      for (const canard of ["HINGE_auto_Canard_R", "HINGE_auto_CanardLeft"]) {
        const turn = turns.find((t) => t.pivot === canard)!;
        assert(turn.angles.length === 4 && turn.offIdeal < 1e-6, `${canard}: ${turn.offIdeal}`);
      }
      if (zeroRest) {
        for (const pivot of pivots) {
          assertEquals(
            [...pivot.getTranslation(), ...pivot.getRotation()],
            [0, 0, 0, 0, 0, 0, 1],
            pivot.getName(),
          );
        }
      }
    }
  });
}
