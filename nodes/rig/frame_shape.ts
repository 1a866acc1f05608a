/**
 * Shape measurements frame detection (`frame_detect.ts`) decides from: the bounding box, mirror
 * symmetry per axis on a voxel grid, and the vertical reach of the fuselage's two ends.
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";

/** Voxels per axis of the symmetry test. */
const GRID = 24;
/** Fraction of the length at each end whose cross-section is compared. */
const END_SLICE = 0.2;

/**
 * Per axis, the fraction of occupied voxels whose mirror image across the box's mid-plane (give or
 * take one voxel along that axis) is occupied too: near 1 across the span of a symmetric aircraft.
 */
export function mirrorSymmetry(points: Float64Array, min: Vec3, extent: number[]): number[] {
  const occupied = new Uint8Array(GRID * GRID * GRID);
  const scale = extent.map((e) => e > 0 ? GRID / e : 0);
  const cell = (value: number, k: number) => Math.min(GRID - 1, ((value - min[k]) * scale[k]) | 0);
  for (let i = 0; i < points.length; i += 3) {
    occupied[(cell(points[i], 0) * GRID + cell(points[i + 1], 1)) * GRID + cell(points[i + 2], 2)] = 1;
  }
  const stride = [GRID * GRID, GRID, 1];
  return [0, 1, 2].map((k) => {
    let filled = 0, matched = 0;
    for (let index = 0; index < occupied.length; index++) {
      if (!occupied[index]) continue;
      filled++;
      const c = Math.floor(index / stride[k]) % GRID;
      const base = index - c * stride[k];
      const mirror = GRID - 1 - c;
      for (let d = -1; d <= 1; d++) {
        const m = mirror + d;
        if (m >= 0 && m < GRID && occupied[base + m * stride[k]]) {
          matched++;
          break;
        }
      }
    }
    return matched / filled;
  });
}

/** The vertical reach of one end of the fuselage axis. */
export interface EndSection {
  top: number;
  bottom: number;
}

/**
 * The vertical reach of the last {@link END_SLICE} of the length at each end (`low`, `high` along
 * `long`), and the fuselage's centre line: the middle of the vertical range of the points near the
 * plane of symmetry in the middle of the length (guessed as the box's centre when there are none,
 * `levelKnown: false`).
 */
export function endSections(
  points: Float64Array,
  min: Vec3,
  extent: number[],
  long: number,
  span: number,
  upAxis: number,
): { low: EndSection; high: EndSection; level: number; levelKnown: boolean } {
  const low = { top: -Infinity, bottom: Infinity }, high = { top: -Infinity, bottom: Infinity };
  const middle = { top: -Infinity, bottom: Infinity };
  const spanCentre = min[span] + extent[span] / 2;
  for (let i = 0; i < points.length; i += 3) {
    const t = (points[i + long] - min[long]) / extent[long];
    const centreLine = Math.abs(points[i + span] - spanCentre) <= 0.1 * extent[span];
    const target = t <= END_SLICE
      ? low
      : t >= 1 - END_SLICE
      ? high
      : t >= 0.3 && t <= 0.7 && centreLine
      ? middle
      : undefined;
    if (!target) continue;
    target.top = Math.max(target.top, points[i + upAxis]);
    target.bottom = Math.min(target.bottom, points[i + upAxis]);
  }
  const levelKnown = middle.top >= middle.bottom;
  const level = levelKnown ? (middle.top + middle.bottom) / 2 : min[upAxis] + extent[upAxis] / 2;
  return { low, high, level, levelKnown };
}

/** Two surfaces canted symmetric about the plane of symmetry at one end: a V-tail seen from behind. */
export interface EndVee {
  /** +1: the V opens toward +up (its tips above its root), −1: toward −up. */
  readonly opens: 1 | -1;
  /** The surfaces' cant from the span axis, degrees. */
  readonly cant: number;
  /** How well height follows the distance from the plane of symmetry (correlation, 0–1). */
  readonly fit: number;
}

/** A V's cant from the span axis must be within these (dihedral and anhedral stay below 20°). */
const VEE_CANT: readonly [number, number] = [20, 70];
/** The correlation of height with distance from the plane of symmetry a V must reach. */
const VEE_FIT = 0.9;

/**
 * At each end's last {@link END_SLICE} of the length, a V when the points away from the plane of
 * symmetry (beyond a quarter of that end's half-width), on both sides, lie along two canted lines:
 * height follows the distance from the plane with a correlation of {@link VEE_FIT} or more and a
 * slope of {@link VEE_CANT}. A flat tailplane with an upright fin, a prop disc or a bare fuselage
 * box is no V; a swept wing whose tips reach the end is too flat to be one.
 */
export function endVees(
  points: Float64Array,
  min: Vec3,
  extent: number[],
  long: number,
  span: number,
  upAxis: number,
): { low?: EndVee; high?: EndVee } {
  const spanCentre = min[span] + extent[span] / 2;
  const ends = [[] as number[], [] as number[]]; // (signed offset, height) pairs, low and high end
  for (let i = 0; i < points.length; i += 3) {
    const t = (points[i + long] - min[long]) / extent[long];
    const end = t <= END_SLICE ? 0 : t >= 1 - END_SLICE ? 1 : -1;
    if (end >= 0) ends[end].push(points[i + span] - spanCentre, points[i + upAxis]);
  }
  const [low, high] = ends.map((pairs) => veeOf(pairs));
  return { low, high };
}

function veeOf(pairs: number[]): EndVee | undefined {
  let halfWidth = 0;
  for (let i = 0; i < pairs.length; i += 2) halfWidth = Math.max(halfWidth, Math.abs(pairs[i]));
  let n = 0, left = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const x = Math.abs(pairs[i]), y = pairs[i + 1];
    if (!(x > 0.25 * halfWidth)) continue;
    n++;
    if (pairs[i] > 0) left++;
    sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
  }
  // Both sides, each with a fifth of the points at least: one canted fin is no V.
  if (n < 8 || left < 0.2 * n || n - left < 0.2 * n) return undefined;
  const vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  if (!(vx > 1e-12 * halfWidth * halfWidth) || !(vy > 0)) return undefined;
  const fit = Math.abs(cxy) / Math.sqrt(vx * vy);
  const cant = Math.atan(Math.abs(cxy / vx)) * 180 / Math.PI;
  if (fit < VEE_FIT || cant < VEE_CANT[0] || cant > VEE_CANT[1]) return undefined;
  return { opens: cxy > 0 ? 1 : -1, cant, fit };
}
