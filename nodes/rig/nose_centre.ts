/**
 * Where a rounded nose turns. A control surface nested in a cove of the surface ahead has a nose
 * that is a circle about its hinge — so it turns inside the cove without changing the gap — and the
 * hinge is the circle's centre, not the nose's tip: on real airfoil sections the radius is 5–20 % of
 * the surface's chord, so the tip is that far ahead of the hinge. Per span station, a circle is
 * fitted to the section's points around the nose tip; it is used only when the nose is clearly one:
 * enough points, on the circle within a few percent of its radius, over a wide arc on both sides of
 * the tip. A flat nose face (a low-poly box section), a wedge or a sharp nose is no circle and keeps
 * its tip — the hinge such models are drawn with. A round tip whose section then grows past the
 * circle (an oval nose reaching further forward, as overhang balances may have) is counted: where
 * it turns, its tip does not say. Noses drawn on ellipses (`elliptic_noses.ts`) turn about their
 * ellipses' centres.
 *
 * @module
 */
import type { NoseEllipse } from "./nose_ellipse.ts";
import { ellipticNoses, ovalNose } from "./elliptic_noses.ts";
import { facetNose } from "./nose_facets.ts";
import {
  ARC_DEPTH,
  type ArcFit,
  arcFit,
  type Circle,
  MAX_RADIUS,
  ROUGH_WORST,
  tipCircle,
} from "./nose_circle.ts";
import { packNose, type StationCuts } from "./nose_points.ts";

/** RMS and worst distance of the arc's points from the circle, as shares of its radius. */
const RMS_TOLERANCE = 0.03, MAX_TOLERANCE = 0.08;
/** How far the section's half-height at the circle's centre may differ from its radius (share). */
const OVAL_TOLERANCE = 0.1;
/**
 * How far the section may stand outside its nose circle (share of the radius), square to its own
 * chord through the centre: a nose drawn on a circle about its hinge meets the skin there at the
 * radius; one 1.1 times as deep as it is thick stands 5–14 % outside its tip's circle.
 */
const OUTSIDE_TOLERANCE = 0.05;
/** A rounded nose that is no clear circle: RMS distance from its tip's circle, and points. */
const ROUGH_RMS = 0.1, ROUGH_POINTS = 6;
/**
 * How far a section may grow past a round tip of a few facets (share of the radius, square to its
 * own chord through the centre) and still keep the tip: a chamfered box section stands at its
 * tip circle's radius, a low-poly nose 1.5 times as deep as it is thick some 20–40 % outside.
 */
const FACETED_OVAL = 0.15;

/**
 * Per station, the centre (v, w) of a rounded nose whose tip is the station's lead point, or NaN
 * where the nose is not clearly a circle. `lead` and `trail` hold (u, v, w) per station (NaN where
 * empty): the trailing edge tells how far a surface modelled deflected is turned.
 */
export function noseCentres(
  cuts: StationCuts,
  lead: Float64Array,
  trail: Float64Array,
  stations: number,
  chord: number,
): NoseCentres {
  const out = new Float64Array(stations * 2).fill(NaN);
  if (!(chord > 0)) return { centres: out, ovals: 0 };
  const near = MAX_RADIUS * chord;
  const { points, start: pointStart } = packNose(cuts, lead, stations, near, undefined);
  // Per station, the clear nose circle's centre and radius (NaN where there is none), and the
  // stations whose few-sided round tip is judged by how far the section grows past it (`faceted`).
  const circles = new Float64Array(stations * 3).fill(NaN);
  const faceted = new Uint8Array(stations), elliptic = new Uint8Array(stations);
  // Stations whose nose is a few flat facets with corners on one circle: about its centre.
  const flat = new Uint8Array(stations);
  let ovals = 0, found = 0;
  // Each station's tip circle, and the ellipse of its front half where that is clearly one.
  const tips: (Circle | undefined)[] = [], halves: (NoseEllipse | undefined)[] = [];
  for (let k = 0; k < stations; k++) {
    const stationPoints = points.subarray(pointStart[k], pointStart[k + 1]);
    // One circle and one arc check serve both tests below (each once fitted its own, the same).
    const circle = stationPoints.length >= 10 ? tipCircle(stationPoints, chord) : undefined;
    tips.push(circle);
    halves.push(circle && ovalNose(stationPoints, circle, lead, trail, k));
  }
  const drawn = ellipticNoses(tips, halves);
  for (let k = 0; k < stations; k++) {
    const stationPoints = points.subarray(pointStart[k], pointStart[k + 1]);
    const circle = tips[k], oval = halves[k];
    if (!circle) {
      // Too few points for a circle: a nose of a few flat facets (before, never tried: 54 of 120
      // three-facet noses were off by 2.5–4.7 % of span, 24 judged good).
      const facets = facetNose(stationPoints, chord);
      if (facets?.kind === "facets") {
        circles.set([facets.cv, facets.cw, facets.r], k * 3);
        flat[k] = 1;
        found++;
      }
      // A wedge keeps its point: the Sketchbook airplane's elevators, wedges whose round-nose reading
      // would turn 8 % of chord aft, have their authored pivots at the point (within 0.65 mm).
      continue;
    }
    if (drawn && oval) {
      // A nose drawn on an ellipse clearly no circle: about its centre, wherever its tip is.
      circles.set([oval.cv, oval.cw, oval.minor], k * 3);
      elliptic[k] = 1;
      if (drawn === "oval") ovals++;
      found++;
      continue;
    }
    const arc = arcFit(stationPoints, circle);
    const centre = stationNose(circle, arc);
    if (!centre) {
      // A nose rounded all the same — an oval turned with its surface, whose tip is on its flank,
      // or drawn with a few facets — turns about no point its tip shows: counted with the ovals.
      // (Before, such a station kept its tip silently: 106 of 200 ovals modelled 10–40° down were
      // judged good along their tips, up to 45 % of chord ahead of where they turn.)
      // A round tip of a few facets keeps its own test (an oval's flat front between two facets).
      const round = roughlyRound(stationPoints, circle, arc);
      const facets = round === "few" ? undefined : facetNose(stationPoints, chord);
      if (facets?.kind === "facets") {
        circles.set([facets.cv, facets.cw, facets.r], k * 3);
        flat[k] = 1;
        found++;
      } else if (round === "round") ovals++;
      else if (round === "few") {
        circles.set([circle.cv, circle.cw, circle.r], k * 3);
        faceted[k] = 1;
        found++;
      }
      continue;
    }
    circles.set(centre, k * 3);
    found++;
  }
  if (found === 0) return { centres: out, ovals };
  // The nose segments of the stations with a circle only: most of a dense or hostile section's cut
  // segments near its tip belong to stations with none.
  const { points: segments, start: segmentStart } = packNose(cuts, lead, stations, near, circles);
  for (let k = 0; k < stations; k++) {
    if (Number.isNaN(circles[k * 3])) continue;
    const centre: [number, number, number] = [circles[k * 3], circles[k * 3 + 1], circles[k * 3 + 2]];
    const stationPoints = points.subarray(pointStart[k], pointStart[k + 1]);
    // An oval nose keeps its tip circle's centre (nearer where it turns than the tip is); the fit is
    // judged on how many there are.
    const stationSegments = segments.subarray(segmentStart[k], segmentStart[k + 1]);
    const turned = Math.atan2(
      trail[k * 3 + 2] - lead[k * 3 + 2] - centre[1],
      trail[k * 3 + 1] - lead[k * 3 + 1] - centre[0],
    );
    // A faceted nose's circle runs through its corners, not along its skins (a chamfered box's is
    // wider than the box is thick): the section tests below are a round nose's.
    if (elliptic[k] || flat[k]) {
      out[k * 2] = lead[k * 3 + 1] + centre[0];
      out[k * 2 + 1] = lead[k * 3 + 2] + centre[1];
      continue;
    }
    if (faceted[k]) {
      // A round tip of a few facets that is no clear circle, its section growing well past it: a
      // low-poly oval, whose flat front keeps the tip — which says nothing of where it turns.
      // (Before, 23 of 200 such noses, 1.1–2 times as deep as thick, were judged good along their
      // tips, 14–36 % of chord ahead.)
      if (outsideCircle(stationSegments, centre, drawnRadius(stationPoints, centre), turned) > FACETED_OVAL) {
        ovals++;
      }
      continue;
    }
    if (
      !fullCircle(stationSegments, centre) ||
      outsideCircle(stationSegments, centre, drawnRadius(stationPoints, centre), turned) > OUTSIDE_TOLERANCE
    ) ovals++;
    out[k * 2] = lead[k * 3 + 1] + centre[0];
    out[k * 2 + 1] = lead[k * 3 + 2] + centre[1];
  }
  return { centres: out, ovals };
}

/** Rounded noses found per station, and the stations whose rounded nose is no circle about a point. */
export interface NoseCentres {
  /** Per station, the nose circle's centre (v, w), NaN where the nose is not clearly a circle. */
  readonly centres: Float64Array;
  /**
   * Stations whose tip is round (a circle fits it) but whose section is not that circle's: the
   * section's thickness where the circle's centre lies is not its diameter — an oval or overhang
   * nose reaching further forward, whose tip's curvature says nothing of where it turns.
   */
  readonly ovals: number;
}

/**
 * Whether a nose circle is the nose's own: a surface nested in a cove turns about the circle its
 * nose is drawn on, so the section leaves it at its full height — square to the chord through the
 * centre, the section reaches the circle's radius above or below it (one side at least: turned, the
 * skin leaving the arc on the other side stands further out). An oval nose's tip circle is smaller
 * than its half-thickness there (by 17 % for a nose only 1.1 times as deep as it is thick). A section
 * with no segment across that line is not judged.
 */
function fullCircle(segments: Float64Array, centre: readonly [number, number, number]): boolean {
  const [cv, cw, r] = centre;
  let upper = -Infinity, lower = Infinity;
  for (let i = 0; i < segments.length; i += 4) {
    const va = segments[i], wa = segments[i + 1], vb = segments[i + 2], wb = segments[i + 3];
    if ((va - cv) * (vb - cv) > 0 || va === vb) continue;
    const w = wa + ((cv - va) / (vb - va)) * (wb - wa) - cw;
    if (w > upper) upper = w;
    if (w < lower) lower = w;
  }
  if (!(upper > lower)) return true;
  return Math.min(Math.abs(upper / r - 1), Math.abs(-lower / r - 1)) <= OVAL_TOLERANCE;
}

/**
 * The nose circle's centre relative to the tip and its radius, or undefined when the tip's circle
 * (of a station with at least ten points) is no clear one.
 */
function stationNose(circle: Circle, arc: ArcFit): [number, number, number] | undefined {
  const { cv, cw, r } = circle;
  // The circle must be the nose: its forward-most point the tip, its points close to it all round
  // a wide arc on both sides (a flat face's corners, a wedge's sides are not). "The tip" within a
  // facet: a nose drawn with five to nine sides and turned puts a corner up to half a facet (22°)
  // from the arc's forward-most point, and the tip is that corner's mid-thickness (before, a tenth
  // of the radius across and a twentieth along: 6 of 300 such noses modelled deflected were judged
  // good along their tips, 10–16 % of chord ahead of the hinge).
  if (Math.abs(cv - r) > 0.1 * r || Math.abs(cw) > 0.25 * r) return undefined;
  if (arc.n < 10 || arc.above < 2 || arc.below < 2) return undefined;
  if (arc.rms > RMS_TOLERANCE * r || arc.worst > MAX_TOLERANCE * r) return undefined;
  return [cv, cw, r];
}

/**
 * Whether a station's nose is rounded though no clear circle: a circle still follows its points
 * around the tip, on both sides, within a tenth of its radius (a quarter at worst), wherever its
 * forward-most point lies, and the section has distinct points on its front as well as above and
 * below (each cut point comes once per segment it ends: a flat face's two corners, or a wedge's tip
 * and a skin point each side, are circles through three points and say nothing).
 */
function roughlyRound(points: Float64Array, circle: Circle, arc: ArcFit): "round" | "few" | undefined {
  if (points.length < 2 * ROUGH_POINTS) return undefined;
  if (arc.rms > ROUGH_RMS * circle.r || arc.worst > ROUGH_WORST * circle.r) return undefined;
  // Distinct points of the arc: at least two above, two below and one on the front between them.
  const { cv, cw, r } = circle, depth = ARC_DEPTH * r, same = 1e-4 * r;
  const seen: number[] = [];
  let above = 0, below = 0, front = 0;
  for (let i = 0; i < points.length && !(above >= 2 && below >= 2 && front >= 1); i += 2) {
    const v = points[i], w = points[i + 1];
    if (v > depth) continue;
    let known = false;
    for (let j = 0; j < seen.length && !known; j += 2) {
      known = Math.abs(seen[j] - v) <= same && Math.abs(seen[j + 1] - w) <= same;
    }
    if (known) continue;
    seen.push(v, w);
    if (w - cw > 0.5 * r) above++;
    else if (w - cw < -0.5 * r) below++;
    else if (v < cv) front++;
  }
  if (above >= 2 && below >= 2 && front >= 1) return "round";
  return above >= 1 && below >= 1 && front >= 1 ? "few" : undefined;
}

/**
 * The radius a faceted nose is drawn on: its vertices lie on the circle and the least-squares circle
 * through them and the facets between runs inside it (by up to 5 % with five sides).
 */
function drawnRadius(points: Float64Array, [cv, cw, r]: readonly [number, number, number]): number {
  let drawn = r;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] <= ARC_DEPTH * r) drawn = Math.max(drawn, Math.hypot(points[i] - cv, points[i + 1] - cw));
  }
  return drawn;
}

/**
 * How far the section stands outside a nose circle of radius `r`, square to its own chord through
 * the centre (the chord turned by `turned` radians from the station's): the larger of the upper and
 * lower reach past `r`, as a share of it (negative inside; 0 when nothing crosses there). Turned
 * back, a surface modelled deflected meets that line where it would at rest.
 */
function outsideCircle(
  segments: Float64Array,
  [cv, cw]: readonly [number, number, number],
  r: number,
  turned: number,
): number {
  if (!Number.isFinite(turned)) return 0;
  const c = Math.cos(turned), s = Math.sin(turned);
  let upper = -Infinity, lower = Infinity;
  for (let i = 0; i < segments.length; i += 4) {
    // Each end relative to the centre, along the turned chord (x) and square to it (y).
    const a0 = segments[i] - cv,
      b0 = segments[i + 1] - cw,
      a1 = segments[i + 2] - cv,
      b1 = segments[i + 3] - cw;
    const xa = a0 * c + b0 * s, ya = b0 * c - a0 * s, xb = a1 * c + b1 * s, yb = b1 * c - a1 * s;
    if (xa * xb > 0 || xa === xb) continue;
    const y = ya - (xa / (xb - xa)) * (yb - ya);
    if (y > upper) upper = y;
    if (y < lower) lower = y;
  }
  if (!(upper > lower)) return 0;
  return Math.max(upper / r - 1, -lower / r - 1);
}
