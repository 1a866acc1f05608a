/**
 * Formula `spline_tcb` as Daz Studio, vendors and community tools write it (`spline_habits.ts`):
 * the decoded JCM weight is the DSON spec's Kochanek–Bartels curve (each knot's own tension,
 * continuity and bias, step-size adjusted, end chords reflected), worked out independently; a
 * keyed channel of the same knots gives the same curve; between knots a warning names the readings.
 * Before decode.dson v43 formulas took pymods's reading (the span's first knot's parameters for
 * both tangents, end knots their own neighbours, spacing ignored) and keyed channels the spec's.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { curveValueAt } from "../../../../nodes/decode/dson/codec/key_curve.ts";
import { splineAt } from "../../../../nodes/decode/dson/codec/formula_spline.ts";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { specCurve, type SplineCase, splineCase } from "./spline_habits.ts";
import { prng } from "../../../support/prng.ts";

/** The JCM's weight in the decoded scene. */
function jcmWeight(scene: Document): number {
  const mesh = scene.getRoot().listMeshes()[0];
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  return mesh.getWeights()[names.indexOf("pJCMForeArmFwd_135_L")];
}

async function judge(c: SplineCase): Promise<Verdict> {
  const { scene, warnings } = await decodeJson(c.json, "Genesis8Female.duf");
  const warned = warnings.some((w) => w.includes("spline_tcb"));
  const got = jcmWeight(scene);
  // glTF weights are float32.
  if (Math.abs(got - c.expected) > 1e-6) {
    return { wrong: `${c.habit} at ${c.bend}: ${got}, expected ${c.expected}`, warned };
  }
  if (warned !== c.between) return { wrong: `${c.habit} at ${c.bend}: warned ${warned}`, warned };
  if (warnings.length > (c.between ? 1 : 0)) return { wrong: `warnings: ${warnings.join(" | ")}`, warned };
  return undefined;
}

Deno.test("dson spline_tcb habits, seeds 1-60: the JCM weight is the spec's Kochanek–Bartels curve; warned between knots only", async () => {
  await sweepSeeds(1, 60, "dson spline_tcb habits, seeds 1-60", splineCase, judge);
});

Deno.test("dson spline_tcb habits, held-out seeds 7001-7060: the same", async () => {
  await sweepSeeds(7001, 7060, "dson spline_tcb habits, held-out seeds 7001-7060", splineCase, judge);
});

Deno.test("dson spline_tcb: a formula and a keyed channel of the same knots are one curve", () => {
  const r = prng(99);
  for (let trial = 0; trial < 200; trial++) {
    const n = 2 + Math.floor(r() * 5);
    let x = -50 + r() * 20;
    const knots: number[][] = [];
    for (let k = 0; k < n; k++) {
      knots.push([x, r() * 2 - 1, r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
      x += 1 + r() * 40;
    }
    const keys = knots.map(([time, value, t, c, b]) => ({
      time,
      value,
      interpolation: ["TCB", t, c, b] as [string, ...number[]],
    }));
    for (let probe = 0; probe < 5; probe++) {
      const at = knots[0][0] - 5 + r() * (x - knots[0][0] + 5);
      const formula = splineAt("spline_tcb", knots, at)!;
      assert.ok(Math.abs(formula - curveValueAt(keys, at)) < 1e-12, `trial ${trial} at ${at}`);
      assert.ok(Math.abs(formula - specCurve(knots, at)) < 1e-9, `trial ${trial} at ${at}: ${formula}`);
    }
  }
});

Deno.test("dson spline_tcb: two knots of zero tension, continuity and bias run straight (Daz's JCMs); the warning names all three readings", () => {
  // Reflected end chords make both tangents the chord: the cubic is the line. pymods's reading
  // (each end knot its own neighbour: tangents ½·chord) at s = 1/3 of (−135, 1) → (0, 0) is
  // h00 + h10·(−½) + h11·(−½) = 20/27 − 2/27 + 1/27 = 19/27.
  const told: { kochanek: number; firstKnot: number; straight: number }[] = [];
  const value = splineAt("spline_tcb", [[0, 0, 0, 0, 0], [-135, 1, 0, 0, 0]], -90, (s) => told.push(s));
  assert.ok(Math.abs(value! - 2 / 3) < 1e-12, `${value}`);
  assert.ok(Math.abs(told[0].firstKnot - 19 / 27) < 1e-12);
  assert.ok(Math.abs(told[0].straight - 2 / 3) < 1e-12);
});
