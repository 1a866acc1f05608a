/**
 * How symmetric a spinning part is about a candidate shaft, for `spin_fit.ts`: its radius about the
 * axis, the blades counted about it, and how far points turned by one blade spacing land from the
 * surface (a few points first, all only where within reach of symmetric).
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";
import {
  type BladeSamples,
  bladeSamples,
  countBlades,
  radiusAbout,
  type SpinGeometry,
  SYMMETRY_FAILED,
  SYMMETRY_GOOD,
  type VertexGrid,
} from "./spin_symmetry.ts";
import type { SurfaceGrid } from "./spin_surface.ts";

/**
 * The turn a part with no blades told apart is tested under (radians): no multiple of a full turn
 * over any small count, so only a surface round about the axis (a spinner, a hub, a disc — drawn as a
 * polygon of 32 sides or more) lands on itself.
 */
const ROUND_TEST_ANGLE = 1;

/** A candidate shaft judged: its radius, blades, symmetry (90th percentile) and median, matched share. */
export interface AxisJudgement {
  readonly axis: Vec3;
  readonly radius: number;
  readonly blades: number;
  readonly symmetry: number;
  readonly median: number;
  readonly matched: number;
}

/**
 * The judge of candidate shafts through `centroid`: measured on the `surface` where there is one, else
 * on the vertices (`vertexGrid`, made when first asked). `full`: also test an unbladed axis for
 * roundness and a count's divisors (not in the plane search, which wants two blades and measures a
 * hundred axes). The triangles' blade samples are taken once for every axis tried.
 */
export function axisJudge(
  geometry: SpinGeometry,
  centroid: Vec3,
  surface: SurfaceGrid | undefined,
  vertexGrid: () => VertexGrid,
): (axis: Vec3, budget?: number, full?: boolean) => AxisJudgement {
  let taken: BladeSamples | undefined;
  const samples = () => taken ??= bladeSamples(geometry);
  // `full`: also test an unbladed axis for roundness and a count's divisors (not in the plane search,
  // which wants two blades and measures a hundred axes).
  return (axis: Vec3, budget = 1000, full = true): AxisJudgement => {
    const radius = radiusAbout(geometry, centroid, axis);
    const counted = countBlades(geometry, centroid, axis, radius, samples());
    // No blades told apart: symmetric only if round about the axis, which any turn tells.
    const measure = (blades: number, points: number) => {
      const angle = blades === 0 ? ROUND_TEST_ANGLE : (2 * Math.PI) / blades;
      return surface
        ? surface.symmetryError(centroid, axis, angle, radius, SYMMETRY_FAILED, points)
        : vertexGrid().symmetryError(centroid, axis, angle, radius, points);
    };
    const measurable = (blades: number) => blades >= 2 || (full && blades === 0 && !!surface);
    // A few points tell an axis far from symmetric (most are), whose turned points are costly to
    // place far from the surface; only one within reach of symmetric is measured in full.
    let blades = counted, coarse = measurable(counted) ? measure(counted, Math.min(budget, 100)) : undefined;
    // Two sets of blades one behind the other (a contra-rotating pair drawn as one object) cancel in
    // their own harmonic where their phases differ by half a spacing, leaving its double: the surface
    // is symmetric under a divisor of the count.
    for (let d = 2; full && coarse && coarse.p90 > 4 * SYMMETRY_GOOD && counted / d >= 2; d++) {
      if (counted % d !== 0) continue;
      const fewer = measure(counted / d, Math.min(budget, 100));
      if (fewer.p90 <= 4 * SYMMETRY_GOOD) blades = counted / d, coarse = fewer;
    }
    const { p90, median, matched } = !coarse
      ? { p90: Infinity, median: Infinity, matched: 0 }
      : coarse.p90 > 4 * SYMMETRY_GOOD || budget <= 100
      ? coarse
      : measure(blades, budget);
    // An unbladed axis is symmetric only when round about it: else no blade spacing to measure.
    const symmetry = blades === 0 && p90 > SYMMETRY_GOOD ? Infinity : p90;
    return { axis, radius, blades, symmetry, median, matched };
  };
}
