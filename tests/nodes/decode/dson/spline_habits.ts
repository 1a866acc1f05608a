/**
 * Joint-corrective figures whose ERC formula runs the forearm's bend through a `spline_tcb`, with
 * the knots Daz Studio, vendors and community tools write: Daz's JCMs, two knots of zero tension,
 * continuity and bias (`[[0, 0, 0, 0, 0], [-135, 1, 0, 0, 0]]`), listed either way round; Daz's
 * multi-knot curves, 3–5 knots unevenly spaced; a vendor's hand-tuned knots with their own tension,
 * continuity and bias (rounded to a tenth, as the Property Editor shows them); and a community
 * writer's `knot2` knots `[x, y]` under a `spline_tcb`. The bend falls on a knot, between knots or
 * past the ends. Laid on the stack as the DSON spec's operation page says: input, knots, count.
 *
 * The expected weight is worked out here, not by the code under test, from Daz's DSON spec (the
 * spline is Kochanek–Bartels over `knot5` `[key, value, tension, continuity, bias]`, each knot with
 * its own three numbers) in a form of its own: phantom knots past the ends (the end chord reflected,
 * at the same spacing), each knot's incoming and outgoing tangents by Kochanek–Bartels (1984) with
 * the step-size adjustment for uneven spacing, and the span's cubic in power form. The weight is
 * the channel's clamp [0, 1] of it.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { jcmFigure } from "./jcm_figure.ts";
import { prng } from "../../../support/prng.ts";

/** One generated figure. */
export interface SplineCase {
  readonly seed: number;
  readonly json: Json;
  /** The knots as written (in the file's order). */
  readonly knots: readonly number[][];
  readonly bend: number;
  /** The JCM's weight by the spec's curve (clamped to the channel's [0, 1]). */
  readonly expected: number;
  /** The bend lies strictly between two knots (readers disagree there: a warning may say so). */
  readonly between: boolean;
  readonly habit: string;
}

const HABITS = ["daz-jcm", "daz-multi", "vendor-tcb", "knot2"];

/** The case of `seed`. */
export function splineCase(seed: number): SplineCase {
  const r = prng(seed);
  const tenth = (x: number) => Math.round(x * 10) / 10;
  const habit = HABITS[Math.floor(r() * HABITS.length)];
  const sign = r() < 0.8 ? -1 : 1;
  const ends = [45, 60, 75, 90, 110, 135, 155];
  let knots: number[][];
  if (habit === "daz-jcm") {
    knots = [[0, 0, 0, 0, 0], [sign * ends[Math.floor(r() * ends.length)], 1, 0, 0, 0]];
  } else {
    const count = habit === "daz-multi" ? 3 + Math.floor(r() * 3) : 2 + Math.floor(r() * 5);
    let x = 0;
    knots = [];
    for (let k = 0; k < count; k++) {
      const y = k === 0 ? 0 : k === count - 1 ? 1 : Math.round(r() * 1000) / 1000;
      const tcb = habit === "vendor-tcb"
        ? [tenth(r() * 1.6 - 0.8), tenth(r() * 1.6 - 0.8), tenth(r() * 1.6 - 0.8)]
        : [0, 0, 0];
      knots.push(habit === "knot2" ? [sign * x, y] : [sign * x, y, ...tcb]);
      x += 10 + Math.round(r() * 50);
    }
  }
  if (r() < 0.5) knots.reverse();
  const sorted = [...knots].sort((a, b) => a[0] - b[0]);
  const lo = sorted[0][0], hi = sorted[sorted.length - 1][0];
  const where = r();
  let bend: number;
  if (where < 0.2) bend = sorted[Math.floor(r() * sorted.length)][0];
  else if (where < 0.3) bend = r() < 0.5 ? lo - 1 - r() * 20 : hi + 1 + r() * 20;
  else bend = Math.round((lo + (hi - lo) * (0.02 + 0.96 * r())) * 100) / 100;
  const between = bend > lo && bend < hi && !sorted.some((k) => k[0] === bend);
  const json = jcmFigure(bend, "spline_tcb");
  const jcm = (json.modifier_library as Json[]).find((m) => m.id === "pJCMForeArmFwd_135_L")!;
  const formula = (jcm.formulas as Json[])[0];
  const ops = formula.operations as Json[];
  formula.operations = [ops[0], ...knots.map((val) => ({ op: "push", val })), {
    op: "push",
    val: knots.length,
  }, { op: "spline_tcb" }];
  const value = specCurve(sorted, bend);
  return { seed, json, knots, bend, expected: Math.min(1, Math.max(0, value)), between, habit };
}

/**
 * The DSON spec's TCB spline through `knots` (ascending x) at `x`: see the module doc. Held past
 * the ends.
 */
export function specCurve(knots: readonly number[][], x: number): number {
  const n = knots.length;
  if (x <= knots[0][0]) return knots[0][1];
  if (x >= knots[n - 1][0]) return knots[n - 1][1];
  // Phantom knots: the end chord reflected past each end, at the same spacing.
  const at = (i: number): [number, number] => {
    if (i < 0) return [2 * knots[0][0] - knots[1][0], 2 * knots[0][1] - knots[1][1]];
    if (i >= n) return [2 * knots[n - 1][0] - knots[n - 2][0], 2 * knots[n - 1][1] - knots[n - 2][1]];
    return [knots[i][0], knots[i][1]];
  };
  const params = (i: number) => [2, 3, 4].map((k) => knots[i][k] ?? 0);
  /** Knot i's tangents as dy per unit of the span on its `side` (step-size adjusted). */
  const tangent = (i: number, side: "in" | "out"): number => {
    const [t, c, b] = params(i);
    const [xp, yp] = at(i - 1), [x0, y0] = at(i), [xn, yn] = at(i + 1);
    const d0 = y0 - yp, d1 = yn - y0;
    const raw = side === "out"
      ? ((1 - t) * (1 + c) * (1 + b) * d0 + (1 - t) * (1 - c) * (1 - b) * d1) / 2
      : ((1 - t) * (1 - c) * (1 + b) * d0 + (1 - t) * (1 + c) * (1 - b) * d1) / 2;
    const span = side === "out" ? xn - x0 : x0 - xp;
    return raw * (2 * span) / ((x0 - xp) + (xn - x0));
  };
  const i = knots.findIndex((_, j) => j + 1 < n && x < knots[j + 1][0]);
  const [x0, y0] = at(i), [x1, y1] = at(i + 1);
  const m0 = tangent(i, "out"), m1 = tangent(i + 1, "in");
  // y(s) = a s³ + b s² + m0 s + y0 with y(1) = y1, y'(1) = m1.
  const a = 2 * y0 - 2 * y1 + m0 + m1, b = -3 * y0 + 3 * y1 - 2 * m0 - m1;
  const s = (x - x0) / (x1 - x0);
  return ((a * s + b) * s + m0) * s + y0;
}
