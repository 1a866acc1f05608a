/**
 * The islands of a panel's geometry and their shapes, for `linkages.ts`: vertices joined by triangles
 * or at one position (an export that splits every face's corners is still one part), each with its
 * principal extents, the ends of its longest axis and its box in panel coordinates.
 *
 * @module
 */
import { disjointSets } from "./disjoint_sets.ts";
import { symmetricEigen3 } from "./eigen3.ts";
import type { PanelCoordinates } from "./edge_stations.ts";

/** Islands looked at: a hostile mesh of thousands of fragments is left as it is. */
export const MAX_ISLANDS = 400;

/** An island's shape: its vertices, principal extents and the rod ends. */
export interface Island {
  readonly vertices: number[];
  /** Extents along its principal axes, longest first. */
  readonly extents: [number, number, number];
  /** The ends of its longest axis, (u, v, w) each. */
  readonly ends: [[number, number, number], [number, number, number]];
  /** Its box in panel coordinates (u, v, w): lowest and highest. */
  readonly low: number[];
  readonly high: number[];
}

/**
 * The geometry's islands (triangles joined by shared vertices or by vertices within `weld` of each
 * other), each with its principal extents; the largest by vertex count (the surface's skin) is left
 * out, as are islands of fewer than four vertices.
 */
export function islandsOf(coords: PanelCoordinates, triangles: Uint32Array, weld: number): Island[] {
  const count = coords.u.length;
  const { find, join } = disjointSets(count);
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    if (a >= count || b >= count || c >= count) continue;
    join(a, b);
    join(a, c);
  }
  // Vertices at one position (a flat-shaded export splits every corner) are one.
  const at = new Map<string, number>();
  const q = (x: number) => Math.round(x / weld);
  for (let i = 0; i < count; i++) {
    const key = `${q(coords.u[i])},${q(coords.chordAt(i))},${q(coords.thicknessAt(i))}`;
    const first = at.get(key);
    if (first === undefined) at.set(key, i);
    else join(i, first);
  }
  const members = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const r = find(i);
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [i]);
  }
  const lists = [...members.values()].sort((x, y) => y.length - x.length).slice(1);
  if (lists.length > MAX_ISLANDS) {
    return lists.map((vertices) => ({
      vertices,
      extents: [0, 0, 0],
      ends: [[0, 0, 0], [0, 0, 0]],
      low: [],
      high: [],
    }));
  }
  return lists.filter((l) => l.length >= 4).map((vertices) => shapeOf(coords, vertices));
}

/** An island's principal extents and the ends of its longest axis. */
function shapeOf(coords: PanelCoordinates, vertices: number[]): Island {
  const n = vertices.length;
  const p = vertices.map((v) => [coords.u[v], coords.chordAt(v), coords.thicknessAt(v)]);
  const m = [0, 1, 2].map((k) => p.reduce((s, x) => s + x[k], 0) / n);
  const c = (i: number, j: number) => p.reduce((s, x) => s + (x[i] - m[i]) * (x[j] - m[j]), 0) / n;
  const { vectors } = symmetricEigen3(c(0, 0), c(0, 1), c(0, 2), c(1, 1), c(1, 2), c(2, 2));
  const range = (axis: readonly number[]) => {
    let lo = Infinity, hi = -Infinity;
    for (const x of p) {
      const t = (x[0] - m[0]) * axis[0] + (x[1] - m[1]) * axis[1] + (x[2] - m[2]) * axis[2];
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    return [lo, hi];
  };
  // Eigenvectors come least first.
  const [lo, hi] = range(vectors[2]);
  const widths = [vectors[2], vectors[1], vectors[0]].map((axis) => {
    const [a, b] = range(axis);
    return b - a;
  });
  const end = (t: number) => [0, 1, 2].map((k) => m[k] + vectors[2][k] * t) as [number, number, number];
  return {
    vertices,
    extents: [widths[0], Math.max(widths[1], widths[2]), Math.min(widths[1], widths[2])],
    ends: [end(lo), end(hi)],
    low: [0, 1, 2].map((k) => p.reduce((x, q) => Math.min(x, q[k]), Infinity)),
    high: [0, 1, 2].map((k) => p.reduce((x, q) => Math.max(x, q[k]), -Infinity)),
  };
}
