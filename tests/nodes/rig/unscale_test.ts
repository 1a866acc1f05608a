/** `planUnscale`: the unscale node makes a parent's world a similarity, in transforms writers keep. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { mat4 } from "gl-matrix";
import { isSimilarity, isUniformlyScaled, planUnscale } from "../../../nodes/rig/unscale.ts";
import { multiply, type Quat, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { axisAngle } from "./fixtures.ts";

// gl-matrix's own arrays are float32: build in double, as glTF-Transform composes node matrices.
const trs = (rotation: Quat, scale: Vec3, translation: Vec3 = [0, 0, 0]) =>
  Array.from(
    mat4.fromRotationTranslationScale(new Float64Array(16) as unknown as mat4, rotation, translation, scale),
  );

/** No component vector within the writers' 1e-5 of identity without being identity. */
function kept(value: readonly number[], identity: readonly number[]): boolean {
  return value.every((x, k) => x === identity[k]) || value.some((x, k) => Math.abs(x - identity[k]) > 1e-5);
}

Deno.test("random non-uniform chains: the unscaled world is a similarity, mirrored like the parent", () => {
  const random = prng(16);
  const axis = (): Vec3 => [random() - 0.5, random() - 0.5, random() - 0.5];
  for (let i = 0; i < 200; i++) {
    const scale =
      (): Vec3 => [0.2 + 3 * random(), 0.2 + 3 * random(), (random() < 0.3 ? -1 : 1) * (0.2 + 3 * random())];
    const parent = multiply(
      trs(axisAngle(axis(), 360 * random()), scale()),
      trs(axisAngle(axis(), 360 * random()), scale()),
    );
    const own = axisAngle(axis(), 360 * random());
    const plan = planUnscale(parent, own, [random(), 0, random()]);
    assert(plan, `chain ${i} planned`);
    const world = multiply(parent, plan.matrix);
    assert(isSimilarity(world), `chain ${i}: similarity`);
    assertEquals(
      Math.sign(mat4.determinant(world as unknown as mat4)),
      Math.sign(mat4.determinant(parent as unknown as mat4)),
    );
    assert(
      kept(plan.rotation, [0, 0, 0, 1]) && kept(plan.scale, [1, 1, 1]) &&
        kept(plan.partRotation, [0, 0, 0, 1]),
    );
  }
});

Deno.test("a parent scaled along its own axes: the unscale node is a pure scale and the part keeps its rotation", () => {
  const own = axisAngle([0.3, 1, 0.2], 17);
  const plan = planUnscale(trs(axisAngle([1, 0, 0], 3), [1.15, 0.85, 1], [0, 0.2, -4.3]), own, [1, 0, 0])!;
  assertEquals(plan.rotation, [0, 0, 0, 1]);
  assertEquals(plan.partRotation, own);
  assertEquals(plan.partTranslation, [1, 0, 0]);
});

Deno.test("singular axes a hair off the parent's: another axis order, so no transform is dropped on write", () => {
  // A (1, 1, 3) scale whose axes are 1e-6 rad off: the plain singular basis is within 1e-5 of identity.
  const parent = multiply(
    trs(axisAngle([0, 1, 0], 1e-4), [1, 1, 3]),
    trs(axisAngle([0, 1, 0], -1e-4 + 6e-5), [1, 1, 1]),
  );
  const plan = planUnscale(parent, [0, 0, 0, 1], [0.5, 0, 0])!;
  assert(isSimilarity(multiply(parent, plan.matrix)));
  assert(plan.rotation.some((x, k) => Math.abs(x - [0, 0, 0, 1][k]) > 1e-5), `rotation ${plan.rotation}`);
  assert(kept(plan.partRotation, [0, 0, 0, 1]));
});

Deno.test("similarities need no unscale", () => {
  for (const scale of [[1, 1, 1], [2, 2, 2], [-1, 1, 1], [0.01, -0.01, 0.01]] as Vec3[]) {
    const parent = trs(axisAngle([1, 2, 3], 40), scale, [1, 2, 3]);
    assert(isUniformlyScaled(parent));
    assertEquals(planUnscale(parent, [0, 0, 0, 1], [0, 0, 0]), undefined);
  }
  assert(!isUniformlyScaled(trs([0, 0, 0, 1], [1, 1, 3])));
});
