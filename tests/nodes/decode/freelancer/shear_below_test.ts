/**
 * Parts, pivots and hardpoints below a part whose `Cons` matrix is sheared or unevenly scaled
 * (`mod_tools_wave3.ts`): the game composes the stored matrices (`W_child = W_parent·T(t)·R`), so they
 * sit where those put them, and the sheared part is named. Expected positions and axes are worked out
 * here from the stored f32 values. The seeds are not those the resolver was measured on (1–20).
 */
import assert from "node:assert/strict";
import { type Habit3, HABITS3, modToolFile3 } from "./mod_tools_wave3.ts";
import { judge } from "./mod_tools_judge.ts";
import {
  animationTree,
  compoundTree,
  type ConstraintSpec,
  type HardpointSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import type { JsonValue } from "../../../../runtime/node.ts";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { refTo, triangleMesh } from "./triangle_models.ts";
import { byName, mulRows, rotationRows } from "./fixtures.ts";

const SEEDS = [401, 402, 403, 404, 405, 406, 407, 408, 409, 410];

for (const habit of HABITS3) {
  Deno.test(`mod tools wave 3, ${habit}: everything below the part sits where the stored matrices put it`, async () => {
    for (const seed of SEEDS) {
      const file = modToolFile3(habit as Habit3, seed);
      const { outcome, problems, warnings } = await judge(file);
      const label = `${habit} seed ${seed}: ${outcome} ${problems.join("; ")}\n${warnings.join("\n")}`;
      // Before: 10 of 10 sheared files wrong (the parts below a sheared part off by up to 3.5 units).
      assert.ok(outcome === "right" || outcome === "right-warned", label);
      if (habit === "sheared_parent") {
        const said = warnings.filter((w) => /part 'Wing'.*sheared/.test(w));
        assert.equal(said.length, 1, label);
        assert.match(
          said[0],
          /shear is lost on its mesh.*\d+ part\(s\) and \d+ hardpoint\(s\) below it are placed/,
        );
      }
    }
  });
}

const f32 = (values: readonly number[]) => Array.from(new Float32Array(values));
const apply = (m: readonly number[], p: readonly number[]) =>
  [0, 1, 2].map((i) => m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2]);
/** X leaning 25° towards Y, turned 40° about (1, 2, 3). */
const SHEARED = f32(
  mulRows(rotationRows([1, 2, 3], 40), [1, Math.tan(25 * Math.PI / 180), 0, 0, 1, 0, 0, 0, 1]),
);
/** Z leaning 15° towards X. */
const SHEARED2 = f32([1, 0, Math.tan(15 * Math.PI / 180), 0, 1, 0, 0, 0, 1]);

async function resolveParts(
  records: ConstraintSpec[],
  hardpoints: Record<string, HardpointSpec[]>,
  pose = {},
  extra: UtfNode[] = [],
) {
  const names = ["Root", ...records.map((r) => r.child)];
  const tree = compoundTree({
    meshes: [{ name: "m.vms", data: triangleMesh(["hull"]) }],
    extra,
    parts: names.map((name) => ({
      name,
      fileName: `${name}.3db`,
      fragment: { lods: [refTo("m.vms", 1)], hardpoints: hardpoints[name] ?? [] },
    })),
    constraints: records,
  });
  const ctx = testContext();
  const bytes = { bytes: encodeUtf(tree), name: "s.cmp" };
  const decoded = await runNode(decodeCmp, { bytes }, { libraries: "none" }, ctx);
  const { scene } = await runNode(
    constraintsResolve,
    { scene: decoded.scene },
    { pose: pose as Record<string, JsonValue> },
    ctx,
  );
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const hp = (name: string, position: number[]): HardpointSpec => ({
  name,
  kind: "fix",
  position,
  orientation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
});

const near = (actual: ArrayLike<number>, expected: readonly number[], label: string) => {
  const off = Math.max(...expected.map((v, i) => Math.abs(actual[i] - v)));
  assert.ok(off < 1e-4, `${label}: ${Array.from(actual)} ≠ ${expected}`);
};

Deno.test("a sheared part below a sheared part: its hardpoint sits where both stored matrices put it", async () => {
  const tA = [1, 2, 3], tB = [2, -1, 0.5], p = [0.5, 1.5, -2];
  const { scene, warnings } = await resolveParts([
    { kind: "fix", parent: "Root", child: "Wing", translation: tA, rotation: SHEARED },
    { kind: "fix", parent: "Wing", child: "Flap", translation: tB, rotation: SHEARED2 },
  ], { Flap: [hp("HpFlap", p)] });
  const expected = tA.map((v, i) => v + apply(SHEARED, tB.map((w, k) => w + apply(SHEARED2, p)[k]))[i]);
  near(byName(scene, "HpFlap").getWorldMatrix().slice(12, 15), expected, "HpFlap");
  near(
    byName(scene, "Flap").getWorldMatrix().slice(12, 15),
    tA.map((v, i) => v + apply(SHEARED, tB)[i]),
    "Flap",
  );
  assert.equal(warnings.filter((w) => /shear is lost/.test(w)).length, 2, warnings.join("\n"));
});

Deno.test("a Rev joint below a sheared part turns about the axis the game turns about, from where it puts it", async () => {
  const tA = [0, 1, 0], tB = [1, 1, 1], axis = [1, 0, 0];
  const { scene } = await resolveParts(
    [
      { kind: "fix", parent: "Root", child: "Wing", translation: tA, rotation: SHEARED },
      {
        kind: "rev",
        parent: "Wing",
        child: "Aileron",
        translation: tB,
        rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
        axis,
        min: -1,
        max: 1,
      },
    ],
    {},
    { Aileron: 20 },
  );
  const pivot = byName(scene, "Aileron_joint").getWorldMatrix();
  near(pivot.slice(12, 15), tA.map((v, i) => v + apply(SHEARED, tB)[i]), "pivot origin");
  // Before: the pivot's X ran along Q·S·axis, the stored matrix's nearest rotation and scale.
  const gameAxis = apply(SHEARED, axis);
  const x = [pivot[0], pivot[1], pivot[2]];
  const cos = (x[0] * gameAxis[0] + x[1] * gameAxis[1] + x[2] * gameAxis[2]) /
    (Math.hypot(...x) * Math.hypot(...gameAxis));
  assert.ok(cos > 1 - 1e-6, `pivot X ${x} is not along M·axis ${gameAxis} (cos ${cos})`);
});

/** A `Wing` on the sheared matrix at `WING_AT`, and below it a `Slider` Pris joint at `SLIDER_AT` along `SLIDE_AXIS`. */
const WING_AT = [0, 1, 0], SLIDER_AT = [1, 1, 1], SLIDE_AXIS = [0, 1, 0];
const shearedSlider = (max: number): ConstraintSpec[] => [
  { kind: "fix", parent: "Root", child: "Wing", translation: WING_AT, rotation: SHEARED },
  {
    kind: "pris",
    parent: "Wing",
    child: "Slider",
    translation: SLIDER_AT,
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    axis: SLIDE_AXIS,
    min: 0,
    max,
  },
];

Deno.test("a Pris joint below a sheared part slides as far as the game slides it at its limit", async () => {
  const max = 0.75;
  const records = shearedSlider(max);
  const rest = await resolveParts(records, {});
  const limit =
    (rest.scene.getRoot().listNodes().find((n) => n.getName() === "Slider_joint")!.getExtras() as {
      max: number;
    }).max;
  const { scene } = await resolveParts(records, {}, { Slider: limit });
  // The game: W_Wing·T(tB + axis·max): the slide is M·axis·max in the world.
  const expected = WING_AT.map((v, i) =>
    v + apply(SHEARED, SLIDER_AT.map((w, k) => w + SLIDE_AXIS[k] * Math.fround(max)))[i]
  );
  // Before: the pivot slid along Q·S·axis by its stored max, off the game's end point.
  near(byName(scene, "Slider").getWorldMatrix().slice(12, 15), expected, "Slider at its max");
});

Deno.test("a Pris joint's animation below a sheared part ends where the game's does", async () => {
  const d = 0.6;
  const records = shearedSlider(1);
  const script = animationTree({
    Sc_extend: [{
      parent: "Wing",
      child: "Slider",
      type: 0x1,
      interval: -1,
      keys: [{ time: 0, angle: 0 }, { time: 1, angle: d }],
    }],
  });
  const { scene } = await resolveParts(records, {}, {}, [script]);
  const channel = scene.getRoot().listAnimations()[0].listChannels()[0];
  const pivot = channel.getTargetNode()!;
  assert.equal(pivot.getName(), "Slider_joint");
  const last = [...channel.getSampler()!.getOutput()!.getArray()!].slice(-3) as [number, number, number];
  pivot.setTranslation(last);
  const expected = WING_AT.map((v, i) =>
    v + apply(SHEARED, SLIDER_AT.map((w, k) => w + SLIDE_AXIS[k] * Math.fround(d)))[i]
  );
  near(byName(scene, "Slider").getWorldMatrix().slice(12, 15), expected, "Slider at the last key");
});
