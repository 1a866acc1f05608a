/**
 * The shaft of a spinning part (propeller, rotor, spinner) from its geometry, in the aircraft frame.
 * Blades spaced evenly about a shaft make their surface rotationally symmetric about it, so the
 * area-weighted second moments of the surface (over triangles, so uneven tessellation does not weigh
 * in) have the shaft as a principal axis: for three blades or more the disc's normal (least
 * variance), for two the half-turn axis, which is across both the blade line and the chords; which of
 * the two axes across the blade line it is, the symmetry itself tells (a twisted blade turned over
 * about its chord is not the other blade), and where the moments cannot tell them apart a search in
 * the plane across the blade line does, the frame breaking a tie. Every candidate axis is checked by
 * turning the blades' vertices by one blade spacing (2π/n, n counted from the angular harmonics of
 * the surface) and measuring how far they land from the nearest vertex. The centre is the area
 * centroid (on the shaft for symmetric blades), placed along the shaft at a hub's or spinner's centre
 * when one is named.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import { addScaled, cross, dot, length, normalize, sub, type Vec3 } from "./transform.ts";

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

/** A shaft further than this from the aircraft axis its kind runs along makes the fit weak, degrees. */
export const FRAME_TOLERANCE_DEGREES = 6;

/** The fitted shaft. */
export interface SpinFit {
  /** Unit shaft direction (aircraft frame), unsigned (signed by the caller). */
  readonly axis: Vec3;
  /** A point on the shaft: the hub's centre along it (else the blades' centroid). */
  readonly centre: Vec3;
  /** Largest distance of a vertex from the shaft. */
  readonly radius: number;
  /** Blades counted (0: an even disc, no blades told apart; 1: one-sided). */
  readonly blades: number;
  /** 90th-percentile distance of turned blade vertices from the nearest vertex, / radius. */
  readonly symmetry: number;
  /** How the axis was found. */
  readonly axisFrom: "disc_normal" | "half_turn" | "plane_search" | "frame";
  /** Where the centre came from. */
  readonly centreFrom: "blades" | "hub";
  /** Good, weak or failed. */
  readonly confidence: "good" | "weak" | "failed";
  /** Why short of good (empty when good). */
  readonly reasons: string[];
  /** How the fit went, for the report (said whatever the confidence). */
  readonly notes: string[];
}

/** Fit options. */
export interface SpinFitOptions {
  /** Unit aircraft axes a shaft may run along, by name; the nearest one breaks ties. */
  readonly frameAxes: readonly { readonly name: string; readonly direction: Vec3 }[];
  /** The direction the part's name gives its shaft (a named main rotor's up), to break ties. */
  readonly preferred?: Vec3;
  /** A hub or spinner inside the part: its centre places the origin along the shaft. */
  readonly hub?: SpinGeometry;
}

/**
 * Fits the shaft of a spinning part.
 *
 * @example
 * ```ts
 * const fit = fitSpinAxis(gatherPositions(prop, aircraftMatrix(frame), { triangles: true }), {
 *   frameAxes: [{ name: "forward", direction: [-1, 0, 0] }],
 * });
 * fit.axis; // ≈ [±1, 0, 0] for a propeller on a straight thrust line
 * ```
 */
export function fitSpinAxis(geometry: SpinGeometry, options: SpinFitOptions): SpinFit {
  const reasons: string[] = [], notes: string[] = [];
  const moments = surfaceMoments(geometry);
  if (!moments.fromTriangles) reasons.push("no triangles: vertices weighed instead of surface area");
  const { values, vectors } = symmetricEigen3(...moments.covariance);
  const grid = new VertexGrid(geometry);
  const judge = (axis: Vec3) => {
    const radius = radiusAbout(geometry, moments.centroid, axis);
    const blades = countBlades(geometry, moments.centroid, axis, radius);
    const symmetry = blades >= 2
      ? grid.symmetryError(moments.centroid, axis, (2 * Math.PI) / blades, radius)
      : Infinity;
    return { axis, radius, blades, symmetry };
  };
  const nearest = (axis: Vec3) => nearestFrameAxis(axis, options.frameAxes);
  const candidates = vectors.map((v) => judge(normalize(v)));
  // The tie-breaker: the direction the name gives, else the nearest frame axis.
  const cueDegrees = (axis: Vec3) =>
    options.preferred
      ? (Math.acos(Math.min(1, Math.abs(dot(axis, options.preferred)))) * 180) / Math.PI
      : nearest(axis).degrees;
  // A symmetric axis first; among symmetric ones more blades (an in-plane axis of flat blades is a
  // half-turn axis too), then the clearly more symmetric (ten times), then the cue.
  const order = (a: ReturnType<typeof judge>, b: ReturnType<typeof judge>) => {
    const symmetricA = a.symmetry <= SYMMETRY_GOOD, symmetricB = b.symmetry <= SYMMETRY_GOOD;
    if (symmetricA !== symmetricB) return symmetricA ? -1 : 1;
    if (!symmetricA) return a.symmetry - b.symmetry;
    if (a.blades !== b.blades) return b.blades - a.blades;
    const clear = Math.log10(Math.max(a.symmetry, 1e-9)) - Math.log10(Math.max(b.symmetry, 1e-9));
    if (Math.abs(clear) >= 1) return clear;
    return cueDegrees(a.axis) - cueDegrees(b.axis);
  };
  let best = [...candidates].sort(order)[0];
  // No symmetric axis, and everything on one side of one: a single blade (or the rest missing).
  const oneSided = candidates.find((c) => c.blades === 1);
  if (best.symmetry > SYMMETRY_GOOD && oneSided) best = oneSided;
  let axisFrom: SpinFit["axisFrom"] = best.blades === 2 ? "half_turn" : "disc_normal";
  const symmetricCount =
    candidates.filter((c) =>
      c !== best && c.blades === best.blades && order(c, best) <= 0 && order(best, c) <= 0
    ).length + 1;
  if (best.symmetry > SYMMETRY_GOOD && values[1] < 0.5 * values[2]) {
    // Two blades whose other two moments are (nearly) equal: the half-turn axis lies somewhere in the
    // plane across the blade line, which the moments do not fix.
    const line = normalize(vectors[2]);
    const searched = searchPlane(line, (axis) => judge(axis), (axis) => ({ degrees: cueDegrees(axis) }));
    if (searched && searched.symmetry < best.symmetry) {
      best = searched;
      axisFrom = "plane_search";
      notes.push("two blades: the shaft is the half-turn axis found across the blade line");
    }
  } else if (best.blades === 2) {
    notes.push("two blades: the shaft is their half-turn axis, across the blade line and the chords");
  }
  if (best.blades === 2 && symmetricCount > 1) {
    notes.push(
      "two flat blades are as symmetric about another axis across their line: the one nearer " +
        (options.preferred ? "the axis the name gives" : `the aircraft's ${nearest(best.axis).name} axis`) +
        " is taken",
    );
  }
  let axis = best.axis, centroid = moments.centroid;
  if (best.symmetry <= SYMMETRY_GOOD && best.blades >= 2) {
    const refined = grid.refineByOrbits(centroid, axis, best.blades, best.radius);
    if (refined) ({ axis, centre: centroid } = refined);
  }
  const frame = nearest(axis);
  let confidence: SpinFit["confidence"] = "good";
  const weak = (why: string) => {
    reasons.push(why);
    if (confidence === "good") confidence = "weak";
  };
  const separation = Math.min(values[1] - values[0], values[2] - values[1]) / Math.max(values[2], 1e-300);
  if (best.blades === 1) {
    confidence = "failed";
    reasons.push("one blade only: no symmetry tells the shaft; taken along the nearest aircraft axis");
    axis = frame.direction;
    axisFrom = "frame";
  } else if (best.blades === 0 && best.symmetry === Infinity) {
    // An even disc (a blurred-prop disc, a tessellated spinner): its normal is the least-variance axis.
    notes.push("no blades told apart: an even disc, whose normal is the shaft");
    const flat = judge(normalize(vectors[0]));
    axis = flat.axis;
    if (separation < 0.05) weak("an even cloud with no flat side: the shaft is a guess");
  } else if (best.symmetry > SYMMETRY_FAILED) {
    confidence = "failed";
    reasons.push(
      `the blades are not rotationally symmetric about any axis (best: vertices ${
        pct(best.symmetry)
      } of the radius off after a turn of one blade spacing)`,
    );
  } else if (best.symmetry > SYMMETRY_GOOD) {
    weak(
      `the blades are not quite symmetric about the shaft (vertices ${
        pct(best.symmetry)
      } of the radius off after a turn of one blade spacing)`,
    );
  }
  const final = nearest(axis);
  if (final.degrees > FRAME_TOLERANCE_DEGREES) {
    weak(
      `the shaft is ${
        final.degrees.toFixed(1)
      }° off the aircraft's ${final.name} axis, the nearest it could ` +
        "run along (check forward/up)",
    );
  }
  const radius = radiusAbout(geometry, centroid, axis);
  let centre = centroid, centreFrom: SpinFit["centreFrom"] = "blades";
  if (options.hub && options.hub.count > 0) {
    const hub = surfaceMoments(options.hub).centroid;
    const along = dot(sub(hub, centroid), axis);
    centre = addScaled(centroid, axis, along);
    centreFrom = "hub";
    const off = length(sub(hub, centre));
    if (off > 0.02 * radius) {
      weak(`the hub's centre is ${pct(off / radius)} of the radius off the blades' shaft`);
    }
  }
  return {
    axis,
    centre,
    radius,
    blades: best.blades,
    symmetry: Number.isFinite(best.symmetry) ? best.symmetry : 0,
    axisFrom,
    centreFrom,
    confidence,
    reasons,
    notes,
  };
}

function pct(share: number): string {
  return `${(share * 100).toPrecision(2)} %`;
}

/** The frame axis a line runs nearest, and the angle to it (degrees). */
function nearestFrameAxis(
  axis: Vec3,
  frameAxes: SpinFitOptions["frameAxes"],
): { name: string; direction: Vec3; degrees: number } {
  let best = { name: "", direction: axis, degrees: 90 };
  for (const { name, direction } of frameAxes) {
    const degrees = (Math.acos(Math.min(1, Math.abs(dot(axis, direction)))) * 180) / Math.PI;
    if (degrees < best.degrees || !best.name) best = { name, direction, degrees };
  }
  return best;
}

/**
 * The axis with the least symmetry error in the plane across `line`: 60 directions, then refined;
 * undefined when none is found.
 */
function searchPlane<T extends { axis: Vec3; symmetry: number; blades: number }>(
  line: Vec3,
  judge: (axis: Vec3) => T,
  nearest: (axis: Vec3) => { degrees: number },
): T | undefined {
  const u = normalize(cross(line, Math.abs(line[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const w = cross(line, u);
  const at = (phi: number) =>
    judge(normalize(addScaled(addScaled([0, 0, 0], u, Math.cos(phi)), w, Math.sin(phi))));
  let best: { phi: number; fit: T } | undefined;
  const better = (fit: T, than: T) =>
    fit.symmetry < than.symmetry - 1e-9 ||
    (Math.abs(fit.symmetry - than.symmetry) <= 1e-9 &&
      nearest(fit.axis).degrees < nearest(than.axis).degrees);
  for (let i = 0; i < 60; i++) {
    const phi = (i * Math.PI) / 60, fit = at(phi);
    if (fit.blades === 2 && (!best || better(fit, best.fit))) best = { phi, fit };
  }
  if (!best) return undefined;
  for (let step = Math.PI / 120; step > 1e-6; step /= 2) {
    const around: number = best.phi;
    for (const phi of [around - step, around + step]) {
      const fit: T = at(phi);
      if (fit.blades === 2 && better(fit, best.fit)) best = { phi, fit };
    }
  }
  return best.fit;
}

/** Area-weighted centroid and covariance (`xx, xy, xz, yy, yz, zz`) of a surface. */
export function surfaceMoments(
  g: SpinGeometry,
): { centroid: Vec3; covariance: [number, number, number, number, number, number]; fromTriangles: boolean } {
  const p = g.positions;
  // Relative to the first vertex: moments of far-off geometry lose no digits.
  const o: Vec3 = g.count > 0 ? [p[0], p[1], p[2]] : [0, 0, 0];
  let area = 0;
  const first = [0, 0, 0], second = [0, 0, 0, 0, 0, 0];
  const add = (weight: number, points: Vec3[], sum: Vec3, scale: number) => {
    area += weight;
    for (let k = 0; k < 3; k++) first[k] += weight * sum[k] / points.length;
    const pairs = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]];
    pairs.forEach(([i, j], n) => {
      let s = sum[i] * sum[j];
      for (const q of points) s += q[i] * q[j];
      second[n] += weight * (points.length === 1 ? q1(points[0], i, j) : s * scale);
    });
  };
  const q1 = (q: Vec3, i: number, j: number) => q[i] * q[j];
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
  if (!fromTriangles) { for (let i = 0; i < g.count; i++) add(1, [at(i)], at(i), 1); }
  if (!(area > 0)) return { centroid: o, covariance: [0, 0, 0, 0, 0, 0], fromTriangles };
  const m: Vec3 = [first[0] / area, first[1] / area, first[2] / area];
  const cov = second.map((v) => v / area) as [number, number, number, number, number, number];
  cov[0] -= m[0] * m[0], cov[1] -= m[0] * m[1], cov[2] -= m[0] * m[2];
  cov[3] -= m[1] * m[1], cov[4] -= m[1] * m[2], cov[5] -= m[2] * m[2];
  return { centroid: [m[0] + o[0], m[1] + o[1], m[2] + o[2]], covariance: cov, fromTriangles };
}

/** Largest distance of a vertex from the line through `centre` along unit `axis`. */
function radiusAbout(g: SpinGeometry, centre: Vec3, axis: Vec3): number {
  let max = 0;
  for (let i = 0; i < g.count; i++) {
    const d = sub([g.positions[i * 3], g.positions[i * 3 + 1], g.positions[i * 3 + 2]], centre);
    max = Math.max(max, length(cross(d, axis)));
  }
  return max;
}

/**
 * Blades about an axis, from the angular harmonics of the surface beyond 35 % of the radius (a hub
 * inside is round): the smallest k ≥ 2 whose harmonic is strong; 1 when the first is the strongest
 * (everything on one side); 0 when none stands out (an even disc).
 */
function countBlades(g: SpinGeometry, centre: Vec3, axis: Vec3, radius: number): number {
  const u = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const w = cross(axis, u);
  const K = 12, re = new Float64Array(K + 1), im = new Float64Array(K + 1);
  let total = 0;
  const sample = (point: Vec3, weight: number) => {
    const d = sub(point, centre);
    const x = dot(d, u), y = dot(d, w);
    if (Math.hypot(x, y) < 0.35 * radius) return;
    const theta = Math.atan2(y, x);
    total += weight;
    for (let k = 1; k <= K; k++) re[k] += weight * Math.cos(k * theta), im[k] += weight * Math.sin(k * theta);
  };
  const p = g.positions, t = g.triangles;
  const at = (i: number): Vec3 => [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
  if (t && t.length >= 3) {
    for (let i = 0; i + 2 < t.length; i += 3) {
      const a = at(t[i]), b = at(t[i + 1]), c = at(t[i + 2]);
      const weight = length(cross(sub(b, a), sub(c, a)));
      if (weight > 0) {
        sample([(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3], weight);
      }
    }
  }
  if (!(total > 0)) { for (let i = 0; i < g.count; i++) sample(at(i), 1); }
  if (!(total > 0)) return 0;
  const m = [0];
  for (let k = 1; k <= K; k++) m.push(Math.hypot(re[k], im[k]) / total);
  const strongest = Math.max(...m.slice(2));
  if (m[1] > 0.3 && m[1] >= strongest) return 1;
  if (strongest < 0.15) return 0;
  for (let k = 2; k <= K; k++) if (m[k] >= 0.6 * strongest) return k;
  return 0;
}

/** Vertices hashed in a grid, for the nearest-vertex distance of turned points. */
class VertexGrid {
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
      if (best <= r * this.#cell) return { index, distance: best };
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
   * radius turned by `angle` about the line (at most 1,000 of them, evenly strided); distances past
   * {@link SYMMETRY_FAILED} of the radius count as that far (the axis is no symmetry axis anyway).
   */
  symmetryError(centre: Vec3, axis: Vec3, angle: number, radius: number): number {
    if (!(radius > 0)) return Infinity;
    const outer: number[] = [];
    for (let i = 0; i < this.#count; i++) {
      const d = sub([this.#p[i * 3], this.#p[i * 3 + 1], this.#p[i * 3 + 2]], centre);
      if (length(cross(d, axis)) >= 0.3 * radius) outer.push(i);
    }
    const picked = outer.length ? outer : [...Array(this.#count).keys()];
    const stride = Math.max(1, Math.ceil(picked.length / 1000));
    const cos = Math.cos(angle), sin = Math.sin(angle);
    const errors: number[] = [];
    const reach = Math.ceil((SYMMETRY_FAILED * radius) / this.#cell) + 1;
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
    return errors[Math.min(errors.length - 1, Math.floor(0.9 * errors.length))] ?? Infinity;
  }
}
