/**
 * A DSON channel animation's value between keys (the spec's `[time, value, ["TCB", t, c, b]]`), which
 * a preset keyed either side of frame 0 needs. Each expectation is an independent evaluation: the
 * Catmull-Rom matrix form, smoothstep for full tension, a finite-difference slope on both sides of
 * a key, straight lines and steps worked out by hand.
 */
import assert from "node:assert/strict";
import { type CurveKey, curveValueAt } from "../../../../nodes/decode/dson/codec/key_curve.ts";
import { readDsonPreset } from "../../../../nodes/decode/dson/codec/preset_read.ts";
import { dsonBytes } from "./generate.ts";

const near = (got: number, want: number, what: string, eps = 1e-12) =>
  assert.ok(Math.abs(got - want) <= eps, `${what}: ${got}, expected ${want}`);

/** Catmull-Rom through p0..p3 at s in the p1 → p2 span (the matrix form). */
function catmullRom(p0: number, p1: number, p2: number, p3: number, s: number): number {
  return 0.5 * (2 * p1 + (-p0 + p2) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s +
    (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s);
}

Deno.test("dson key curve: keys with no interpolation (the spec's float default) are Catmull-Rom; TCB 0,0,0 the same", () => {
  const values = [3, -2, 5, 4, 9];
  const plain: CurveKey[] = values.map((value, k) => ({ time: k / 30, value }));
  const tcb: CurveKey[] = values.map((value, k) => ({
    time: k / 30,
    value,
    interpolation: ["TCB", 0, 0, 0],
  }));
  for (const s of [0.1, 0.25, 0.5, 0.8]) {
    for (const span of [1, 2]) {
      const want = catmullRom(values[span - 1], values[span], values[span + 1], values[span + 2], s);
      near(curveValueAt(plain, (span + s) / 30), want, `span ${span} at ${s}`, 1e-9);
      near(curveValueAt(tcb, (span + s) / 30), want, `TCB span ${span} at ${s}`, 1e-9);
    }
  }
});

Deno.test("dson key curve: full tension is smoothstep between the keys; held before the first and after the last", () => {
  const keys: CurveKey[] = [
    { time: -1, value: 2, interpolation: ["TCB", 1, 0.3, -0.4] },
    { time: 1, value: 6, interpolation: ["TCB", 1, 0, 0] },
    { time: 2, value: 0, interpolation: ["TCB", 1, 0, 0] },
  ];
  for (const s of [0.2, 0.5, 0.7]) {
    near(curveValueAt(keys, -1 + 2 * s), 2 + 4 * (3 * s * s - 2 * s ** 3), `at ${s}`);
  }
  near(curveValueAt(keys, -5), 2, "before");
  near(curveValueAt(keys, 9), 0, "after");
  near(curveValueAt(keys, 1), 6, "on a key");
});

Deno.test("dson key curve: continuity 0 keeps the slope across a key however unevenly keys are spaced; bias leans it", () => {
  const keys = (bias: number): CurveKey[] =>
    [[0, 1], [0.1, 4], [0.6, 2], [0.7, 8]].map(([time, value]) => ({
      time,
      value,
      interpolation: ["TCB", 0.2, 0, bias],
    }));
  // One-sided second-order differences: each side of the key sees only its own span's cubic.
  const h = 1e-5;
  for (const bias of [0, 0.5, -0.7]) {
    const f = (x: number) => curveValueAt(keys(bias), x);
    for (const key of [0.1, 0.6]) {
      const left = (3 * f(key) - 4 * f(key - h) + f(key - 2 * h)) / (2 * h);
      const right = (-3 * f(key) + 4 * f(key + h) - f(key + 2 * h)) / (2 * h);
      near(left, right, `slope at ${key}, bias ${bias}`, 1e-4 * Math.max(1, Math.abs(left)));
    }
  }
  // A continuity other than 0 breaks the slope at the key (the check above can fail).
  const kinked: CurveKey[] = keys(0).map((k) => ({ ...k, interpolation: ["TCB", 0.2, 0.5, 0] }));
  const g = (x: number) => curveValueAt(kinked, x);
  const kink = (-3 * g(0.1) + 4 * g(0.1 + h) - g(0.1 + 2 * h)) / (2 * h) -
    (3 * g(0.1) - 4 * g(0.1 - h) + g(0.1 - 2 * h)) / (2 * h);
  assert.ok(Math.abs(kink) > 1, `kink ${kink}`);
  // Bias 1 takes the slope from the span before alone, spread over both spans' time (the uneven-
  // spacing scale): 2 · (1 − 0.2) · (4 − 1) / (0.1 + 0.5) = 8 per second.
  const b1 = (x: number) => curveValueAt(keys(1), x);
  const slope = (-3 * b1(0.1) + 4 * b1(0.1 + h) - b1(0.1 + 2 * h)) / (2 * h);
  near(slope, 8, "bias 1", 1e-4);
});

Deno.test("dson key curve: CONST holds, LINEAR runs straight, HERMITE takes its slopes", () => {
  near(
    curveValueAt([{ time: 0, value: 5, interpolation: ["CONST"] }, { time: 1, value: 9 }], 0.9),
    5,
    "CONST",
  );
  near(
    curveValueAt([{ time: 0, value: 5, interpolation: ["LINEAR"] }, { time: 2, value: 9 }], 0.5),
    6,
    "LINEAR",
  );
  // Slopes 0 leaving and arriving: smoothstep; slope 4 per second each way on a 0 → 0 span of 1 s:
  // 4s(1 − s)² − 4s²(1 − s), at s = 0.25: 4 · 0.25 · 0.5625 − 4 · 0.0625 · 0.75 = 0.375.
  const flat = [{ time: 0, value: 0, interpolation: ["HERMITE", 0, 0] as const }, {
    time: 1,
    value: 1,
    interpolation: ["HERMITE", 0, 0] as const,
  }];
  near(curveValueAt(flat, 0.3), 3 * 0.09 - 2 * 0.027, "HERMITE flat");
  const sloped = [{ time: 0, value: 0, interpolation: ["HERMITE", 0, 4] as const }, {
    time: 1,
    value: 0,
    interpolation: ["HERMITE", 4, 0] as const,
  }];
  near(curveValueAt(sloped, 0.25), 0.375, "HERMITE sloped");
});

Deno.test("dson key curve: a preset keyed either side of frame 0 takes its curve's value there, not the earliest key's", async () => {
  const preset = {
    file_version: "0.6.1.0",
    asset_info: { id: "/code/blend.duf", type: "preset_pose" },
    scene: {
      animations: [
        // TCB 0,0,0 through -3/30, -1/30, 1/30, 3/30 (even): frame 0 is mid-span of a Catmull-Rom.
        {
          url: "name://@selection/l_forearm:?rotation/z/value",
          keys: [-3, -1, 1, 3].map((f, k) => [f / 30, [10, 20, 40, 30][k], ["TCB", 0, 0, 0]]),
        },
        // All keys before frame 0: the last is held (before: the earliest, -3/30's, was taken).
        { url: "name://@selection#CTRLSmile:?value/value", keys: [[-3 / 30, 0.2], [-1 / 30, 0.9]] },
        // Linear either side of 0.
        {
          url: "name://@selection/l_hand:?rotation/x/value",
          keys: [[-0.5, -10, ["LINEAR"]], [1.5, 30, ["LINEAR"]]],
        },
      ],
    },
  };
  const read = await readDsonPreset(dsonBytes(preset), "blend.duf", () => {});
  const [forearm, smile, hand] = read.channels;
  near(forearm.value, catmullRom(10, 20, 40, 30, 0.5), "forearm", 1e-9);
  near(smile.value, 0.9, "smile");
  near(hand.value, 0, "hand");
  assert.equal(read.animated, 3);
});

Deno.test("dson key curve: continuity −1 joins evenly spaced keys with straight lines, +1 bulges the corners (Kochanek–Bartels)", () => {
  const keys = (continuity: number): CurveKey[] =>
    [[0, 0], [1, 10], [2, 5], [3, 20]].map(([time, value]) => ({
      time,
      value,
      interpolation: ["TCB", 0, continuity, 0],
    }));
  // −1: each tangent lies along its own span's chord (sharp corners), so the spans are the chords.
  for (const [time, value] of [[0.5, 5], [1.25, 8.75], [1.5, 7.5], [2.75, 16.25]]) {
    near(curveValueAt(keys(-1), time), value, `continuity −1 at ${time}`, 1e-12);
  }
  // +1: key 1 leaves along the chord before it (10 per second) and key 2 is reached along the chord
  // after it (15): the cubic Hermite h00·10 + h10·10 + h01·5 + h11·15 at s = ½ is
  // ½·10 + ⅛·10 + ½·5 − ⅛·15 = 6.875 (the straight line gives 7.5).
  near(curveValueAt(keys(1), 1.5), 6.875, "continuity +1 at 1.5", 1e-12);
});
