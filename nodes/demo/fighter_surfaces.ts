/**
 * The demo fighter's surfaces as slabs: thickness profiles, wing and fin planforms, and the slab
 * builders the layout places its panels with.
 *
 * @module
 */
import { axisAngle, type Trs } from "./layout_types.ts";
import { type ProfilePoint, slabPoint, type SlabSpec } from "./slab.ts";

export const symmetric = (points: readonly (readonly [number, number])[]): ProfilePoint[] =>
  points.map(([f, half]) => [f, -half, half]);

// Thickness profiles (m). Neighbouring parts share their edge thickness so the surfaces meet.
export const WING_BOX_PROFILE = symmetric([[0, 0.035], [0.35, 0.055], [1, 0.03]]);
export const TRAILING_PANEL_PROFILE = symmetric([[0, 0.03], [1, 0.003]]);
export const LEADING_FLAP_PROFILE = symmetric([[0, 0.035], [1, 0.004]]);
export const SPOILER_PROFILE = symmetric([[0, 0.006], [1, 0.002]]);
export const FIN_BOX_PROFILE = symmetric([[0, 0.01], [0.35, 0.045], [1, 0.028]]);
export const RUDDER_PROFILE = symmetric([[0, 0.028], [1, 0.003]]);
/** Clamshell halves: each is one skin of a split rudder, meeting the other on the fin's mid-plane. */
export const DRAG_RUDDER_OUTER_PROFILE: ProfilePoint[] = [[0, 0, 0.004], [0.3, 0, 0.022], [1, 0, 0.003]];
export const DRAG_RUDDER_INNER_PROFILE: ProfilePoint[] = DRAG_RUDDER_OUTER_PROFILE.map((
  [f, l, u],
) => [f, -u, -l]);
export const STABILATOR_PROFILE = symmetric([[0, 0.008], [0.3, 0.05], [1, 0.003]]);
export const CANARD_PROFILE = symmetric([[0, 0.006], [0.3, 0.04], [1, 0.003]]);
export const AIR_BRAKE_PROFILE = symmetric([[0, 0.02], [1, 0.005]]);

// Wing planform, in the wing group's frame: x outboard, z aft, mid-plane y = 0.
export const wingLeadingEdge = (x: number) => -2.3 + 0.9 * x;
export const wingChord = (x: number) => 4.9 - 0.7826 * x;
export const wingStation = (x: number, fraction: number) => wingLeadingEdge(x) + fraction * wingChord(x);
export const WING_HINGE_FRACTION = 0.78;
export const WING_LEF_FRACTION = 0.14;
/** The aileron's horn balance: where it starts outboard, how far ahead of the hinge it reaches. */
export const HORN_START_X = 4.2;
export const HORN_DEPTH = 0.16;
export const HORN_GAP = 0.01;

/**
 * A spoiler lying on the wing box's upper skin, from `x0` to `x1`: its mid-plane drops with the skin
 * from the hinge to the far edge, and its normal is square to that plane so the hinge face is too.
 */
export function spoilerSlab(x0: number, x1: number): SlabSpec {
  const [near, far, nearHeight, farHeight] = [0.52, 0.74, 0.054, 0.0365];
  const x = (x0 + x1) / 2;
  const run = wingStation(x, far) - wingStation(x, near), drop = farHeight - nearHeight;
  const length = Math.hypot(run, drop);
  return {
    nearA: [x0, nearHeight, wingStation(x0, near)],
    nearB: [x1, nearHeight, wingStation(x1, near)],
    farA: [x0, farHeight, wingStation(x0, far)],
    farB: [x1, farHeight, wingStation(x1, far)],
    normal: [0, run / length, -drop / length],
    profile: SPOILER_PROFILE,
  };
}

/** A slab between two chord fractions of the wing, from `x0` to `x1`. */
export function wingSlab(
  x0: number,
  x1: number,
  near: number,
  far: number,
  profile: ProfilePoint[],
): SlabSpec {
  return {
    nearA: [x0, 0, wingStation(x0, near)],
    nearB: [x1, 0, wingStation(x1, near)],
    farA: [x0, 0, wingStation(x0, far)],
    farB: [x1, 0, wingStation(x1, far)],
    normal: [0, 1, 0],
    profile,
  };
}

// Fin planform, in a fin group's frame: y up the fin, z aft, mid-plane x = 0.
export const finLeadingEdge = (y: number) => 0.95 * y;
export const finChord = (y: number) => 3.2 - 0.85 * y;
export const finStation = (y: number, fraction: number) => finLeadingEdge(y) + fraction * finChord(y);
export const FIN_HINGE_FRACTION = 0.7;

/** A slab between two chord fractions of a fin; `outward` is +1 for the right fin, −1 for the left. */
export function finSlab(
  y0: number,
  y1: number,
  near: number,
  far: number,
  profile: ProfilePoint[],
  outward: number,
): SlabSpec {
  return {
    nearA: [0, y0, finStation(y0, near)],
    nearB: [0, y1, finStation(y1, near)],
    farA: [0, y0, finStation(y0, far)],
    farB: [0, y1, finStation(y1, far)],
    normal: [outward, 0, 0],
    profile,
  };
}

/**
 * An all-moving surface whose quarter-chord line is straight and lateral (leading edge swept back,
 * trailing edge swept forward), so "pivot near quarter chord" names one line at every station.
 * `dihedral` in degrees; `sign` +1 builds the right surface, −1 the left.
 */
export function allMovingSlab(
  rootX: number,
  tipX: number,
  rootChord: number,
  tipChord: number,
  dihedral: number,
  sign: number,
  profile: ProfilePoint[],
): SlabSpec {
  const slope = Math.tan((dihedral * Math.PI) / 180);
  const rise = (tipX - rootX) * slope;
  const normalLength = Math.hypot(slope, 1);
  return {
    nearA: [sign * rootX, 0, -0.25 * rootChord],
    nearB: [sign * tipX, rise, -0.25 * tipChord],
    farA: [sign * rootX, 0, 0.75 * rootChord],
    farB: [sign * tipX, rise, 0.75 * tipChord],
    normal: [(-sign * slope) / normalLength, 1 / normalLength, 0],
    profile,
  };
}

/**
 * A panel's own local transform: deliberately neither identity nor aligned with its hinge, so a
 * hinge fit has to go through the node's transform. Varies with `index` so no two panels match.
 * With `atParentOrigin` the node sits on its parent's origin (as exporters that leave every origin
 * at the model origin do), so its origin says nothing about where the panel is.
 */
export function panelTrs(slab: SlabSpec, index: number, atParentOrigin: boolean): Trs {
  const anchor = slabPoint(slab, 0.5, 0.3, 0);
  return {
    translation: atParentOrigin ? [0, 0, 0] : [anchor[0] + 0.04, anchor[1] - 0.03, anchor[2] + 0.05],
    rotation: axisAngle([0.3, 1, 0.2 + 0.05 * index], 9 + 5 * (index % 7)),
    scale: [1, 1, 1],
  };
}
