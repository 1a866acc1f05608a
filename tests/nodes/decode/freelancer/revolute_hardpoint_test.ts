/**
 * Revolute hardpoints (`Hardpoints/Revolute/<name>/{Axis, Min, Max}`, turret mounts) checked as the
 * resolver checks joints: an axis not of unit length or of none, limits stored min > max and values
 * that are not finite are each named with the hardpoint and the byte offset of the leaf. The
 * offsets are found here by searching the encoded file for the stored floats.
 */
import assert from "node:assert/strict";
import { fragmentChildren, type HardpointSpec } from "../../../support/freelancer/encode_model.ts";
import { encodeFloats, encodeUtf, utfDir } from "../../../support/freelancer/encode_utf.ts";
import { decodeTree } from "./triangle_models.ts";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const rev = (name: string, axis: number[], min: number, max: number): HardpointSpec => ({
  name,
  kind: "rev",
  position: [0, 1, 0],
  orientation: IDENTITY,
  axis,
  min,
  max,
});

const HARDPOINTS = [
  rev("HpTurret01", [0, 1, 0], -1, 1),
  rev("HpLong", [0, 2, 0], -1, 1),
  rev("HpNone", [-0, -0, -0], -1, 1), // −0 makes its bytes findable
  rev("HpReversed", [0, 1, 0], 0.75, -0.25),
  rev("HpNaN", [Number.NaN, 7, 0], -1, 1),
];
const tree = () => utfDir("\\", fragmentChildren({ lods: [], hardpoints: HARDPOINTS }));

/** Where `values` (as f32) first occur in `bytes`, searched independently of the decoder. */
function offsetOf(bytes: Uint8Array, values: number[]): number {
  const needle = encodeFloats(values);
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
    return i;
  }
  throw new Error(`${values} not in the file`);
}

const degrees = (radians: number) => radians * 180 / Math.PI;

Deno.test("revolute hardpoints: long and zero axes, min > max and NaN are named by hardpoint and byte", async () => {
  const bytes = encodeUtf(tree());
  const { scene, warnings } = await decodeTree(tree(), "turret.3db");
  const about = (name: string) => warnings.filter((w) => w.startsWith(`hardpoint '${name}'`));
  assert.deepEqual(about("HpTurret01"), [], "a unit axis and ordered limits give no warning");
  const [long] = about("HpLong");
  assert.ok(long?.includes(`Axis (byte ${offsetOf(bytes, [0, 2, 0])}) (0, 2, 0) has length 2, not 1`), long);
  const [none] = about("HpNone");
  assert.ok(none?.includes(`Axis (byte ${offsetOf(bytes, [-0, -0, -0])}) (0, 0, 0) has no direction`), none);
  const [reversed] = about("HpReversed");
  assert.ok(
    reversed?.includes(`Min (byte ${offsetOf(bytes, [0.75])})`) &&
      reversed.includes(`Max (byte ${offsetOf(bytes, [-0.25])})`) && reversed.includes("read as"),
    reversed,
  );
  const [nan] = about("HpNaN");
  assert.ok(
    nan?.includes(`Axis (byte ${offsetOf(bytes, [Number.NaN, 7, 0])}) is short or holds non-finite`),
    nan,
  );

  const extras = (name: string) =>
    scene.getRoot().listNodes().find((n) => n.getName() === name)!.getExtras() as {
      min: number;
      max: number;
      axis: number[];
    };
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-4;
  const r = extras("HpReversed");
  assert.ok(close(r.min, degrees(-0.25)) && close(r.max, degrees(0.75)), `${r.min}..${r.max}`);
  assert.deepEqual(extras("HpLong").axis, [0, 2, 0], "the axis as stored (its direction is what turns)");
  assert.deepEqual(extras("HpNaN").axis, [0, 1, 0], "a non-finite axis falls back to +Y, as the default");
});
