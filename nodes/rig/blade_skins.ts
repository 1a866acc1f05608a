/**
 * The skin geometry an upright airbrake blade is measured against (`slide_blades.ts`): the wing's
 * skins and their normal through a blade's box, the box of points in a frame, the area of a blade's
 * middle facing along each axis, whether a plate's inner end lies on the fixed skin, and the distance
 * from a point to a triangle.
 *
 * @module
 */
import { dot, normalize, type Vec3 } from "./transform.ts";

/** Fixed geometry (aircraft coordinates), as `BodySampler.othersThan` gives it. */
export type FixedMeshes = Iterable<
  { positions: ArrayLike<number>; count: number; triangles: ArrayLike<number> }
>;

/**
 * The area of a blade's triangles facing along each axis of `frame` (aft, up, along the span), over its
 * middle: its top and bottom fifth of `lo`…`hi` up left out (a cap plate, the blade's root; a cap 4 mm
 * thick on a blade 35 mm tall reaches past a tenth of it).
 */
export function middleFaces(
  positions: ArrayLike<number>,
  triangles: ArrayLike<number>,
  frame: readonly Vec3[],
  lo: number,
  hi: number,
): number[] {
  const band = 0.2 * (hi - lo), faces = [0, 0, 0];
  const at = (i: number, k: number) =>
    positions[i] * frame[k][0] + positions[i + 1] * frame[k][1] + positions[i + 2] * frame[k][2];
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = 3 * triangles[t], b = 3 * triangles[t + 1], c = 3 * triangles[t + 2];
    const y = (at(a, 1) + at(b, 1) + at(c, 1)) / 3;
    if (y < lo + band || y > hi - band) continue;
    const u = [0, 1, 2].map((k) => at(b, k) - at(a, k));
    const v = [0, 1, 2].map((k) => at(c, k) - at(a, k));
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (let k = 0; k < 3; k++) faces[k] += Math.abs(n[k]) / 2;
  }
  return faces;
}

/**
 * The wing's skins through a blade's box: a point on the upper and on the lower skin (vertical rays at
 * three span stations, through its middle and a little fore and aft of it, where a slot may be cut)
 * and the skins' normal there (area-weighted, turned up); undefined when no ray meets two skins.
 */
export function skinsAt(
  lo: Vec3,
  hi: Vec3,
  fixed: FixedMeshes,
): { topPoint: Vec3; bottomPoint: Vec3; normal: Vec3 } | undefined {
  const depth = Math.max(hi[0] - lo[0], 0.05 * (hi[2] - lo[2]));
  const xs = [(lo[0] + hi[0]) / 2, lo[0] - depth, hi[0] + depth];
  const zs = [0.25, 0.5, 0.75].map((f) => lo[2] + f * (hi[2] - lo[2]));
  const rays = xs.flatMap((x) => zs.map((z) => ({ x, z, hits: [] as number[] })));
  const normal = [0, 0, 0];
  const [x0, x1] = [lo[0] - 2 * depth, hi[0] + 2 * depth];
  for (const mesh of fixed) {
    const p = mesh.positions, tri = mesh.triangles;
    for (let t = 0; t + 2 < tri.length; t += 3) {
      const a = 3 * tri[t], b = 3 * tri[t + 1], c = 3 * tri[t + 2];
      const minX = Math.min(p[a], p[b], p[c]), maxX = Math.max(p[a], p[b], p[c]);
      const minZ = Math.min(p[a + 2], p[b + 2], p[c + 2]), maxZ = Math.max(p[a + 2], p[b + 2], p[c + 2]);
      if (maxX < x0 || minX > x1 || maxZ < lo[2] || minZ > hi[2]) continue;
      const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
      const v = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const area = Math.hypot(n[0], n[1], n[2]);
      if (!(area > 0) || Math.abs(n[1]) < 0.8 * area) continue;
      // Skin facing up or down: its normal, turned up, counts for the wing's normal there.
      const s = n[1] < 0 ? -1 : 1;
      for (let k = 0; k < 3; k++) normal[k] += s * n[k];
      for (const ray of rays) {
        if (ray.x < minX || ray.x > maxX || ray.z < minZ || ray.z > maxZ) continue;
        // Barycentric coordinates of the ray's foot in the triangle's plan (x, z).
        const d = u[0] * v[2] - u[2] * v[0];
        if (d === 0) continue;
        const px = ray.x - p[a], pz = ray.z - p[a + 2];
        const beta = (px * v[2] - pz * v[0]) / d, gamma = (u[0] * pz - u[2] * px) / d;
        if (beta < -1e-9 || gamma < -1e-9 || beta + gamma > 1 + 1e-9) continue;
        ray.hits.push(p[a + 1] + beta * u[1] + gamma * v[1]);
      }
    }
  }
  // Per span station: the ray through the blade's middle where it meets both skins, else the mean of
  // the rays fore and aft of it (a slot cut for the blade; their mean cancels the skin's slope there).
  const tops: Vec3[] = [], bottoms: Vec3[] = [];
  zs.forEach((z, j) => {
    const [middle, fore, aft] = [0, 1, 2].map((i) => rays[i * zs.length + j]);
    const read = [middle].filter((r) => r.hits.length >= 2);
    const sides = [fore, aft].filter((r) => r.hits.length >= 2);
    const used = read.length ? read : sides;
    if (!used.length) return;
    const mean = (f: (hits: number[]) => number) => used.reduce((sum, r) => sum + f(r.hits), 0) / used.length;
    const x = used.reduce((sum, r) => sum + r.x, 0) / used.length;
    tops.push([x, mean((h) => Math.max(...h)), z]);
    bottoms.push([x, mean((h) => Math.min(...h)), z]);
  });
  if (tops.length === 0 || !(Math.hypot(normal[0], normal[1], normal[2]) > 0)) return undefined;
  // The middle station's skins where it has them (each a point: heights are read along the normal).
  const k = tops.length >> 1;
  return {
    topPoint: tops[k],
    bottomPoint: bottoms[k],
    normal: normalize(normal),
  };
}

/** The box of `count` points along the three unit directions of `frame`; undefined if one is not finite. */
export function boxOf(
  positions: ArrayLike<number>,
  count: number,
  frame: readonly Vec3[],
): { lo: Vec3; hi: Vec3 } | undefined {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const v = dot([positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]], frame[k]);
      if (!Number.isFinite(v)) return undefined;
      lo[k] = Math.min(lo[k], v), hi[k] = Math.max(hi[k], v);
    }
  }
  return { lo, hi };
}

/**
 * Whether `points` (a plate's inner end) all lie on the fixed skin: each within `within` of a triangle
 * of it. A blade drawn extended reaches on into the wing, its root's corners in no skin.
 */
export function edgeOnSkin(points: readonly Vec3[], fixed: FixedMeshes, within: number): boolean {
  if (points.length === 0) return false;
  const best = points.map(() => Infinity);
  for (const mesh of fixed) {
    const p = mesh.positions, tri = mesh.triangles;
    for (let t = 0; t + 2 < tri.length; t += 3) {
      const a = 3 * tri[t], b = 3 * tri[t + 1], c = 3 * tri[t + 2];
      const A: Vec3 = [p[a], p[a + 1], p[a + 2]], B: Vec3 = [p[b], p[b + 1], p[b + 2]];
      const C: Vec3 = [p[c], p[c + 1], p[c + 2]];
      points.forEach((q, i) => {
        if (best[i] > within) best[i] = Math.min(best[i], pointTriangle(q, A, B, C));
      });
    }
  }
  return best.every((d) => d <= within);
}

/** The distance from `p` to triangle `a`, `b`, `c` (Ericson's closest point, by regions). */
export function pointTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const sub = (u: Vec3, v: Vec3): Vec3 => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const at = (q: Vec3) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  const on = (o: Vec3, d: Vec3, t: number): Vec3 => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return at(a);
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(on(a, ab, d1 / (d1 - d3)));
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(on(a, ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return at(on(b, sub(c, b), (d4 - d3) / (d4 - d3 + d5 - d6)));
  const denom = 1 / (va + vb + vc), v = vb * denom, w = vc * denom;
  return at([0, 1, 2].map((k) => a[k] + ab[k] * v + ac[k] * w) as Vec3);
}

/** `v` less its part along unit `axis`. */
export function rejectFrom(v: Vec3, axis: Vec3): Vec3 {
  const d = dot(v, axis);
  return [v[0] - d * axis[0], v[1] - d * axis[1], v[2] - d * axis[2]];
}
