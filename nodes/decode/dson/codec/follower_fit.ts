/**
 * The change of a rigid follower's place when its reference vertices move (split from
 * `follower_refit.ts`): Horn's rigid fit for the default modes, the rigidity group's fit
 * (`rigidity_apply.ts`) for others, taken from the base mesh as Daz fits it.
 *
 * @module
 */
import type { mat4 } from "@gltf-transform/core";
import { invert, multiply } from "./matrix64.ts";
import { bestFitRotation, centroid } from "./rigid_fit.ts";
import { type FollowerModes, isDefaultModes } from "./follower_modes.ts";
import { type AxisFrame, fitRigidTransform, type RigidityGroup } from "./rigidity.ts";
import { spansPlane, weakTwist } from "./rigidity_apply.ts";
import { surroundMotion, unfollowed } from "./surface_turn.ts";

/**
 * The rigid transform (column-major) best mapping `before` onto `after`, point by point: Horn's
 * rotation about the centroids (none for fewer than three points, which do not fix one), then the
 * centroids' shift.
 */
function rigidFit(before: Float64Array, after: Float64Array, flags: FitFlags): mat4 {
  const indices = Int32Array.from({ length: before.length / 3 }, (_, k) => k);
  const c0 = centroid(before, indices), c1 = centroid(after, indices);
  const r = indices.length >= 3
    ? bestFitRotation(before, after, indices, c0, c1)
    : new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  if (indices.length >= 3 && weakTwist(before, after, indices, c0, c1, r)) flags.untwisted = true;
  return aboutCentroids(r, c0, c1);
}

/** The column-major `p' = c₁ + L·(p − c₀)` of the row-major 3×3 `l`. */
function aboutCentroids(l: ArrayLike<number>, c0: ArrayLike<number>, c1: ArrayLike<number>): mat4 {
  const m = new Array(16).fill(0);
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) m[col * 4 + row] = l[row * 3 + col];
    m[12 + row] = c1[row] - (l[row * 3] * c0[0] + l[row * 3 + 1] * c0[1] + l[row * 3 + 2] * c0[2]);
  }
  m[15] = 1;
  return m as unknown as mat4;
}

/**
 * The transform (column-major) `p' = c₁ + P·S·(p − c₀)` of `before` onto `after` that a rigidity
 * group of `modes` fits (`rigidity.ts`: the rotation per `rotation_mode`, the stretch along the
 * axes of `frame` — else the reference vertices' principal axes — per `scale_modes`).
 */
function modedFit(
  before: Float64Array,
  after: Float64Array,
  modes: FollowerModes,
  frame: AxisFrame | undefined,
  flags: FitFlags,
): mat4 {
  const referenceVertices = Int32Array.from({ length: before.length / 3 }, (_, k) => k);
  const group: RigidityGroup = {
    id: "follow",
    ...modes,
    referenceVertices,
    maskVertices: new Int32Array(),
    transformNodes: [],
  };
  const fit = fitRigidTransform(group, before, after, frame)!;
  if (fit.uncertain) flags.uncertain = true;
  if (fit.untwisted) flags.untwisted = true;
  return aboutCentroids(fit.linear, fit.before, fit.after);
}

/**
 * What a fit could only guess: a stretch across a line (`uncertain`), a twist about it (`untwisted`);
 * and what it does not follow: `surface`, a turn of the surface around reference vertices that fit a
 * slide (a line that keeps its direction, or one place) over 0.02 rad, or a stretch of it over 2 % that
 * `scale_modes` ask for and those vertices cannot measure.
 */
export interface FitFlags {
  uncertain: boolean;
  untwisted?: boolean;
  surface?: boolean;
}

/** The mesh's vertices nearest a follower's reference vertices (`surface_turn.ts`), xyz (m). */
export interface Surround {
  readonly base: Float64Array;
  readonly before: Float64Array;
  readonly after: Float64Array;
}

/**
 * Whether the surround moves from `before` to `after` in a way the follower would follow, were it
 * recorded, beyond the slide its reference vertices fit (a line keeping its direction, or one place):
 * a turn `modes` would apply, or a stretch its `scale_modes` ask for that the set cannot measure
 * (`surface_turn.ts` `unfollowed`). Daz fits the reference vertices alone, so the follower slides
 * unturned and unscaled there too (decode.dson v66: named).
 */
function surroundUnfollowed(
  before: Float64Array,
  after: Float64Array,
  modes: FollowerModes,
  frame: AxisFrame | undefined,
  surround: Surround,
): boolean {
  const refs = Int32Array.from({ length: before.length / 3 }, (_, k) => k);
  const group: RigidityGroup = {
    id: "follow",
    ...modes,
    referenceVertices: refs,
    maskVertices: refs,
    transformNodes: [],
  };
  const fit = fitRigidTransform(group, before, after, frame);
  if (!fit?.slide) return false;
  const { fitted, line, thin } = fit.slide;
  const all = Int32Array.from({ length: surround.before.length / 3 }, (_, k) => k);
  const at = { c0: fit.before, c1: fit.after, fitted, ...(line ? { line } : {}) };
  return unfollowed(
    surroundMotion(surround.before, surround.after, all, at, thin),
    modes.rotationMode,
    fit.slide,
  );
}

/**
 * How a follower of `modes` placed by the fit from `base` to `before` moves when its vertices go to
 * `after`. Daz fits from the base mesh, and a fit from one shape to the next is not the change of the
 * fits from the base (a stretch reads the other shape's axes; a turn fitted to vertices that moved
 * unevenly differs too: 0.001 cm on a graft's pucker baked over its dialled value), so the change is
 * `fit(base → after) · fit(base → before)⁻¹`, or the fit from `before` when `before` is the base (the
 * decode) or that fit has no inverse. `surround`, the mesh's vertices nearest the reference ones,
 * sets `flags.surface` when reference vertices that fit a slide leave a turn or stretch of it
 * unfollowed.
 */
export function fitChange(
  base: Float64Array,
  before: Float64Array,
  after: Float64Array,
  modes: FollowerModes,
  frame: AxisFrame | undefined,
  flags: FitFlags,
  surround?: Surround,
): mat4 {
  // Horn's fit of the default modes needs a plane; a line (or one vertex) takes the rigidity group's
  // reading, the least turn carrying the line, said (decode.dson v64: before, two vertices slid
  // unturned and three or more on a line took whatever twist Horn's degenerate fit gave).
  const all = Int32Array.from({ length: base.length / 3 }, (_, k) => k);
  const horn = isDefaultModes(modes) && spansPlane(base, all);
  const fit = (a: Float64Array, b: Float64Array) =>
    horn ? rigidFit(a, b, flags) : modedFit(a, b, modes, frame, flags);
  if (surround && !horn) {
    if (surroundUnfollowed(before, after, modes, frame, surround)) flags.surface = true;
  }
  const undo = base.every((v, k) => v === before[k]) ? undefined : invert(fit(base, before));
  return undo ? multiply(fit(base, after), undo) : fit(before, after);
}
