/**
 * Rigid followers and rigidity groups whose reference vertices lie on a line, as real props are made:
 * a strap or a chain modelled along one edge (a few to a dozen vertices, written to 4 decimals of a
 * centimetre, sometimes sagging by less than its rounding), an earring on two vertices a millimetre or
 * three apart, or on one. A morph carries the region under them by a rigid motion — a swing of the
 * line, a twist about it, both, or a plain shift — and the part hangs 3 to 30 mm off the line, so it
 * moves with that motion in Daz's scene. What the code puts there is judged against it: off by more
 * than 1 mm is wrong, and wrong with nothing said is silently wrong. The twist about the line is not
 * in the data, so a right answer for it is luck; the honest answer says so.
 *
 * @module
 */
import type { mat4 } from "@gltf-transform/core";
import { prng } from "../../../support/prng.ts";
import { type Surround, surroundOf } from "./line_surface_habits.ts";

type V3 = [number, number, number];

/** Farther than this from where the motion puts the part (m) is wrong. */
export const WRONG = 1e-3;

/** One case: reference vertices before and after, the part's place before and where the motion puts it. */
export interface LineCase {
  readonly seed: number;
  /** What was drawn, for the tallies: shape, motion and who fits it. */
  readonly habits: readonly string[];
  /** `follower` (default modes), `follower-scaled` (full turn, scale_modes primary) or `group` (full). */
  readonly fitter: "follower" | "follower-scaled" | "group";
  /** Reference vertices, xyz (m), before and after. */
  readonly before: Float64Array;
  readonly after: Float64Array;
  /** The part (a follower's origin, a group's participant) before, and where the motion puts it. */
  readonly part: V3;
  readonly truth: V3;
  /**
   * The angle (rad) the motion turns the line by (0 for one vertex, a shift, or a twist about the
   * line): only a line that turns leaves Daz's twist about it unrecorded.
   */
  readonly swing: number;
  /**
   * Where Daz puts the part when the line does not turn (the reference vertices slide, or one vertex
   * moves): a rigid fit of them is the slide, with no turn. Undefined when the line turns.
   */
  readonly slide?: V3;
  /** The figure's scale (1: metres as drawn): a part off by over {@link WRONG} times it is wrong. */
  readonly scale?: number;
  /** A group's participant that is its own reference vertex: its index among them (the part is it). */
  readonly shared?: number;
  /**
   * The mesh around the reference vertices (a strap's edges, a chain's links, a lobe), moved with the
   * region: it records a twist about the line (or a turn about one vertex) the references do not.
   */
  readonly surround?: Surround;
  /** The `scale_modes` the fitter is given (default: none, or primary along the line for `follower-scaled`). */
  readonly scaleModes?: readonly [
    "none" | "primary",
    "none" | "primary" | "secondary",
    "none" | "primary" | "secondary",
  ];
}

/** The rotation (row-major 3×3) of `angle` about unit `axis` (Rodrigues). */
export function rotation(axis: V3, angle: number): number[] {
  const [x, y, z] = axis, c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ].flat();
}

/** `v` scaled to length 1. */
export function unit(v: V3): V3 {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** The cross product `a × b`. */
export function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Metres written as centimetres to 4 decimals, as Daz writes vertices. */
const written = (m: number) => Math.round(m * 1e6) / 1e6;

/** The case of `seed`. */
export function lineCase(seed: number): LineCase {
  const r = prng(seed * 7919 + 11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const habits: string[] = [];
  const shape = pick(["strap", "chain", "earring-2", "earring-1"] as const);
  habits.push(shape);
  const count = shape === "strap"
    ? 4 + Math.floor(r() * 9)
    : shape === "chain"
    ? 3 + Math.floor(r() * 4)
    : shape === "earring-2"
    ? 2
    : 1;
  const length = shape === "strap"
    ? 0.02 + r() * 0.06
    : shape === "chain"
    ? 0.01 + r() * 0.03
    : 0.001 + r() * 0.002;
  const line = unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const side = unit(cross(line, unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  const origin: V3 = [r() * 0.4 - 0.2, 1.2 + r() * 0.5, r() * 0.2 - 0.1];
  // A strap may sag by less than its file's rounding (it reads as a line) — never by a visible amount.
  const sag = shape === "strap" && r() < 0.5 ? 2e-7 * r() : 0;
  if (sag) habits.push("sagging");
  const points: V3[] = [];
  for (let k = 0; k < count; k++) {
    const t = count === 1 ? 0 : (k / (count - 1) - 0.5) * length;
    const bow = sag * Math.sin(Math.PI * (count === 1 ? 0 : k / (count - 1)));
    points.push([0, 1, 2].map((a) => origin[a] + t * line[a] + bow * side[a]) as V3);
  }
  const motion = pick(["swing", "twist", "both", "shift"] as const);
  habits.push(motion);
  const angle = (5 + r() * 25) * Math.PI / 180;
  const axis: V3 = motion === "swing"
    ? side
    : motion === "twist"
    ? line
    : unit([0, 1, 2].map((a) => line[a] + side[a] * (r() * 2 - 1)) as V3);
  const turn = motion === "shift" ? rotation([1, 0, 0], 0) : rotation(axis, angle);
  const shift: V3 = [r() * 0.02 - 0.01, r() * 0.02 - 0.01, r() * 0.02 - 0.01];
  const pivot = points[Math.floor(count / 2)];
  const move = (p: V3): V3 => {
    const d = [p[0] - pivot[0], p[1] - pivot[1], p[2] - pivot[2]];
    return [0, 1, 2].map((row) =>
      pivot[row] + shift[row] + turn[row * 3] * d[0] + turn[row * 3 + 1] * d[1] + turn[row * 3 + 2] * d[2]
    ) as V3;
  };
  const off = 0.003 + r() * 0.027;
  const normal = unit(cross(line, side));
  const part = [0, 1, 2].map((a) =>
    pivot[a] + off * (r() < 0.5 ? side[a] : normal[a]) + (r() - 0.5) * length * line[a]
  ) as V3;
  const fitter = pick(["follower", "follower-scaled", "group"] as const);
  habits.push(fitter);
  const turned = [0, 1, 2].map((row) =>
    turn[row * 3] * line[0] + turn[row * 3 + 1] * line[1] + turn[row * 3 + 2] * line[2]
  );
  const swing = count === 1 ? 0 : Math.atan2(
    Math.hypot(...cross(line, turned as V3)),
    Math.abs(turned[0] * line[0] + turned[1] * line[1] + turned[2] * line[2]),
  );
  habits.push(swing > 1e-9 ? "line turns" : "line fixed");
  const kind = shape === "strap" ? "strap" : shape === "chain" ? "links" : "patch";
  const surround = surroundOf(seed, kind, points, { line, side, normal }, move, written);
  return {
    seed,
    habits,
    fitter,
    before: Float64Array.from(points.flatMap((p) => p.map(written))),
    after: Float64Array.from(points.flatMap((p) => move(p).map(written))),
    part,
    truth: move(part),
    swing,
    ...(swing > 1e-9 ? {} : { slide: [0, 1, 2].map((a) => part[a] + shift[a]) as V3 }),
    surround,
  };
}

/** What a fit put the part at, and whether it said it was guessing. */
export interface LinePlace {
  readonly at: V3;
  readonly warned: boolean;
}

/** Distance (m) from the truth. */
export function lineError(c: LineCase, place: LinePlace): number {
  return Math.hypot(place.at[0] - c.truth[0], place.at[1] - c.truth[1], place.at[2] - c.truth[2]);
}

/** Applies a column-major mat4 to `p`. */
export function transformPoint(m: mat4 | number[], p: V3): V3 {
  return [0, 1, 2].map((row) => m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row]) as V3;
}

/**
 * A strap modelled a little wide — a zigzag of 6 to 12 vertices whose width is 0.1 % to 3 % of its
 * 3 to 8 cm length, so it spans a plane — under a morph rigid up to 0.02 mm of unevenness (a projected
 * morph never is exactly rigid). Its twist rests on its width: across a narrow one the unevenness
 * turns the fit by degrees. Habit `ratio R` names the width ratio drawn.
 */
export function thinStrapCase(seed: number): LineCase {
  const r = prng(seed * 131 + 5);
  const n = 6 + Math.floor(r() * 7), length = 0.03 + r() * 0.05;
  const ratio = [1e-3, 3e-3, 1e-2, 3e-2][Math.floor(r() * 4)];
  const line = unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const side = unit(cross(line, unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  const points: V3[] = [];
  for (let k = 0; k < n; k++) {
    const t = (k / (n - 1) - 0.5) * length, w = (k % 2 ? 0.5 : -0.5) * ratio * length;
    points.push([0, 1, 2].map((a) => 0.1 + t * line[a] + w * side[a]) as V3);
  }
  const turn = rotation(unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]), (5 + r() * 25) * Math.PI / 180);
  const pivot = points[0];
  const move = (p: V3): V3 =>
    [0, 1, 2].map((row) =>
      pivot[row] + 0.005 + turn[row * 3] * (p[0] - pivot[0]) + turn[row * 3 + 1] * (p[1] - pivot[1]) +
      turn[row * 3 + 2] * (p[2] - pivot[2])
    ) as V3;
  const normal = unit(cross(line, side)), off = 0.003 + r() * 0.027;
  const part = [0, 1, 2].map((a) => points[Math.floor(n / 2)][a] + off * normal[a]) as V3;
  const uneven = () => (r() * 2 - 1) * 2e-5;
  const fitter = (["follower", "group"] as const)[Math.floor(r() * 2)];
  return {
    seed,
    habits: [`ratio ${ratio}`, fitter],
    fitter,
    before: Float64Array.from(points.flatMap((p) => p.map(written))),
    after: Float64Array.from(points.flatMap((p) => move(p).map((x) => written(x + uneven())))),
    part,
    truth: move(part),
    swing: 1,
  };
}
