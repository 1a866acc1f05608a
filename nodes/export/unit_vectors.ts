/**
 * How many 3-vectors of a float array are not unit length by the export repair's tolerance,
 * remembered per array (as `array_facts.ts` remembers its facts): the repair's check and the output
 * check read a normal array once between them. The repair's tolerance is stricter than the
 * validator's, so an array with none passes the validator's test too.
 *
 * @module
 */
import type { TypedArray } from "@gltf-transform/core";
import { UNIT_SQUARED_HIGH, UNIT_SQUARED_LOW, UNIT_TOLERANCE } from "./repair_attributes.ts";
import { factsRead } from "../../runtime/scene/array_facts.ts";

const memo = new WeakMap<TypedArray, number>();

/**
 * The vectors of `array` (x, y, z after x, y, z) whose length is not within the repair's tolerance
 * of 1, non-finite ones included; remembered for the array (never ask of one still being written).
 *
 * @example
 * ```ts
 * import { nonUnitVectors } from "./unit_vectors.ts";
 *
 * nonUnitVectors(new Float32Array([0, 0, 1, 0, 0, 2])); // 1
 * ```
 */
export function nonUnitVectors(array: TypedArray): number {
  let bad = memo.get(array);
  if (bad !== undefined) return bad;
  bad = 0;
  for (let i = 0; i + 2 < array.length; i += 3) {
    const x = array[i], y = array[i + 1], z = array[i + 2];
    const squared = x * x + y * y + z * z;
    // Well inside (1 ± tolerance)²: unit, decided without the slower Math.hypot.
    if (squared > UNIT_SQUARED_LOW && squared < UNIT_SQUARED_HIGH) continue;
    if (!(Math.abs(Math.hypot(x, y, z) - 1) <= UNIT_TOLERANCE)) bad++;
  }
  factsRead.values += array.length;
  memo.set(array, bad);
  return bad;
}
