/**
 * Passes 2–4 of the hinge fit (`hinge_fit.ts`) in one panel frame: every vertex's span position,
 * each span station's forward and aft edge (cut from the surface when there is one, see
 * `edge_stations.ts`), rounded noses' centres (`nose_centre.ts`), and the robust lines through the
 * station points. The fit runs it once in the panel's frame and again, for a surface modelled
 * deflected, in the frame it would have at rest.
 *
 * @module
 */
import { fitRobustLine, type LineFit } from "./line_fit.ts";
import { binVertices, stationFilled, stationPoint } from "./edge_stations.ts";
import { nosesOf, STATION_MEMO } from "./station_memo.ts";
import { dot, type Vec3 } from "./transform.ts";
import type { HingeFitOptions } from "./hinge_fit_options.ts";
import { noseCentres } from "./nose_centre.ts";
import type { PanelFrame } from "./deflected_frame.ts";

/**
 * Passes 2–4 in one frame: every vertex's span position and extent, each station's forward and aft
 * edge (from the surface when there is one), rounded noses' centres (forward-edge hinges), and the
 * robust lines through them. `hingeLine` is the line through the nose centres, undefined when no
 * station's nose is a circle.
 */
export function cutStations(
  positions: Float32Array | Float64Array,
  count: number,
  triangles: Uint32Array | undefined,
  mean: Vec3,
  frame: PanelFrame,
  bins: number,
  options: HingeFitOptions,
  lineTolerance?: number,
) {
  // Pass 2: every vertex's span position, and the span extent.
  const { span, chordDir, normal } = frame;
  const [s0, s1, s2] = span, [c0, c1, c2] = chordDir, [n0, n1, n2] = normal;
  const [m0, m1, m2] = mean;
  const u = new Float64Array(count);
  let uMin = Infinity, uMax = -Infinity;
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const ui = (positions[o] - m0) * s0 + (positions[o + 1] - m1) * s1 + (positions[o + 2] - m2) * s2;
    u[i] = ui;
    if (ui < uMin) uMin = ui;
    if (ui > uMax) uMax = ui;
  }
  const coords = {
    u,
    chordAt: (i: number) =>
      (positions[3 * i] - m0) * c0 + (positions[3 * i + 1] - m1) * c1 + (positions[3 * i + 2] - m2) * c2,
    thicknessAt: (i: number) =>
      (positions[3 * i] - m0) * n0 + (positions[3 * i + 1] - m1) * n1 + (positions[3 * i + 2] - m2) * n2,
  };

  // Passes 3 and 4: each station's forward and aft edge, from the surface when there is one (cut once
  // per distinct input: a refit for another edge, or a moved copy of a panel, reuses the cut).
  let surface = triangles !== undefined && triangles.length >= 3;
  let edges = surface
    ? STATION_MEMO.slice(coords, triangles!, uMin, uMax, bins, options.bandFraction)
    : undefined;
  if (!edges || edges.lead.points.every(Number.isNaN)) {
    // No triangle reaches a station (every one degenerate or sliver-thin): the vertices are all there is.
    surface = false;
    edges = binVertices(coords, uMin, uMax, bins, options.bandFraction);
  }
  const { lead, trail, chord } = edges;
  // A rounded nose turns about its centre, not its tip (forward-edge hinges only: a quarter chord is
  // measured from the tip, and a leading-edge device hinges on its aft edge).
  const noses = options.edge === "forward" && surface && edges.cuts
    ? nosesOf(edges, () => noseCentres(edges!.cuts!, lead.points, edges!.trail.points, bins, chord))
    : undefined;

  const leadPoints = new Float64Array(bins * 3);
  const trailPoints = new Float64Array(bins * 3);
  const hingePoints = new Float64Array(bins * 3);
  let filled = 0, rounded = 0;
  const roundAt: boolean[] = [];
  for (let b = 0; b < bins; b++) {
    if (!stationFilled(lead, b)) continue;
    const l = stationPoint(lead, b), t = stationPoint(trail, b);
    leadPoints.set(fromPanel(mean, span, chordDir, normal, l[0], l[1], l[2]), filled * 3);
    trailPoints.set(fromPanel(mean, span, chordDir, normal, t[0], t[1], t[2]), filled * 3);
    const round = noses !== undefined && !Number.isNaN(noses.centres[b * 2]);
    if (round) rounded++;
    roundAt.push(round);
    const [v, w] = round ? [noses.centres[b * 2], noses.centres[b * 2 + 1]] : [l[1], l[2]];
    hingePoints.set(fromPanel(mean, span, chordDir, normal, l[0], v, w), filled * 3);
    filled++;
  }
  const tolerance = lineTolerance ?? Math.max(options.inlierFraction * chord, 1e-9);
  const leadLine = fitRobustLine(leadPoints, filled, tolerance, span);
  const trailLine = fitRobustLine(trailPoints, filled, tolerance, span);
  const hingeLine = rounded > 0 ? fitRobustLine(hingePoints, filled, tolerance, span) : undefined;
  // Stations whose nose is a circle off the hinge line while its tip lies on it: the line went
  // through the tips of the other stations (a faceted nose, turned, often fails the circle test).
  // (Only when the line rests more on tips than on circles: a notch whose rounded face happens to
  // reach the hinge line, beside circles on it, is no sign the line is on the tips.)
  let roundOffLine = 0, tipsOn = 0, circlesOn = 0;
  if (hingeLine) {
    for (let k = 0; k < filled; k++) if (hingeLine.inliers[k]) roundAt[k] ? circlesOn++ : tipsOn++;
  }
  if (hingeLine && tipsOn > circlesOn) {
    const [px, py, pz] = hingeLine.point, [dx, dy, dz] = hingeLine.direction;
    for (let k = 0; k < filled; k++) {
      if (!roundAt[k] || hingeLine.inliers[k]) continue;
      const x = leadPoints[k * 3] - px, y = leadPoints[k * 3 + 1] - py, z = leadPoints[k * 3 + 2] - pz;
      const t = x * dx + y * dy + z * dz;
      if ((x - t * dx) ** 2 + (y - t * dy) ** 2 + (z - t * dz) ** 2 <= tolerance * tolerance) roundOffLine++;
    }
  }
  return {
    uMin,
    uMax,
    coords,
    surface,
    edges,
    lead,
    trail,
    chord,
    leadPoints,
    trailPoints,
    filled,
    rounded,
    tolerance,
    leadLine,
    trailLine,
    hingeLine,
    roundOffLine,
    ovals: noses?.ovals ?? 0,
  };
}

/** The point of a line at span position `u` (measured from `mean` along `span`). */
export function pointAtSpan(line: LineFit, u: number, mean: Vec3, span: Vec3): Vec3 {
  const [p, d] = [line.point, line.direction];
  const along = dot(d, span);
  const here = (p[0] - mean[0]) * span[0] + (p[1] - mean[1]) * span[1] + (p[2] - mean[2]) * span[2];
  const t = Math.abs(along) > 1e-9 ? (u - here) / along : 0;
  return [p[0] + d[0] * t, p[1] + d[1] * t, p[2] + d[2] * t];
}

function fromPanel(mean: Vec3, s: Vec3, c: Vec3, n: Vec3, u: number, v: number, w: number): Vec3 {
  return [
    mean[0] + s[0] * u + c[0] * v + n[0] * w,
    mean[1] + s[1] * u + c[1] * v + n[1] * w,
    mean[2] + s[2] * u + c[2] * v + n[2] * w,
  ];
}
