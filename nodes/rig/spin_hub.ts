/**
 * The axis a spinning part's hub or spinner object is drawn about, for `spin_fit.ts`: the axis it is
 * round about ({@link roundAxis}: its surface normals meet it), or — drawn as a coarse polygon, whose
 * triangles' normals miss the axis too far (10 sides) — the principal axis of its surface about which
 * its vertices are k-fold symmetric, each landing on another after a turn of one side.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import { roundAxis } from "./spin_single.ts";
import {
  countBlades,
  radiusAbout,
  type SpinGeometry,
  surfaceMoments,
  SYMMETRY_GOOD,
  VertexGrid,
} from "./spin_symmetry.ts";
import { normalize, type Vec3 } from "./transform.ts";

/** The hub's axis and centre, or why it has none. */
export function hubAxis(hub: SpinGeometry): { axis: Vec3; centre: Vec3 } | { why: string } {
  const round = roundAxis(hub);
  if ("axis" in round) return round;
  const moments = surfaceMoments(hub);
  const { vectors } = symmetricEigen3(...moments.covariance);
  let grid: VertexGrid | undefined;
  for (const vector of vectors) {
    const axis = normalize(vector), centre = moments.centroid;
    const radius = radiusAbout(hub, centre, axis);
    const sides = countBlades(hub, centre, axis, radius);
    if (sides < 3) continue;
    grid ??= new VertexGrid(hub);
    if (grid.symmetryError(centre, axis, (2 * Math.PI) / sides, radius, 300).p90 <= SYMMETRY_GOOD) {
      return { axis, centre };
    }
  }
  return round;
}
