/**
 * The shaft of a spinning part (propeller, rotor, spinner) from its geometry, in the aircraft frame.
 * Blades spaced evenly about a shaft make their surface rotationally symmetric about it, so the
 * area-weighted second moments of the surface (over triangles, so uneven tessellation does not weigh
 * in) have the shaft as a principal axis: for three blades or more the disc's normal (least
 * variance), for two the half-turn axis, which is across both the blade line and the chords; which of
 * the two axes across the blade line it is, the symmetry itself tells (a twisted blade turned over
 * about its chord is not the other blade), and where the moments cannot tell them apart a search in
 * the plane across the blade line does, the frame breaking a tie. Every candidate axis is checked by
 * turning points spread evenly over the blades' surface by one blade spacing (2π/n, n counted from
 * the angular harmonics of the surface) and measuring how far they land from the surface
 * (`spin_surface.ts`: blades tessellated apart are as symmetric). The centre is the area centroid (on
 * the shaft for symmetric blades), placed along the shaft at a hub's or spinner's centre when one is
 * named. A shaft leaning off the aircraft's axes (a canted tail rotor, a tilt-rotor's nacelle) is
 * trusted where the blades are symmetric about it alone, or where the part's own node or one above
 * it (a nacelle, pylon or gearbox) runs along it, or a hub or spinner object of its own is round about
 * it; otherwise it is weak (two blades are symmetric about a leaning half-turn axis too when one is
 * pitched apart, so nothing else vouches for theirs). A hub round about an axis apart from the
 * blades' makes the fit weak; blades symmetric about no axis (a fenestron's, spaced unevenly) take
 * their hub's axis, weak. A part with no blades told apart (a spinner, hub or blurred disc alone) is
 * symmetric about an axis it is round about (any turn lands it on itself). One blade alone has no
 * symmetry to give a shaft: `spin_single.ts` tells it and takes its hub's axis where it can.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import { addScaled, dot, length, normalize, sub, type Vec3 } from "./transform.ts";
import { nearestFrameAxis, searchPlane } from "./spin_plane.ts";
import { hubAxis as hubAxisOf, innerHubDegrees } from "./spin_hub.ts";
import { twoDiscs } from "./spin_layers.ts";
import {
  radiusAbout,
  type SpinGeometry,
  surfaceMoments,
  SYMMETRY_FAILED,
  SYMMETRY_GOOD,
  VertexGrid,
} from "./spin_symmetry.ts";
import { SurfaceGrid } from "./spin_surface.ts";
import { axisJudge } from "./spin_judge.ts";
import type { SpinFit, SpinFitOptions } from "./spin_fit_types.ts";
import { acrossAxis, looksLikeOneBlade, oneBladeFit, roundAxis } from "./spin_single.ts";

export { type SpinGeometry, SYMMETRY_FAILED, SYMMETRY_GOOD } from "./spin_symmetry.ts";
export type { SpinFit, SpinFitOptions } from "./spin_fit_types.ts";

/**
 * A shaft further than this from the aircraft axis its kind runs along makes the fit weak, degrees,
 * unless the blades are symmetric about it alone or the structure it hangs from runs along it.
 */
export const FRAME_TOLERANCE_DEGREES = 6;

/** A node's axis (or a hub's axis of roundness) within this of the shaft corroborates it, degrees. */
export const STRUCTURE_TOLERANCE_DEGREES = 2;

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
  const surface = moments.fromTriangles ? SurfaceGrid.of(geometry) : undefined;
  let vertices: VertexGrid | undefined;
  const vertexGrid = () => vertices ??= new VertexGrid(geometry);
  const judge = axisJudge(geometry, moments.centroid, surface, vertexGrid);
  /** Blades for ranking: round about the axis (0 told apart, symmetric) is more than any count. */
  const fold = (c: { blades: number }) => c.blades === 0 ? Infinity : c.blades;
  const nearest = (axis: Vec3) => nearestFrameAxis(axis, options.frameAxes);
  const candidates = vectors.map((v) => judge(normalize(v)));
  // The tie-breaker: the direction the name gives, else the nearest frame axis or structure's axis.
  const cueDegrees = (axis: Vec3) =>
    options.preferred
      ? angleDegrees(axis, options.preferred)
      : Math.min(nearest(axis).degrees, nearestFrameAxis(axis, options.structureAxes ?? []).degrees);
  // A symmetric axis first; among symmetric ones more blades (an in-plane axis of flat blades is a
  // half-turn axis too), then the clearly more symmetric (ten times), then the cue.
  const order = (a: ReturnType<typeof judge>, b: ReturnType<typeof judge>) => {
    const symmetricA = a.symmetry <= SYMMETRY_GOOD, symmetricB = b.symmetry <= SYMMETRY_GOOD;
    if (symmetricA !== symmetricB) return symmetricA ? -1 : 1;
    if (!symmetricA) return a.symmetry - b.symmetry;
    if (a.blades !== b.blades) return fold(b) - fold(a);
    // Below a fiftieth of good both are exact but for rounding (a point's distance to a surface is
    // never quite 0): a tie, which the cue breaks.
    const floor = SYMMETRY_GOOD / 50;
    const clear = Math.log10(Math.max(a.symmetry, floor)) - Math.log10(Math.max(b.symmetry, floor));
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
  if (best.symmetry > SYMMETRY_GOOD && values[1] < 0.5 * values[2] && !options.oneBlade) {
    // Two blades whose other two moments are (nearly) equal: the half-turn axis lies somewhere in the
    // plane across the blade line, which the moments do not fix.
    const line = normalize(vectors[2]);
    const searched = searchPlane(
      line,
      (axis, budget) => judge(axis, budget, false),
      (axis) => ({ degrees: cueDegrees(axis) }),
    );
    if (searched && searched.symmetry < best.symmetry) {
      best = searched;
      axisFrom = "plane_search";
      notes.push("two blades: the shaft is the half-turn axis found across the blade line");
    }
  } else if (best.blades === 2) {
    notes.push("two blades: the shaft is their half-turn axis, across the blade line and the chords");
  }
  const lone = options.oneBlade ??
    (looksLikeOneBlade(values, best) ? "long and thin, and symmetric about no axis" : undefined);
  if (lone) {
    const fit = oneBladeFit(geometry, lone, {
      hub: options.hub,
      hubName: options.hubName,
      centroid: moments.centroid,
      bladeLine: normalize(vectors[2]),
      fallback: acrossAxis(normalize(vectors[2]), normalize(vectors[0]), options.frameAxes),
    });
    return {
      ...fit,
      blades: 1,
      symmetry: 0,
      reasons: [...reasons, ...fit.reasons],
      notes: [...notes.filter((n) => !n.startsWith("two blades")), ...fit.notes],
    };
  }
  // The axis a hub or spinner of its own is round about: where the blades are symmetric about no axis
  // (a fenestron's, spaced unevenly to spread their noise), it is the shaft.
  const hubLabel = options.hubName ? ` ('${options.hubName}')` : "";
  const hubAxis = options.hub && options.hub.count > 0 && best.blades !== 1
    ? hubAxisOf(options.hub)
    : undefined;
  let centreOnHub: Vec3 | undefined;
  if (best.symmetry > SYMMETRY_GOOD && hubAxis && "axis" in hubAxis) {
    const atHub = judge(hubAxis.axis);
    if (atHub.blades !== 1) {
      best = atHub;
      axisFrom = "hub";
      centreOnHub = hubAxis.centre;
      notes.push(
        `the blades are symmetric about no axis: the shaft is the axis their hub${hubLabel} is round about`,
      );
    }
  }
  if (best.blades === 2 && symmetricCount > 1) {
    notes.push(
      "two flat blades are as symmetric about another axis across their line: the one nearer " +
        (options.preferred ? "the axis the name gives" : `the aircraft's ${nearest(best.axis).name} axis`) +
        " is taken",
    );
  }
  let axis = best.axis, centroid = centreOnHub ?? moments.centroid;
  if (best.symmetry <= SYMMETRY_GOOD && best.blades >= 2) {
    const refined = vertexGrid().refineByOrbits(centroid, axis, best.blades, best.radius);
    if (refined) ({ axis, centre: centroid } = refined);
    else if (surface && best.symmetry > SYMMETRY_GOOD / 5) {
      axis = surface.refineByTilt(centroid, axis, best.blades, best.radius);
    }
  }
  let confidence: SpinFit["confidence"] = "good";
  const weak = (why: string) => {
    reasons.push(why);
    if (confidence === "good") confidence = "weak";
  };
  if (best.blades === 1) {
    // Lopsided about every principal axis, yet no lone blade: something large drawn into the part.
    confidence = "failed";
    reasons.push(
      "the surface lies to one side of every principal axis through its centre, so no blades turn " +
        "about one (something large drawn into the part?); taken along the nearest aircraft axis",
    );
    axis = nearest(best.axis).direction;
    axisFrom = "frame";
  } else if (best.blades === 0 && best.symmetry <= SYMMETRY_GOOD) {
    notes.push("no blades told apart: round about the shaft (a spinner, hub or disc)");
  } else if (best.blades === 0 && best.symmetry === Infinity) {
    // No blades and round about no axis: a body of revolution drawn coarsely or unevenly has its shaft
    // as the principal axis whose moment stands apart from the other two (the least for a flat disc,
    // the greatest for a long spinner); its round axis where its normals meet one.
    const round = moments.fromTriangles ? roundAxis(geometry) : undefined;
    const low = values[1] - values[0], high = values[2] - values[1];
    if (round && "axis" in round) {
      notes.push("no blades told apart: the shaft is the axis the surface is round about");
      axis = round.axis;
    } else {
      notes.push(
        `no blades told apart: the shaft is the principal axis of ${low >= high ? "least" : "greatest"} ` +
          "moment, which the other two share",
      );
      axis = normalize(vectors[low >= high ? 0 : 2]);
      const apart = Math.max(low, high), shared = Math.min(low, high);
      if (apart < 0.05 * Math.max(values[2], 1e-300) || shared > 0.25 * apart) {
        weak("an even cloud round about no axis, with no moment standing apart: the shaft is a guess");
      }
    }
  } else if (best.symmetry > SYMMETRY_FAILED) {
    confidence = "failed";
    reasons.push(
      `the blades are not rotationally symmetric about any axis (best: the surface ${
        pct(best.symmetry)
      } of the radius off itself after a turn of one blade spacing${mostly(best)})`,
    );
  } else if (best.symmetry > SYMMETRY_GOOD) {
    weak(
      `the blades are not quite symmetric about the shaft (the surface ${
        pct(best.symmetry)
      } of the radius off itself after a turn of one blade spacing${mostly(best)})`,
    );
  }
  // A hub or spinner of its own is round about the true shaft whatever the blades do: it vouches for
  // a leaning shaft, and one it is round about apart from the blades' shaft makes the fit weak (two
  // blades, one pitched or coned apart, are symmetric about a half-turn axis leaning off the shaft).
  const hubRound = hubAxis && "axis" in hubAxis ? { degrees: angleDegrees(hubAxis.axis, axis) } : undefined;
  if (hubRound && hubRound.degrees > STRUCTURE_TOLERANCE_DEGREES) {
    weak(
      `its hub${hubLabel} is round about an axis ${
        hubRound.degrees.toFixed(1)
      }° off the blades' shaft: a blade pitched or coned apart, or the hub set askew`,
    );
  }
  const final = nearest(axis);
  if (final.degrees > FRAME_TOLERANCE_DEGREES) {
    const off = `the shaft is ${final.degrees.toFixed(1)}° off the aircraft's ${final.name} axis`;
    const structure = nearestFrameAxis(axis, options.structureAxes ?? []);
    // Three blades or more fix their shaft; two are symmetric about a tilted half-turn axis as well
    // when one is coned or pitched apart, so only structure vouches for a leaning two-blade shaft.
    const alone = best.blades >= 3 && best.symmetry <= SYMMETRY_GOOD && symmetricCount === 1;
    if (hubRound && hubRound.degrees <= STRUCTURE_TOLERANCE_DEGREES) {
      notes.push(
        `${off}, along the axis its hub${hubLabel} is round about (${hubRound.degrees.toFixed(2)}°)`,
      );
    } else if (structure.name && structure.degrees <= STRUCTURE_TOLERANCE_DEGREES) {
      notes.push(
        `${off}, along ${structure.name} axis (${structure.degrees.toFixed(2)}°): a canted or tilted mount`,
      );
    } else if (!options.hub && innerHubDegrees(geometry, centroid, axis) <= STRUCTURE_TOLERANCE_DEGREES) {
      notes.push(`${off}, along the axis the hub drawn into its mesh is round about`);
    } else if (alone) {
      notes.push(
        `${off}: its ${best.blades} blades are symmetric about it and no other axis, so it is theirs`,
      );
    } else {
      weak(
        `${off}, the nearest it could run along, and neither ${
          best.blades >= 3
            ? "the blades alone"
            : best.blades === 2
            ? "two blades (symmetric about a leaning axis too)"
            : "blades (none told apart)"
        } nor a node above it running along it say so (check forward/up, or give it a node along its shaft)`,
      );
    }
  }
  const radius = radiusAbout(geometry, centroid, axis);
  const pair = best.blades !== 1 ? twoDiscs(geometry, centroid, axis, radius) : undefined;
  if (pair) {
    weak(
      `two rotors drawn as one object: blades in two discs ${pct(pair.gap)} of the radius apart along ` +
        `the shaft (${pair.blades[0]} and ${pair.blades[1]}), which one pivot turns as one — a ` +
        "contra-rotating pair the wrong way; put each rotor in an object of its own",
    );
  }
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
    layers: pair ? addScaled(centroid, axis, pair.middle) : undefined,
  };
}

/** ", though most of it is symmetric: something drawn into one side?" when the median is within good. */
function mostly(fit: { median: number }): string {
  return fit.median <= SYMMETRY_GOOD ? "; most of it is symmetric: something drawn into one side?" : "";
}

function angleDegrees(a: Vec3, b: Vec3): number {
  return (Math.acos(Math.min(1, Math.abs(dot(a, b)))) * 180) / Math.PI;
}

function pct(share: number): string {
  return `${(share * 100).toPrecision(2)} %`;
}
