/**
 * Meshes of `all_moving_surfaces.ts`, aircraft coordinates (aft, up, left; metres): a coarse surface
 * of a few sections (cambered, swept, tapered, with dihedral), its designer's shaft, rods, boxes.
 *
 * @module
 */
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";

/** A mesh in aircraft coordinates (aft, up, left; metres). */
export interface Mesh {
  positions: number[];
  triangles: number[];
}

/** The planform and section of one surface, aircraft coordinates, the left one of a pair. */
export interface Planform {
  root: Vec3;
  span: number;
  rootChord: number;
  taper: number;
  sweep: number;
  dihedral: number;
  camber: number;
  thickness: number;
  stations: number;
  around: number;
}

/** a + s·b. */
export const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];

/** The span direction (aft 0, up, left) of a surface with `dihedral` radians. */
export const spanDir = (p: Planform): Vec3 => [0, Math.sin(p.dihedral), Math.cos(p.dihedral)];
/** The up direction in the surface's plane (square to its span and the flow). */
export const normalDir = (p: Planform): Vec3 => [0, Math.cos(p.dihedral), -Math.sin(p.dihedral)];

/** Camber line height (fraction of chord) at chord fraction x: a parabola peaking at 40 %. */
export const camberAt = (camber: number, x: number) =>
  x < 0.4 ? camber * (2 * 0.4 * x - x * x) / 0.16 : camber * ((1 - 2 * 0.4) + 2 * 0.4 * x - x * x) / 0.36;

/** The surface's closed mesh: `stations` sections of `around` points, ends capped. */
export function surfaceMesh(p: Planform): Mesh {
  const d = spanDir(p), n = normalDir(p);
  const half = p.around / 2;
  // Chord fractions along the top (lead → trail), then back along the bottom.
  const xs = Array.from({ length: half + 1 }, (_, i) => (1 - Math.cos(Math.PI * i / half)) / 2);
  const ring: [number, number][] = [];
  for (let i = 0; i <= half; i++) ring.push([xs[i], 1]);
  for (let i = half - 1; i >= 1; i--) ring.push([xs[i], -1]);
  const positions: number[] = [];
  for (let s = 0; s < p.stations; s++) {
    const t = s / (p.stations - 1), b = t * p.span;
    const chord = p.rootChord * (1 - (1 - p.taper) * t);
    const lead = add(add(p.root, d, b), [1, 0, 0], b * Math.tan(p.sweep));
    for (const [x, side] of ring) {
      const thick = side * p.thickness * 2.6 * Math.sqrt(x) * (1 - x) * (x > 0 && x < 1 ? 1 : 0);
      const h = (camberAt(p.camber, x) + thick / 2) * chord;
      positions.push(...add(add(lead, [1, 0, 0], x * chord), n, h));
    }
  }
  const m = ring.length, triangles: number[] = [];
  for (let s = 0; s + 1 < p.stations; s++) {
    for (let i = 0; i < m; i++) {
      const a = s * m + i, b = s * m + (i + 1) % m, c = a + m, e = b + m;
      triangles.push(a, b, e, a, e, c);
    }
  }
  for (const s of [0, p.stations - 1]) {
    for (let i = 1; i + 1 < m; i++) {
      triangles.push(...(s === 0 ? [s * m, s * m + i + 1, s * m + i] : [s * m, s * m + i, s * m + i + 1]));
    }
  }
  return { positions, triangles };
}

/** The designer's shaft: `f` of the MAC at the MAC's station, square to the flow in the plane. */
export function shaftOf(p: Planform, f: number): { origin: Vec3; axis: Vec3; chord: number } {
  const l = p.taper;
  const station = (p.span / 3) * (1 + 2 * l) / (1 + l);
  const mac = (2 / 3) * p.rootChord * (1 + l + l * l) / (1 + l);
  const lead = add(add(p.root, spanDir(p), station), [1, 0, 0], station * Math.tan(p.sweep));
  const origin = add(add(lead, [1, 0, 0], f * mac), normalDir(p), camberAt(p.camber, f) * mac);
  return { origin, axis: spanDir(p), chord: mac };
}

/** A closed square rod of half-width `r` from `a` to `b` (12 triangles). */
export function rod(a: Vec3, b: Vec3, r: number): Mesh {
  const along = normalize([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
  // Square to the rod and the flow (the rod runs along the span, never along the flow).
  const u = normalize([0, along[2], -along[1]]);
  const v: Vec3 = [
    along[1] * u[2] - along[2] * u[1],
    along[2] * u[0] - along[0] * u[2],
    along[0] * u[1] - along[1] * u[0],
  ];
  const positions: number[] = [];
  for (const end of [a, b]) {
    for (const [su, sv] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      positions.push(...add(add(end, u, su * r), v, sv * r));
    }
  }
  const triangles = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7];
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    triangles.push(i, j, j + 4, i, j + 4, i + 4);
  }
  return { positions, triangles };
}

/** A closed box (12 triangles), aircraft coordinates. */
export function box(min: Vec3, max: Vec3): Mesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}

/** Two meshes as one. */
export function joined(a: Mesh, b: Mesh): Mesh {
  const offset = a.positions.length / 3;
  return {
    positions: [...a.positions, ...b.positions],
    triangles: [...a.triangles, ...b.triangles.map((i) => i + offset)],
  };
}

/** A mesh mirrored left for right. */
export function mirrored(m: Mesh): Mesh {
  const positions = m.positions.map((v, i) => i % 3 === 2 ? -v : v);
  const triangles: number[] = [];
  for (let t = 0; t < m.triangles.length; t += 3) {
    triangles.push(m.triangles[t], m.triangles[t + 2], m.triangles[t + 1]);
  }
  return { positions, triangles };
}
