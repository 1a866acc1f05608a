/**
 * Surfaces on skin bones under a non-uniformly scaled armature (a unit conversion in one axis): the
 * pivot above each bone takes the scale out, so turning it turns every vertex weighted fully to the
 * bone rigidly about the pivot's world hinge, and the inverse bind matrices stay valid at rest.
 */
import { ok as assert } from "node:assert/strict";
import { type Quat, quatMultiply, type Vec3 } from "../../../nodes/rig/transform.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { axisAngle, maxDisplacement } from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { idealTurn } from "./rigid_turns.ts";
import { SKINNED_SURFACES, skinnedAircraft, skinnedWorld } from "./skinned_aircraft.ts";

Deno.test("skin bones under a (1, 1, 2.5)-scaled armature turn their vertices rigidly", async () => {
  const { doc, ranges } = skinnedAircraft({ armatureScale: [1, 1, 2.5] });
  const rest = skinnedWorld(nodeNamed(doc, "Aircraft"));
  const result = await rig(doc);
  assert(!result.ctx.warnings.some((w) => w.message.includes("shear")));
  const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  let size = 0;
  for (let v = 0; v < rest.length; v += 3) {
    size = Math.max(size, Math.hypot(rest[v], rest[v + 1], rest[v + 2]));
  }
  for (const scene of [result.scene, reread]) {
    const mesh = nodeNamed(scene, "Aircraft");
    assert(maxDisplacement(rest, skinnedWorld(mesh)) < 1e-5 * size, "pose kept at rest");
    const weights = mesh.getMesh()!.listPrimitives()[0].getAttribute("WEIGHTS_0")!;
    for (const surface of SKINNED_SURFACES) {
      const pivot = nodeNamed(scene, `HINGE_auto_${surface.bone}`);
      assert(pivot.getParentNode()!.getName().endsWith("_unscale"), `${surface.bone} unscaled`);
      const turnIdeally = idealTurn(pivot);
      const rotation = pivot.getRotation() as Quat;
      const [first, end] = ranges.get(surface.spec.name)!;
      let worst = 0;
      for (const degrees of [-20, 10, 20]) {
        pivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], degrees)));
        const turned = skinnedWorld(mesh);
        for (let v = first; v < end; v++) {
          if (weights.getElement(v, [0, 0, 0, 0])[0] !== 1) continue;
          const before = Array.from(rest.subarray(v * 3, v * 3 + 3)) as Vec3;
          const ideal = turnIdeally(before, degrees);
          worst = Math.max(worst, Math.hypot(...[0, 1, 2].map((k) => turned[v * 3 + k] - ideal[k])) / size);
        }
      }
      pivot.setRotation(rotation);
      assert(worst < 1e-6, `${surface.bone}: off the rigid turn by ${worst} of the model size`);
    }
  }
});
