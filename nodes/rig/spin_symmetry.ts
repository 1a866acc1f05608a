/**
 * How rotationally symmetric a spinning part's surface is, for `spin_fit.ts`: its area-weighted
 * moments, its radius and blade count about a candidate shaft, and a grid of its vertices that
 * refines the shaft from the blades' orbits (and, for points drawn without triangles, measures how
 * far they land from one another when turned by one blade spacing; surfaces are measured surface to
 * surface by `spin_surface.ts`).
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import { cross, dot, length, normalize, sub, type Vec3 } from "./transform.ts";

/** Surface points of a part (aircraft frame). */
export interface SpinGeometry {
  readonly positions: Float64Array;
  readonly count: number;
  readonly triangles?: Uint32Array;
}

/** Blade vertices landing within this share of the radius of a vertex (90th percentile) are symmetric. */
export const SYMMETRY_GOOD = 0.005;

/** Beyond this share of the radius the part has no axis of symmetry at all: the fit failed. */
export const SYMMETRY_FAILED = 0.1;

/** Area-weighted centroid and covariance (`xx, xy, xz, yy, yz, zz`) of a surface. */
export function surfaceMoments(
  g: SpinGeometry,
): { centroid: Vec3; covariance: [number, number, number, number, number, number]; fromTriangles: boolean } {
  const p = g.positions;
  // Relative to the first vertex: moments of far-off geometry lose no digits.
  const o: Vec3 = g.count > 0 ? [p[0], p[1], p[2]] : [0, 0, 0];
  let area = 0;
  const first = [0, 0, 0], second = [0, 0, 0, 0, 0, 0];
  const PAIRS = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]];
  /** Adds `weight` at the mean of `points` with second moment `weight · Σ qqᵀ · scale + extra`. */
  const add = (weight: number, points: readonly Vec3[], extra: Vec3 | undefined, scale: number) => {
    area += weight;
    for (const q of points) for (let k = 0; k < 3; k++) first[k] += (weight * q[k]) / points.length;
    PAIRS.forEach(([i, j], n) => {
      let sum = extra ? extra[i] * extra[j] : 0;
      for (const q of points) sum += q[i] * q[j];
      second[n] += weight * sum * scale;
    });
  };
  const at = (i: number): Vec3 => [p[i * 3] - o[0], p[i * 3 + 1] - o[1], p[i * 3 + 2] - o[2]];
  const triangles = g.triangles;
  if (triangles && triangles.length >= 3) {
    for (let t = 0; t + 2 < triangles.length; t += 3) {
      const a = at(triangles[t]), b = at(triangles[t + 1]), c = at(triangles[t + 2]);
      const doubled = length(cross(sub(b, a), sub(c, a)));
      if (!(doubled > 0)) continue;
      const s: Vec3 = [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]];
      // ∫ x xᵀ dA over a triangle = A/12 (a aᵀ + b bᵀ + c cᵀ + s sᵀ).
      add(doubled / 2, [a, b, c], s, 1 / 12);
    }
  }
  const fromTriangles = area > 0;
  if (!fromTriangles) { for (let i = 0; i < g.count; i++) add(1, [at(i)], undefined, 1); }
  if (!(area > 0)) return { centroid: o, covariance: [0, 0, 0, 0, 0, 0], fromTriangles };
  const m: Vec3 = [first[0] / area, first[1] / area, first[2] / area];
  const cov = second.map((v) => v / area) as [number, number, number, number, number, number];
  cov[0] -= m[0] * m[0], cov[1] -= m[0] * m[1], cov[2] -= m[0] * m[2];
  cov[3] -= m[1] * m[1], cov[4] -= m[1] * m[2], cov[5] -= m[2] * m[2];
  return { centroid: [m[0] + o[0], m[1] + o[1], m[2] + o[2]], covariance: cov, fromTriangles };
}

/** Vertices hashed in a grid, for the nearest-vertex distance of turned points. */
export class VertexGrid {
  readonly #cells = new Map<number, number[]>();
  readonly #cell: number;
  readonly #min: Vec3;
  readonly #p: Float64Array;
  readonly #count: number;

  constructor(g: SpinGeometry) {
    this.#p = g.positions;
    this.#count = g.count;
    const min: Vec3 = [Infinity, Infinity, Infinity];
    let extent = 0;
    for (let i = 0; i < g.count; i++) {
      for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], g.positions[i * 3 + k]);
    }
    for (let i = 0; i < g.count; i++) {
      for (let k = 0; k < 3; k++) extent = Math.max(extent, g.positions[i * 3 + k] - min[k]);
    }
    this.#min = min;
    this.#cell = Math.max(extent / 64, 1e-12);
    for (let i = 0; i < g.count; i++) {
      const key = this.#key(
        ...this.#index(g.positions[i * 3], g.positions[i * 3 + 1], g.positions[i * 3 + 2]),
      );
      const list = this.#cells.get(key);
      if (list) list.push(i);
      else this.#cells.set(key, [i]);
    }
  }

  #index(x: number, y: number, z: number): [number, number, number] {
    const m = this.#min, c = this.#cell;
    return [Math.floor((x - m[0]) / c), Math.floor((y - m[1]) / c), Math.floor((z - m[2]) / c)];
  }

  /** Cells lie within 0…64 of the minimum; a key outside ±1,000 of it names no cell. */
  #key(x: number, y: number, z: number): number {
    if (Math.max(Math.abs(x), Math.abs(y), Math.abs(z)) > 1000) return -1;
    return ((x + 1024) * 4096 + (y + 1024)) * 4096 + (z + 1024);
  }

  /** Distance from `q` to the nearest vertex, searched up to `reach` rings of cells out (else that far). */
  nearest(q: Vec3, reach: number): number {
    return this.nearestVertex(q, reach).distance;
  }

  /** The nearest vertex to `q` (index −1 when none lies within `reach` rings) and its distance. */
  nearestVertex(q: Vec3, reach: number): { index: number; distance: number } {
    const [cx, cy, cz] = this.#index(q[0], q[1], q[2]);
    // How far inside its cell q lies: a cell r + 1 rings out is at least (r + margin) cells away.
    const m = this.#min, size = this.#cell;
    const fx = (q[0] - m[0]) / size - cx, fy = (q[1] - m[1]) / size - cy, fz = (q[2] - m[2]) / size - cz;
    const margin = Math.max(0, Math.min(fx, 1 - fx, fy, 1 - fy, fz, 1 - fz));
    let best = Infinity, index = -1;
    for (let r = 0; r <= reach; r++) {
      for (let x = cx - r; x <= cx + r; x++) {
        for (let y = cy - r; y <= cy + r; y++) {
          const edge = Math.abs(x - cx) === r || Math.abs(y - cy) === r;
          for (let z = cz - r; z <= cz + r; z += edge ? 1 : 2 * r || 1) {
            for (const i of this.#cells.get(this.#key(x, y, z)) ?? []) {
              const d = Math.hypot(
                this.#p[i * 3] - q[0],
                this.#p[i * 3 + 1] - q[1],
                this.#p[i * 3 + 2] - q[2],
              );
              if (d < best) best = d, index = i;
            }
          }
        }
      }
      // Nothing nearer can lie beyond the ring searched.
      if (best <= (r + margin) * size) return { index, distance: best };
    }
    return { index, distance: Math.min(best, (reach + 1) * this.#cell) };
  }

  /**
   * The shaft refined from the blades' orbits: each outer vertex with its images one, two … spacings
   * on (the nearest vertices to its turned copies) averages to a point on the true shaft, so a line
   * through those averages is the shaft, free of the moments' sensitivity where two of them are near
   * equal (two blades). Undefined where the orbits do not close or their averages spread too little
   * along the shaft to give it a direction (flat blades).
   */
  refineByOrbits(
    centre: Vec3,
    axis: Vec3,
    blades: number,
    radius: number,
  ): { axis: Vec3; centre: Vec3 } | undefined {
    const means: Vec3[] = [];
    const reach = Math.ceil((SYMMETRY_GOOD * radius) / this.#cell) + 1;
    const stride = Math.max(1, Math.ceil(this.#count / 1000));
    for (let i = 0; i < this.#count; i += stride) {
      const p: Vec3 = [this.#p[i * 3], this.#p[i * 3 + 1], this.#p[i * 3 + 2]];
      const d = sub(p, centre);
      if (length(cross(d, axis)) < 0.3 * radius) continue;
      const sum: Vec3 = [...p];
      let closed = true;
      for (let k = 1; k < blades && closed; k++) {
        const angle = (2 * Math.PI * k) / blades, cos = Math.cos(angle), sin = Math.sin(angle);
        const along = dot(axis, d), turned = cross(axis, d);
        const q = [0, 1, 2].map((j) =>
          centre[j] + d[j] * cos + turned[j] * sin + axis[j] * along * (1 - cos)
        ) as Vec3;
        const hit = this.nearestVertex(q, Math.min(reach, 4));
        if (hit.index < 0 || hit.distance > SYMMETRY_GOOD * radius) closed = false;
        else for (let j = 0; j < 3; j++) sum[j] += this.#p[hit.index * 3 + j];
      }
      if (closed) means.push(sum.map((v) => v / blades) as Vec3);
    }
    if (means.length < 8) return undefined;
    const flat = new Float64Array(means.flat());
    const { centroid, covariance } = surfaceMoments({ positions: flat, count: means.length });
    const { values, vectors } = symmetricEigen3(...covariance);
    // The averages must spread along the shaft (≥ 1 % of the radius) and hardly across it.
    if (!(Math.sqrt(values[2]) >= 0.01 * radius) || Math.sqrt(values[1]) > 1e-3 * Math.sqrt(values[2])) {
      return undefined;
    }
    const line = normalize(vectors[2]);
    if (Math.abs(dot(line, axis)) < Math.cos((1 * Math.PI) / 180)) return undefined;
    return { axis: dot(line, axis) < 0 ? line.map((v) => -v) as Vec3 : line, centre: centroid };
  }

  /**
   * 90th-percentile distance (/ radius) from the nearest vertex of the vertices beyond 30 % of the
   * radius turned by `angle` about the line (at most `budget` of them, evenly strided), and the
   * median; distances past {@link SYMMETRY_FAILED} of the radius count as that far (the axis is no
   * symmetry axis anyway). For points without triangles; surfaces are measured by `spin_surface.ts`.
   */
  symmetryError(
    centre: Vec3,
    axis: Vec3,
    angle: number,
    radius: number,
    budget = 1000,
  ): { p90: number; median: number; matched: number } {
    if (!(radius > 0)) return { p90: Infinity, median: Infinity, matched: 0 };
    const outer: number[] = [];
    for (let i = 0; i < this.#count; i++) {
      const d = sub([this.#p[i * 3], this.#p[i * 3 + 1], this.#p[i * 3 + 2]], centre);
      if (length(cross(d, axis)) >= 0.3 * radius) outer.push(i);
    }
    const picked = outer.length ? outer : [...Array(this.#count).keys()];
    const stride = Math.max(1, Math.ceil(picked.length / budget));
    const cos = Math.cos(angle), sin = Math.sin(angle);
    const errors: number[] = [];
    const reach = Math.ceil((1.5 * SYMMETRY_FAILED * radius) / this.#cell) + 1;
    for (let n = 0; n < picked.length; n += stride) {
      const i = picked[n];
      const d = sub([this.#p[i * 3], this.#p[i * 3 + 1], this.#p[i * 3 + 2]], centre);
      // Rodrigues: d cos + (a × d) sin + a (a·d)(1 − cos).
      const along = dot(axis, d), turned = cross(axis, d);
      const q: Vec3 = [0, 1, 2].map((k) =>
        centre[k] + d[k] * cos + turned[k] * sin + axis[k] * along * (1 - cos)
      ) as Vec3;
      errors.push(Math.min(this.nearest(q, Math.min(reach, 16)) / radius, SYMMETRY_FAILED * 1.5));
    }
    errors.sort((a, b) => a - b);
    const at = (share: number) => errors[Math.min(errors.length - 1, Math.floor(share * errors.length))];
    if (!errors.length) return { p90: Infinity, median: Infinity, matched: 0 };
    return {
      p90: at(0.9),
      median: at(0.5),
      matched: errors.filter((e) => e <= SYMMETRY_GOOD).length / errors.length,
    };
  }
}

/** Largest distance of a vertex from the line through `centre` along unit `axis`. */
export function radiusAbout(g: SpinGeometry, centre: Vec3, axis: Vec3): number {
  // length(cross(p − centre, axis)) written out: the fit asks this of every axis it tries.
  const p = g.positions, [c0, c1, c2] = centre, [a0, a1, a2] = axis;
  let max = 0;
  for (let i = 0; i < g.count; i++) {
    const d0 = p[i * 3] - c0, d1 = p[i * 3 + 1] - c1, d2 = p[i * 3 + 2] - c2;
    const x = d1 * a2 - d2 * a1, y = d2 * a0 - d0 * a2, z = d0 * a1 - d1 * a0;
    max = Math.max(max, Math.sqrt(x * x + y * y + z * z));
  }
  return max;
}

/** A surface's triangles with area, as `countBlades` weighs them: centroids (xyz flat) and areas (×2). */
export interface BladeSamples {
  readonly points: Float64Array;
  readonly weights: Float64Array;
}

/** The triangles' centroids and weights `countBlades` reads (the same about every axis: taken once). */
export function bladeSamples(g: SpinGeometry): BladeSamples {
  const p = g.positions, t = g.triangles;
  const at = (i: number): Vec3 => [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
  const points: number[] = [], weights: number[] = [];
  if (t && t.length >= 3) {
    for (let i = 0; i + 2 < t.length; i += 3) {
      const a = at(t[i]), b = at(t[i + 1]), c = at(t[i + 2]);
      const weight = length(cross(sub(b, a), sub(c, a)));
      if (weight > 0) {
        points.push((a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3);
        weights.push(weight);
      }
    }
  }
  return { points: Float64Array.from(points), weights: Float64Array.from(weights) };
}

/**
 * Blades about an axis, from the angular harmonics of the surface beyond 35 % of the radius (a hub
 * inside is round): the smallest k ≥ 2 whose harmonic is strong; 1 when the first is the strongest
 * (everything on one side); 0 when none stands out (an even disc). Harmonics up to the 64th are
 * read: a turbofan's fan has 18–24 blades, and a spinner, hub or blurred disc drawn as a polygon of
 * up to 64 sides is as many-fold symmetric about its shaft — read only to the 12th, a 16-sided disc
 * counted no blades about its normal but two about a diameter (seen edge on, a line), and its shaft
 * was taken across it. `samples`: the geometry's {@link bladeSamples}, where the caller tries many axes.
 */
export function countBlades(
  g: SpinGeometry,
  centre: Vec3,
  axis: Vec3,
  radius: number,
  samples: BladeSamples = bladeSamples(g),
): number {
  const u = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const w = cross(axis, u);
  // Each sample's direction (cos θ, sin θ) and weight, for the harmonics below.
  const cosines: number[] = [], sines: number[] = [], weights: number[] = [];
  let total = 0;
  const [c0, c1, c2] = centre, [u0, u1, u2] = u, [w0, w1, w2] = w;
  const sample = (px: number, py: number, pz: number, weight: number) => {
    const d0 = px - c0, d1 = py - c1, d2 = pz - c2;
    const x = d0 * u0 + d1 * u1 + d2 * u2, y = d0 * w0 + d1 * w1 + d2 * w2, r = Math.hypot(x, y);
    if (r < 0.35 * radius) return;
    total += weight;
    cosines.push(x / r), sines.push(y / r), weights.push(weight);
  };
  const centroids = samples.points, areas = samples.weights;
  for (let n = 0; n < areas.length; n++) {
    sample(centroids[n * 3], centroids[n * 3 + 1], centroids[n * 3 + 2], areas[n]);
  }
  const p = g.positions;
  if (!(total > 0)) { for (let i = 0; i < g.count; i++) sample(p[i * 3], p[i * 3 + 1], p[i * 3 + 2], 1); }
  if (!(total > 0)) return 0;
  /** The count the harmonics up to the K-th say (see above), or 0. */
  const count = (K: number) => {
    const re = new Float64Array(K + 1), im = new Float64Array(K + 1);
    for (let n = 0; n < weights.length; n++) {
      // cos kθ, sin kθ by the angle-addition recurrence: no trigonometry per harmonic.
      const c1 = cosines[n], s1 = sines[n], weight = weights[n];
      let c = c1, s = s1;
      for (let k = 1; k <= K; k++) {
        re[k] += weight * c, im[k] += weight * s;
        const next = c * c1 - s * s1;
        s = s * c1 + c * s1, c = next;
      }
    }
    const m = [0];
    for (let k = 1; k <= K; k++) m.push(Math.hypot(re[k], im[k]) / total);
    const strongest = Math.max(...m.slice(2));
    if (m[1] > 0.3 && m[1] >= strongest) return 1;
    if (strongest < 0.15) return 0;
    for (let k = 2; k <= K; k++) if (m[k] >= 0.6 * strongest) return k;
    return 0;
  };
  // Most parts tell their blades by the 12th harmonic; only one that does not pays for the 64th.
  return count(12) || count(64);
}
