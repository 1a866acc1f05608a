/**
 * A spinning part with one blade, for `spin_fit.ts`. One blade has no rotational symmetry to find a
 * shaft from (it is at best symmetric about its own middle, which is no shaft), so it is told apart
 * and said so: by structure (a part named as a blade, holding one blade object, or holding a
 * counterweight — a single-blade propeller's) or by shape (long and thin, and symmetric about no
 * axis, not even for most of its surface). Where its hub or spinner is an object of its own, the
 * shaft is the hub's axis of roundness — the line its surface normals all meet — when the blade
 * stands out from it to one side and across it.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import {
  countBlades,
  radiusAbout,
  type SpinGeometry,
  surfaceMoments,
  SYMMETRY_GOOD,
} from "./spin_symmetry.ts";
import { cross, dot, length, normalize, sub, type Vec3 } from "./transform.ts";

/**
 * A hub whose normals miss its axis by more than this (least over next eigenvalue) is not round: a
 * polygon of k flat sides misses by about (π/k)²/3 (0.03 for ten sides), a box or blob by far more.
 */
const ROUND = 0.1;

/** A blade leaning further than this from square to the hub's axis does not corroborate it, degrees. */
const ACROSS_DEGREES = 20;

/** The one-blade fit: the shaft, and how sure and why. */
export interface OneBladeFit {
  readonly axis: Vec3;
  readonly centre: Vec3;
  readonly radius: number;
  readonly axisFrom: "hub" | "frame";
  readonly centreFrom: "hub" | "blades";
  readonly confidence: "good" | "weak" | "failed";
  readonly reasons: string[];
  readonly notes: string[];
}

/**
 * True when a part's shape says one blade: long and thin (its largest moment twenty times the next; a
 * propeller with something large drawn into it is far less), symmetric about no axis (90th
 * percentile past {@link SYMMETRY_GOOD}), and not even for most of its surface (a two-blade
 * propeller with something small drawn into it is).
 */
export function looksLikeOneBlade(
  values: readonly number[],
  best: { symmetry: number; matched: number },
): boolean {
  return values[2] >= 20 * values[1] && best.symmetry > SYMMETRY_GOOD && best.matched < 0.6;
}

/**
 * The axis a hub or spinner is round about (unit), or why none. Every normal of a surface of
 * revolution meets its axis, so with c the centroid (on the axis) the axis is square to
 * n × (p − c) at every point p: the least eigenvector of their area-weighted second moments, whose
 * eigenvalue is then (nearly) zero while the next is not (a sphere, round about every axis, has none).
 */
export function roundAxis(hub: SpinGeometry): { axis: Vec3; centre: Vec3 } | { why: string } {
  const { centroid: c } = surfaceMoments(hub);
  const t = hub.triangles, p = hub.positions;
  if (!t || t.length < 3) return { why: "the hub has no triangles to tell its axis from" };
  const m = [0, 0, 0, 0, 0, 0];
  let scale = 0;
  for (let i = 0; i + 2 < t.length; i += 3) {
    const at = (k: number): Vec3 => [p[t[i + k] * 3], p[t[i + k] * 3 + 1], p[t[i + k] * 3 + 2]];
    const a = at(0), b = at(1), d = at(2);
    const n = cross(sub(b, a), sub(d, a)), area = length(n) / 2;
    if (!(area > 0)) continue;
    const mid: Vec3 = [
      (a[0] + b[0] + d[0]) / 3 - c[0],
      (a[1] + b[1] + d[1]) / 3 - c[1],
      (a[2] + b[2] + d[2]) / 3 - c[2],
    ];
    const v = cross(normalize(n), mid);
    m[0] += area * v[0] * v[0], m[1] += area * v[0] * v[1], m[2] += area * v[0] * v[2];
    m[3] += area * v[1] * v[1], m[4] += area * v[1] * v[2], m[5] += area * v[2] * v[2];
    scale += area * dot(mid, mid);
  }
  const { values, vectors } = symmetricEigen3(...(m as [number, number, number, number, number, number]));
  if (!(scale > 0) || values[1] < 0.05 * scale) {
    return { why: "the hub is round about no one axis (a ball, or too little of it)" };
  }
  if (values[0] > ROUND * values[1]) return { why: "the hub is not round about any axis" };
  return { axis: normalize(vectors[0]), centre: c };
}

/**
 * The shaft of a part with one blade: its hub's axis where the hub is round and the blade stands out
 * from it to one side, across it; else failed, along `fallback` (the frame axis most across the
 * blade), saying what to do.
 */
export function oneBladeFit(
  geometry: SpinGeometry,
  why: string,
  options: { hub?: SpinGeometry; hubName?: string; fallback: Vec3; centroid: Vec3; bladeLine: Vec3 },
): OneBladeFit {
  const said = `one blade only (${why})`;
  const round = options.hub && options.hub.count > 0 ? roundAxis(options.hub) : undefined;
  if (round && "axis" in round) {
    const radius = radiusAbout(geometry, round.centre, round.axis);
    const sides = countBlades(geometry, round.centre, round.axis, radius);
    const lean = 90 - (Math.acos(Math.min(1, Math.abs(dot(options.bladeLine, round.axis)))) * 180) / Math.PI;
    const notes = [`${said}: the shaft is the axis its hub${hubName(options)} is round about`];
    const reasons: string[] = [];
    if (sides !== 1) reasons.push("the blade does not stand out from the hub to one side");
    if (lean > ACROSS_DEGREES) {
      reasons.push(`the blade leans ${lean.toFixed(0)}° from square to the hub's axis`);
    }
    return {
      axis: round.axis,
      centre: round.centre,
      radius,
      axisFrom: "hub",
      centreFrom: "hub",
      confidence: reasons.length ? "weak" : "good",
      reasons,
      notes,
    };
  }
  const reasons = [
    `${said}: a shaft is the axis the blades turn about, which one blade does not show` +
    (round ? ` and ${round.why}` : "") +
    " — keep the other blades in the part, or give the hub or spinner an object of its own " +
    "(`Hub`, `Spinner`) to take the shaft from; taken along the aircraft axis most across the blade",
  ];
  return {
    axis: options.fallback,
    centre: options.centroid,
    radius: radiusAbout(geometry, options.centroid, options.fallback),
    axisFrom: "frame",
    centreFrom: "blades",
    confidence: "failed",
    reasons,
    notes: [],
  };
}

function hubName(options: { hubName?: string }): string {
  return options.hubName ? ` ('${options.hubName}')` : "";
}

/** The unit frame axis most across `line`, ties (within 10°) to the one nearest `thin`. */
export function acrossAxis(
  line: Vec3,
  thin: Vec3,
  frameAxes: readonly { readonly direction: Vec3 }[],
): Vec3 {
  const score = (d: Vec3) => length(cross(d, line)) * 10 + Math.abs(dot(d, thin));
  return [...frameAxes].map((f) => f.direction).sort((a, b) => score(b) - score(a))[0] ?? thin;
}
