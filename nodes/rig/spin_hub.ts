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
import { dot, normalize, type Vec3 } from "./transform.ts";

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

/**
 * A hub or spinner drawn into the part's own mesh: the islands of its surface (triangles joined by
 * shared corners, corners at one place welded, as seams split them) lying wholly within 35 % of the
 * radius of `centre`; a joined mesh keeps each object it was made from an island of its own. Blades
 * reach further; undefined when no island lies inside.
 */
export function innerIslands(g: SpinGeometry, centre: Vec3, radius: number): SpinGeometry | undefined {
  const t = g.triangles, p = g.positions;
  if (!t || t.length < 3 || !(radius > 0)) return undefined;
  // Corners welded by position (a millionth of the radius), then joined through their triangles.
  const weld = new Map<string, number>(), root = new Int32Array(g.count);
  const q = 1e-6 * radius;
  for (let i = 0; i < g.count; i++) {
    const key = `${Math.round(p[i * 3] / q)},${Math.round(p[i * 3 + 1] / q)},${Math.round(p[i * 3 + 2] / q)}`;
    root[i] = weld.get(key) ?? i;
    if (!weld.has(key)) weld.set(key, i);
  }
  const find = (i: number): number => {
    while (root[i] !== i) i = root[i] = root[root[i]];
    return i;
  };
  for (let i = 0; i + 2 < t.length; i += 3) {
    const a = find(t[i]);
    for (const corner of [t[i + 1], t[i + 2]]) {
      const b = find(corner);
      if (a !== b) root[b] = a;
    }
  }
  const far = new Map<number, number>();
  for (let i = 0; i < g.count; i++) {
    const d = Math.hypot(p[i * 3] - centre[0], p[i * 3 + 1] - centre[1], p[i * 3 + 2] - centre[2]);
    const island = find(i);
    far.set(island, Math.max(far.get(island) ?? 0, d));
  }
  const kept: number[] = [];
  for (let i = 0; i + 2 < t.length; i += 3) {
    if (far.get(find(t[i]))! <= 0.35 * radius) kept.push(t[i], t[i + 1], t[i + 2]);
  }
  return kept.length ? { positions: p, count: g.count, triangles: new Uint32Array(kept) } : undefined;
}

/** Degrees between the shaft and the axis a hub drawn into the part's mesh is round about (90: none). */
export function innerHubDegrees(geometry: SpinGeometry, centre: Vec3, axis: Vec3): number {
  const inner = innerIslands(geometry, centre, radiusAbout(geometry, centre, axis));
  const round = inner ? hubAxis(inner) : undefined;
  return round && "axis" in round
    ? (Math.acos(Math.min(1, Math.abs(dot(round.axis, axis)))) * 180) / Math.PI
    : 90;
}
