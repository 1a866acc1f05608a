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
