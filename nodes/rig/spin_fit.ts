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
import {
  type SpinGeometry,
  surfaceMoments,
  SYMMETRY_FAILED,
  SYMMETRY_GOOD,
  VertexGrid,
} from "./spin_symmetry.ts";

export { type SpinGeometry, SYMMETRY_FAILED, SYMMETRY_GOOD } from "./spin_symmetry.ts";

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
