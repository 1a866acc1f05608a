/**
 * `spline_tcb` in ERC formulas: its keys on them and held past its ends, where the readers that
 * evaluate it agree; between keys the DSON spec's Kochanek–Bartels curve (each knot's own tension,
 * continuity and bias; checked against `spline_habits.ts`'s independent form), with pymods's and
 * Diffeomorphic's readings handed on beside it for the warning. pymods's readings are worked out by
 * hand here from the Kochanek–Bartels tangents and the cubic Hermite basis.
 */
import assert from "node:assert/strict";
import { describeSpan, splineAt, type TcbSpan } from "../../../../nodes/decode/dson/codec/formula_spline.ts";
import { specCurve } from "./spline_habits.ts";

/** Keys as a Daz corrective writes them, `[x, y, tension, continuity, bias]`, listed out of x order. */
const KEYS = [[30, 3, 0, 0, 0], [0, 0, 0.5, 0, 0], [40, 1, 0, 0, 0], [10, 2, 0, -0.5, 0.5]];

/** The span handed on at `x`, checked to be told once and to be the value given. */
const between = (x: number): TcbSpan => {
  const told: TcbSpan[] = [];
  const value = splineAt("spline_tcb", KEYS, x, (s) => told.push(s));
  assert.equal(told.length, 1);
  assert.equal(value, told[0].kochanek);
  return told[0];
};

Deno.test("dson formula spline: a TCB spline is its keys on them and holds its end keys past them", () => {
  const told: TcbSpan[] = [];
  for (const [x, y] of [[0, 0], [10, 2], [30, 3], [40, 1], [-5, 0], [-1e6, 0], [41, 1], [1e9, 1]]) {
    assert.equal(splineAt("spline_tcb", KEYS, x, (s) => told.push(s)), y, `x ${x}`);
  }
  assert.deepEqual(told, []);
});

Deno.test("dson formula spline: between keys the spec's Kochanek–Bartels reading is given, pymods's and the straight one handed on", () => {
  const sorted = [...KEYS].sort((a, b) => a[0] - b[0]);
  for (const x of [5, 15, 35]) {
    const span = between(x);
    assert.ok(Math.abs(span.kochanek - specCurve(sorted, x)) < 1e-12, `${x}: ${span.kochanek}`);
  }
  // First span (0, 0) → (10, 2) at x 5 (s = 1/2), the first key's tension 0.5: each factor
  // (1 − 0.5)·1·1/2 = 1/4. The first key is its own neighbour: leaving = ¼·0 + ¼·2 = 1/2;
  // arriving = ¼·2 + ¼·(3 − 2) = 3/4. Hermite at ½: ½·0 + ⅛·½ + ½·2 − ⅛·¾ = 31/32.
  const first = between(5);
  assert.deepEqual([first.from, first.to, first.input], [[0, 0], [10, 2], 5]);
  assert.equal(first.straight, 1);
  assert.ok(Math.abs(first.firstKnot - 31 / 32) < 1e-12, `${first.firstKnot}`);
  // Second span (10, 2) → (30, 3) at x 15 (s = 1/4), its first key's continuity −0.5, bias 0.5:
  // leaving = (1·0.5·1.5/2)·(2 − 0) + (1·1.5·0.5/2)·(3 − 2) = 0.75 + 0.375 = 1.125;
  // arriving = (1·1.5·1.5/2)·(3 − 2) + (1·0.5·0.5/2)·(1 − 3) = 1.125 − 0.25 = 0.875.
  // Hermite at ¼: h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = −3/64.
  const second = between(15);
  assert.equal(second.straight, 2.25);
  const expected = (27 / 32) * 2 + (9 / 64) * 1.125 + (5 / 32) * 3 - (3 / 64) * 0.875;
  assert.ok(Math.abs(expected - 2.2734375) < 1e-12);
  assert.ok(Math.abs(second.firstKnot - expected) < 1e-12, `${second.firstKnot}`);
  // pymods's reading (below, by hand) differs from the used one wherever the knots' parameters or
  // spacing differ: the second knot's own continuity and bias shape its incoming tangent.
  // Last span (30, 3) → (40, 1) at x 35: the last key is its own next neighbour. Keys of no TCB
  // (Catmull-Rom factors ½): leaving = ½·(3 − 2) + ½·(1 − 3) = −1/2; arriving = ½·(1 − 3) + 0 = −1.
  // Hermite at ½: ½·3 + ⅛·(−½) + ½·1 − ⅛·(−1) = 2 + 1/16.
  const last = between(35);
  assert.equal(last.straight, 2);
  assert.ok(Math.abs(last.firstKnot - 33 / 16) < 1e-12, `${last.firstKnot}`);
});

Deno.test("dson formula spline: the warning's words give the reading used, pymods's, the straight one and how far apart", () => {
  // Keys (−135, 1), (0, 0) at −90 (s = 1/3). Used: the end chords reflected make both tangents the
  // chord, the line: 2/3. pymods: tangents −½ at both keys; h00 = 20/27, h10 = 4/27, h11 = −2/27,
  // so 20/27 − 2/27 + 1/27 = 19/27; 1/27 apart.
  const told: TcbSpan[] = [];
  const value = splineAt("spline_tcb", [[0, 0, 0, 0, 0], [-135, 1, 0, 0, 0]], -90, (s) => told.push(s));
  assert.ok(Math.abs(value! - 2 / 3) < 1e-12);
  assert.equal(
    describeSpan(told[0]),
    "input -90 lies between keys (-135, 1) and (0, 0): read as the DSON spec's Kochanek–Bartels spline (each " +
      "knot's own tension, continuity and bias, as Daz's keyed channels) it gives 0.6667, used; pymods reads " +
      "0.7037, Diffeomorphic (straight) 0.6667; up to 0.03704 apart (Daz's end tangents are not published)",
  );
});

Deno.test("dson formula spline: linear and constant splines are unchanged; two keys at one x are unknown", () => {
  assert.equal(splineAt("spline_linear", KEYS, 35), 2);
  assert.equal(splineAt("spline_constant", KEYS, 35), 3);
  assert.equal(splineAt("spline_linear", KEYS, -3), 0);
  assert.equal(splineAt("spline_tcb", [[0, 0], [0, 1]], 0.5), undefined);
});
