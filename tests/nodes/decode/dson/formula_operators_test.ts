/**
 * The DSON spec's formula operators beyond the four sums: `neg` (−n), `inv` (1/n) and
 * `spline_constant` (a step through its knots), in generated controller formulas as Daz writes them
 * (the input pushed first, then the knots, their count and the operator). Each expected weight is
 * worked out here from the spec's operation table, not from the decoder.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { prng } from "../../../support/prng.ts";
import { controlledFigure, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";

/** A figure with morph `M` at 0 and a controller `CTRL` at `dial` whose formula `operations` drive M. */
const controlled = (dial: number, operations: unknown[]) =>
  controlledFigure([{ output: "F:#M?value", operations }], dial);

const weightOf = (scene: Document, id: string) => {
  const mesh = scene.getRoot().listMeshes()[0];
  return mesh.getWeights()[(mesh.getExtras().targetNames as string[]).indexOf(id)];
};

/** The step `spline_constant` draws through `knots` at `x`: the last knot at or before x, else the first. */
function step(knots: readonly number[][], x: number): number {
  const sorted = [...knots].sort((a, b) => a[0] - b[0]);
  let y = sorted[0][1];
  for (const [kx, ky] of sorted) if (kx <= x) y = ky;
  return y;
}

/** Seeded formulas of each operator, with the weight they give M at the dial. */
function cases(seed: number) {
  const next = prng(seed);
  const out: { what: string; dial: number; operations: unknown[]; expected: number }[] = [];
  for (let k = 0; k < 12; k++) {
    const dial = Math.round(next() * 100) / 100;
    const c = Math.round((0.5 + next() * 2) * 100) / 100;
    const ctrl = { op: "push", url: "F:#CTRL?value" };
    const kind = k % 4;
    if (kind === 0) {
      out.push({
        what: `neg, times ${c}`,
        dial,
        operations: [ctrl, { op: "neg" }, { op: "push", val: c }, { op: "mult" }],
        expected: -dial * c,
      });
    } else if (kind === 1) {
      out.push({
        what: `inv of dial + ${c}`,
        dial,
        operations: [ctrl, { op: "push", val: c }, { op: "add" }, { op: "inv" }],
        expected: 1 / (dial + c),
      });
    } else {
      // Knots at 0, two inner points and 1, listed in the file's order or shuffled.
      const inner = [next() * 0.5, 0.5 + next() * 0.5].map((x) => Math.round(x * 100) / 100);
      const knots = [[0, 0], [inner[0], next()], [inner[1], next()], [1, 1]].map((
        [x, y],
      ) => [x, Math.round(y * 100) / 100]);
      if (kind === 3) knots.reverse();
      out.push({
        what: `spline_constant through ${JSON.stringify(knots)}`,
        dial,
        operations: [ctrl, ...knots.map((val) => ({ op: "push", val })), { op: "push", val: knots.length }, {
          op: "spline_constant",
        }],
        expected: step(knots, dial),
      });
    }
  }
  return out;
}

Deno.test("dson formula operators: neg, inv and spline_constant drive the morph as the spec's table says (12 + 12 held out)", async () => {
  for (const seed of [7, 1007]) {
    let wrong = 0;
    for (const c of cases(seed)) {
      const { scene, warnings } = await decodeJson(controlled(c.dial, c.operations), "ops.duf");
      const got = weightOf(scene, "M");
      if (!(Math.abs(got - c.expected) < 1e-6) || warnings.length) {
        wrong++;
        console.log(
          `seed ${seed} ${c.what} at ${c.dial}: ${got} (expected ${c.expected}) ${warnings.join(" / ")}`,
        );
      }
    }
    console.log(`seed ${seed}: ${wrong} of 12 wrong`);
    assert.equal(wrong, 0);
  }
});

Deno.test("dson formula operators: a preset re-drives them; spline_constant holds a knot's value up to the next", async () => {
  const knots = [[0, 0], [0.3, 0.25], [0.6, 0.8], [1, 1]];
  const ops = [
    { op: "push", url: "F:#CTRL?value" },
    ...knots.map((val) => ({ op: "push", val })),
    { op: "push", val: 4 },
    { op: "spline_constant" },
  ];
  const { scene } = await decodeJson(controlled(0, ops), "ops.duf");
  assert.equal(weightOf(scene, "M"), 0);
  for (
    const [dial, expected] of [[0.29, 0], [0.3, 0.25], [0.59, 0.25], [0.6, 0.8], [0.99, 0.8], [1, 1], [2, 1]]
  ) {
    const shaped = await applyPreset(scene, shapePreset([["CTRL", dial]]));
    assert.ok(
      Math.abs(weightOf(shaped.scene, "M") - expected) < 1e-6,
      `${dial}: ${weightOf(shaped.scene, "M")}`,
    );
  }
  // inv of 0 is no number: the morph keeps its value, warned as any formula that cannot be evaluated.
  const zero = await decodeJson(
    controlled(0, [{ op: "push", url: "F:#CTRL?value" }, { op: "inv" }]),
    "ops.duf",
  );
  assert.equal(weightOf(zero.scene, "M"), 0);
  assert.equal(zero.warnings.length, 1, zero.warnings.join("\n"));
});
