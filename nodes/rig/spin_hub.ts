/**
 * The axis a spinning part's hub or spinner object is drawn about, for `spin_fit.ts`: the principal
 * axis of its surface about which it is rotationally symmetric (a polygon of k sides, drawn coarsely,
 * is k-fold symmetric about it; at 10 sides its triangles' normals miss the axis too far for
 * {@link roundAxis}, which takes over where the moments leave the axis unfixed — a hub as long as it
 * is wide).
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import { roundAxis } from "./spin_single.ts";
import { SurfaceGrid } from "./spin_surface.ts";
import {
  countBlades,
  radiusAbout,
  type SpinGeometry,
  surfaceMoments,
  SYMMETRY_FAILED,
  SYMMETRY_GOOD,
} from "./spin_symmetry.ts";
import { normalize, type Vec3 } from "./transform.ts";

/** The hub's axis and centre, or why it has none. */
export function hubAxis(hub: SpinGeometry): { axis: Vec3; centre: Vec3 } | { why: string } {
  const moments = surfaceMoments(hub);
  const surface = moments.fromTriangles ? SurfaceGrid.of(hub) : undefined;
  if (surface) {
    const { vectors } = symmetricEigen3(...moments.covariance);
    for (const vector of vectors) {
      const axis = normalize(vector), centre = moments.centroid;
      const radius = radiusAbout(hub, centre, axis);
      const sides = countBlades(hub, centre, axis, radius);
      if (sides < 3) continue;
      const { p90 } = surface.symmetryError(centre, axis, (2 * Math.PI) / sides, radius, SYMMETRY_FAILED);
      if (p90 <= SYMMETRY_GOOD) return { axis, centre };
    }
  }
  return roundAxis(hub);
}
