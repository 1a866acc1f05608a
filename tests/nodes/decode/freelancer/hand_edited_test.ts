/**
 * Compounds as mod tools and hand edits leave them: `Cons` rotations and hardpoint orientations that
 * are scaled, mirrored or sheared (the game uses the nine floats as a matrix as stored), joint axes
 * that are not unit length or are zero, and non-zero offsets. Expected transforms are computed here
 * from the stored floats (`T(t)·R`, R by rows), not from the decoder.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import {
  compoundTree,
  type ConstraintSpec,
  type HardpointSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf } from "../../../support/freelancer/encode_utf.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import type { JsonValue } from "../../../../runtime/node.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { assertValid, refTo, triangleMesh } from "./triangle_models.ts";
import { byName, type Mat4, mul, mulRows, placement, rotationRows } from "./fixtures.ts";

const f32 = (values: readonly number[]) => Array.from(new Float32Array(values));

function assertMatrix(actual: ArrayLike<number>, expected: Mat4, label: string): void {
  const worst = Math.max(...expected.map((v, i) => Math.abs(actual[i] - v)));
  assert.ok(worst < 1e-5, `${label}: off by ${worst}\n${Array.from(actual)}\n${expected}`);
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const TURN = rotationRows([0, 1, 0], 30);
/** Uniform scale 2 after a 30° turn (a part scaled in a UTF editor). */
const SCALED = TURN.map((v) => v * 2);
/** A turn with the child's X mirrored (a left wing made from a right one). */
const MIRRORED = mulRows(TURN, [-1, 0, 0, 0, 1, 0, 0, 0, 1]);
/** Non-uniform scale (1, 0.5, 3). */
const STRETCHED = mulRows(rotationRows([1, 1, 0], 40), [1, 0, 0, 0, 0.5, 0, 0, 0, 3]);
/** X leaning 20° towards Y. */
const SHEARED = [1, Math.sin(20 * Math.PI / 180), 0, 0, Math.cos(20 * Math.PI / 180), 0, 0, 0, 1];

async function decodeAndResolve(
  constraints: ConstraintSpec[],
  hardpoints: HardpointSpec[] = [],
  pose: Record<string, JsonValue> = {},
) {
  const children = [...new Set(constraints.map((c) => c.child))];
  const tree = compoundTree({
    meshes: [{ name: "m.vms", data: triangleMesh(["hull"]) }],
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo("m.vms", 1)], hardpoints } },
      ...children.map((name) => ({ name, fileName: `${name}.3db`, fragment: { lods: [refTo("m.vms", 1)] } })),
    ],
    constraints,
  });
  const ctx = testContext();
  const decoded = await runNode(decodeCmp, { bytes: { bytes: encodeUtf(tree), name: "mod.cmp" } }, {}, ctx);
  const { scene } = await runNode(constraintsResolve, { scene: decoded.scene }, { pose }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const fix = (child: string, rotation: number[], translation = [1, 2, 3]): ConstraintSpec => ({
  kind: "fix",
  parent: "Root",
  child,
  translation,
  rotation,
});

Deno.test("a scaled, mirrored or stretched Fix rotation draws the part as the stored matrix does, with a warning", async () => {
  const { scene, warnings } = await decodeAndResolve([
    fix("Scaled", SCALED),
    fix("Mirrored", MIRRORED, [-4, 0, 1]),
    fix("Stretched", STRETCHED, [0, 5, 0]),
  ]);
  const all = warnings.join("\n");
  for (
    const [part, rows, t, says] of [
      ["Scaled", SCALED, [1, 2, 3], "scaled by (2, 2, 2)"],
      [
        "Mirrored",
        MIRRORED,
        [-4, 0, 1],
        "mirrored (determinant < 0), not a rotation; drawn with its nearest rotation and scale (-1, 1, 1); glTF viewers flip its winding, the game does not",
      ],
      ["Stretched", STRETCHED, [0, 5, 0], "scaled by (1, 0.5, 3)"],
    ] as const
  ) {
    // Before: the scale and mirror were dropped (the quaternion of a non-rotation), silently.
    assertMatrix(byName(scene, part).getWorldMatrix(), placement(t, f32(rows)), part);
    assert.ok(
      warnings.some((w) => w.includes(`Fix constraint of part '${part}' (byte `) && w.includes(says)),
      `${part}: ${all}`,
    );
  }
  await assertValid(scene);
});

Deno.test("a sheared rotation keeps its nearest rotation and axis lengths, and says the shear is lost", async () => {
  const { scene, warnings } = await decodeAndResolve([fix("Sheared", SHEARED)]);
  const warning = warnings.find((w) => w.includes("constraint of part 'Sheared'"));
  assert.ok(
    warning?.includes("sheared (axes 20° off square)") && warning.includes("shear is lost"),
    warnings.join("\n"),
  );
  // The stored columns lean X 20° towards Y; the polar rotation splits it: ±10° about Z.
  const m = byName(scene, "Sheared").getWorldMatrix();
  const xAngle = Math.atan2(m[1], m[0]) * 180 / Math.PI;
  assert.ok(Math.abs(xAngle + 10) < 0.01, `X axis at ${xAngle}°`);
  const lengths = [0, 4, 8].map((c) => Math.hypot(m[c], m[c + 1], m[c + 2]));
  assert.ok(lengths.every((l) => Math.abs(l - 1) < 1e-3), `axis lengths ${lengths}`);
  await assertValid(scene);
});

Deno.test("a Rev joint's scaled rotation is kept under its pivot; a degenerate one is named", async () => {
  const { scene, warnings } = await decodeAndResolve([
    {
      kind: "rev",
      parent: "Root",
      child: "Turret",
      translation: [0, 1, 0],
      rotation: SCALED,
      axis: [0, 1, 0],
      min: -1,
      max: 1,
    },
    fix("Flat", [1, 0, 0, 0, 0, 0, 0, 0, 1]),
  ]);
  assertMatrix(byName(scene, "Turret").getWorldMatrix(), placement([0, 1, 0], f32(SCALED)), "Turret at rest");
  assert.ok(
    warnings.some((w) => w.includes("Rev constraint of part 'Turret'") && w.includes("scaled by (2, 2, 2)")),
  );
  assert.ok(
    warnings.some((w) => w.includes("part 'Flat'") && w.includes("degenerate") && w.includes("unrotated")),
  );
  await assertValid(scene);
});

Deno.test("a Pris axis of length 2 slides twice as far (limits scaled); a long Rev axis and a zero one are named", async () => {
  const { scene, warnings } = await decodeAndResolve(
    [
      {
        kind: "pris",
        parent: "Root",
        child: "Slider",
        translation: [0, 0, 1],
        rotation: IDENTITY,
        axis: [0, 0, 2],
        min: 0,
        max: 5,
      },
      {
        kind: "rev",
        parent: "Root",
        child: "Door",
        translation: [0, 0, 0],
        rotation: IDENTITY,
        axis: [0, 3, 0],
        min: 0,
        max: Math.PI,
      },
      {
        kind: "rev",
        parent: "Root",
        child: "Hatch",
        translation: [0, 0, 0],
        rotation: IDENTITY,
        axis: [0, 0, 0],
        min: 0,
        max: 1,
      },
    ],
    [],
    { Slider: 10, Door: 90, Hatch: 30 },
  );
  const all = warnings.join("\n");
  // The game puts the slider at t + axis·d: at its max (d = 5), 10 units along +Z.
  const pivot = byName(scene, "Slider_joint").getExtras() as { min: number; max: number };
  assert.deepEqual([pivot.min, pivot.max], [0, 10], "limits in units slid (before: 0..5)");
  assertMatrix(byName(scene, "Slider").getWorldMatrix(), placement([0, 0, 11], IDENTITY), "Slider at d = 5");
  assert.ok(/Pris constraint of part 'Slider'.*length 2, not 1; .*scaled by 2/.test(all), all);
  // A revolute axis of length 3 turns about its direction (+Y): 90° takes the door's X to −Z.
  const door = byName(scene, "Door").getWorldMatrix();
  assertMatrix(door, placement([0, 0, 0], rotationRows([0, 1, 0], 90)), "Door at 90°");
  assert.ok(
    /Rev constraint of part 'Door'.*length 3, not 1; the joint turns about its direction/.test(all),
    all,
  );
  assert.ok(
    /Rev constraint of part 'Hatch' \(byte (\d+)\): axis \(0, 0, 0\) at byte \d+ has no direction/.test(all),
    all,
  );
  // The game turns nothing about no axis: the hatch stays at rest, its limits 0..0 (before: -0..57.3°,
  // turned 30° about the parent's X).
  const hatch = byName(scene, "Hatch_joint").getExtras() as { min: number; max: number };
  assert.deepEqual([hatch.min, hatch.max], [0, 0]);
  assertMatrix(byName(scene, "Hatch").getWorldMatrix(), placement([0, 0, 0], IDENTITY), "Hatch at rest");
  await assertValid(scene);
});

Deno.test("a non-zero offset is named (placed as LancerEdit's exporter places it, kept in extras)", async () => {
  const { scene, warnings } = await decodeAndResolve([
    {
      kind: "rev",
      parent: "Root",
      child: "Arm",
      translation: [1, 0, 0],
      rotation: IDENTITY,
      offset: [0, 0.5, 0],
      axis: [0, 1, 0],
      min: 0,
      max: 1,
    },
  ]);
  assert.ok(
    warnings.some((w) =>
      w.startsWith("1 constraint(s) have a non-zero offset") &&
      /Rev constraint of part 'Arm' \(byte \d+\), offset \(0, 0.5, 0\) at byte \d+: Librelancer draws the part at \(1, 0.5, 0\)/
        .test(w)
    ),
    warnings.join("\n"),
  );
  assertMatrix(byName(scene, "Arm").getWorldMatrix(), placement([1, 0, 0], IDENTITY), "Arm");
  assert.deepEqual((byName(scene, "Arm").getExtras() as { offset: number[] }).offset, [0, 0.5, 0]);
});

Deno.test("a hardpoint with a scaled Orientation keeps its scale and is named", async () => {
  const { scene, warnings } = await decodeAndResolve([], [
    { name: "HpBig", kind: "fix", position: [1, 0, 0], orientation: SCALED },
    { name: "HpMirror", kind: "fix", position: [0, 1, 0], orientation: MIRRORED },
  ]);
  assertMatrix(byName(scene, "HpBig").getWorldMatrix(), placement([1, 0, 0], f32(SCALED)), "HpBig");
  assertMatrix(byName(scene, "HpMirror").getWorldMatrix(), placement([0, 1, 0], f32(MIRRORED)), "HpMirror");
  assert.ok(
    warnings.some((w) =>
      w.includes("hardpoint 'HpBig' (part 'Root'): Orientation (byte ") && w.includes("scaled by (2, 2, 2)")
    ),
  );
  assert.ok(warnings.some((w) => w.includes("hardpoint 'HpMirror'") && w.includes("mirrored")));
  await assertValid(scene);
});

Deno.test("rotations as exporters and people type them (f32, 4 decimals) are rotations: no warning, no scale", async () => {
  const typed = [0.7071, 0, 0.7071, 0, 1, 0, -0.7071, 0, 0.7071];
  const { scene, warnings } = await decodeAndResolve(
    [fix("Typed", typed), fix("Exported", f32(rotationRows([1, 2, 3], 77)))],
    [{ name: "HpTyped", kind: "fix", position: [0, 0, 0], orientation: typed }],
  );
  assert.deepEqual(warnings.filter((w) => /rotation|Orientation|axis|offset/.test(w)), []);
  for (const name of ["Typed", "Exported", "HpTyped"]) {
    assert.deepEqual(byName(scene, name).getScale(), [1, 1, 1]);
  }
});

Deno.test("limits stored the wrong way round (min > max) are read as the range between them, with a warning", async () => {
  const { scene, warnings } = await decodeAndResolve([
    {
      kind: "rev",
      parent: "Root",
      child: "Flap",
      translation: [0, 0, 0],
      rotation: IDENTITY,
      axis: [1, 0, 0],
      min: Math.PI / 2,
      max: -Math.PI / 4,
    },
    {
      kind: "pris",
      parent: "Root",
      child: "Gear",
      translation: [0, 0, 0],
      rotation: IDENTITY,
      axis: [0, 1, 0],
      min: 3,
      max: -2,
    },
  ]);
  const all = warnings.join("\n");
  const flap = byName(scene, "Flap_joint").getExtras() as { min: number; max: number };
  assert.ok(Math.abs(flap.min + 45) < 1e-4 && Math.abs(flap.max - 90) < 1e-4, `${flap.min}..${flap.max}`);
  assert.ok(
    /Rev constraint of part 'Flap' \(byte \d+\): rotation limits stored as min 90[.\d]*° > max -45[.\d]*°; read as -45[.\d]*°..90[.\d]*°/
      .test(all),
    all,
  );
  assert.ok(/Pris constraint of part 'Gear'.*min 3 > max -2; read as -2..3/.test(all), all);
});

Deno.test("a door mirrored from another, its limits negated but not swapped, is read as the range without a warning", async () => {
  const door = (child: string, min: number, max: number): ConstraintSpec => ({
    kind: "rev",
    parent: "Root",
    child,
    translation: [0, 0, 0],
    rotation: IDENTITY,
    axis: [0, 0, 1],
    min,
    max,
  });
  const { scene, warnings } = await decodeAndResolve([
    door("DoorRight", -0.25, 1.2),
    door("DoorLeft", 0.25, -1.2), // DoorRight's limits negated: a mirror without the swap
    door("Hatch", 0.5, -0.75), // no record holds (-0.5, 0.75): a hand edit, named
  ]);
  const range = (name: string) => {
    const { min, max } = byName(scene, `${name}_joint`).getExtras() as { min: number; max: number };
    return [min, max].map((v) => Math.round(v * 1e3) / 1e3);
  };
  const deg = (r: number) => Math.round(Math.fround(r) * 180 / Math.PI * 1e3) / 1e3;
  assert.deepEqual(range("DoorLeft"), [deg(-1.2), deg(0.25)]);
  assert.deepEqual(range("Hatch"), [deg(-0.75), deg(0.5)]);
  const limits = warnings.filter((w) => w.includes("limits stored as"));
  assert.equal(limits.length, 1, limits.join("\n"));
  assert.match(limits[0], /^Rev constraint of part 'Hatch'/);
});

Deno.test("a part attached to a scaled part is scaled and moved with it, as W_child = W_parent·T(t)·R", async () => {
  const { scene } = await decodeAndResolve([
    fix("Scaled", SCALED),
    { kind: "fix", parent: "Scaled", child: "Tip", translation: [1, 0, 0], rotation: IDENTITY },
  ]);
  const expected = mul(placement([1, 2, 3], f32(SCALED)), placement([1, 0, 0], IDENTITY));
  assertMatrix(byName(scene, "Tip").getWorldMatrix(), expected, "Tip");
  assert.deepEqual(byName(scene, "Tip").getScale(), [1, 1, 1], "the scale is the parent's, not repeated");
});

Deno.test("an all-zero rotation or Orientation (a tool that never fills it) is identity with a warning (before: 180° about X, silently)", async () => {
  const zero = new Array(9).fill(0);
  const { scene, warnings } = await decodeAndResolve([fix("Blank", zero)], [
    { name: "HpBlank", kind: "fix", position: [0, 0, 1], orientation: zero },
  ]);
  for (const name of ["Blank", "HpBlank"]) {
    assert.deepEqual(byName(scene, name).getRotation(), [0, 0, 0, 1], name);
    assert.deepEqual(byName(scene, name).getScale(), [1, 1, 1], name);
  }
  assert.ok(warnings.some((w) => w.includes("Fix constraint of part 'Blank'") && w.includes("degenerate")));
  assert.ok(warnings.some((w) => w.includes("hardpoint 'HpBlank'") && w.includes("degenerate")));
  await assertValid(scene);
});
