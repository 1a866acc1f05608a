/**
 * Hinge-line fitting for one panel, on a flat array of vertex positions in aircraft coordinates
 * (aft, up, left) and its triangles. Single passes over typed arrays, no per-vertex objects:
 *
 * 1. mean, covariance and bounds; the panel normal is the covariance's least axis, span = normal ×
 *    aft (robust for near-square panels, where the largest axis may be the chord), chord = aft
 *    square to span, thickness square to both;
 * 2. every vertex's span position, and the span extent;
 * 3. at twelve span stations, the surface's forward- and aft-most points: every triangle crossing a
 *    station is cut there (vertices binned along the span when there are no triangles);
 * 4. per station, the edge at mid-thickness from the points within a thin band of each extreme (see
 *    `edge_stations.ts`) — not a skin corner.
 *
 * A rounded nose turns about its circle's centre (`nose_centre.ts`); modelled deflected on a swept
 * hinge it is cut again in the planes it was drawn in (`deflected_frame.ts`). A robust line through
 * the station edge points (forward edge, aft edge for leading-edge devices) is the hinge; all-moving surfaces turn on a spanwise shaft square to the flow through the quarter point of their mean aerodynamic chord (`shaft_point.ts`).
 * Passes 2–4 are `hinge_stations.ts`; the frame of pass 1 is `panel_axes.ts`.
 * How far the line can be trusted is judged from it in `fit_confidence.ts`.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";
import type { LineFit } from "./line_fit.ts";
import { medianThickness } from "./edge_stations.ts";
import { dot, length, normalize, sub, type Vec3 } from "./transform.ts";
import { alongShaft, drawnShaft, macStation, planformEnds, shaftPoint } from "./shaft_point.ts";

import { HINGE_FIT_DEFAULTS, type HingeFitOptions } from "./hinge_fit_options.ts";
import { type Hanging, hangingGeometry } from "./hanging.ts";
import { SectionEnvelope } from "./section_envelope.ts";
import { allMovingShaft, deflectedFrame, turnClimb } from "./deflected_frame.ts";
import { cutStations, pointAtSpan } from "./hinge_stations.ts";
import { panelAxes } from "./panel_axes.ts";
import { linkageVertices, withoutVertices } from "./linkages.ts";
import type { LinkageNames } from "./linkage_names.ts";

export { HINGE_FIT_DEFAULTS, type HingeFitOptions };

/** A fitted hinge in aircraft coordinates, with what the fit saw. */
export interface HingeFit {
  /** A point on the hinge line at the middle of the panel's span. */
  readonly origin: Vec3;
  /** Unit hinge direction (signed along the span direction; sense is decided later). */
  readonly axis: Vec3;
  /** Unit thickness direction (span × chord; the panel normal for a flat panel). */
  readonly normal: Vec3;
  /** Unit span direction used for binning (normal × aft). */
  readonly span: Vec3;
  /** Unit chord direction (aft, square to span). */
  readonly chordDir: Vec3;
  /** Median chord length over the filled bins. */
  readonly chord: number;
  /** Span extent. */
  readonly spanLength: number;
  /** Centroid of the per-bin far-edge points (the edge opposite the hinge). */
  readonly farEdge: Vec3;
  /** Centre of the panel's bounding box. */
  readonly centre: Vec3;
  /** Lateral (aircraft left) extent of the panel: minimum and maximum. */
  readonly lateral: readonly [number, number];
  /** Stations that saw the panel. */
  readonly binsFilled: number;
  /** Stations (span bins) used. */
  readonly stations: number;
  /** True when the edges came from slicing triangles; false when from binned vertices. */
  readonly fromSurface: boolean;
  /** True when the span came from a clear panel normal; false when from the largest extent. */
  readonly spanFromNormal: boolean;
  /** Edge points that agreed with the line. */
  readonly inliers: number;
  /** RMS distance of the inlier edge points from the line. */
  readonly residual: number;
  /**
   * Stations on a second straight run of the hinge edge, off the hinge line (a horn balance, a
   * cut-out, a kink; `LineFit.rivalCount`); 0 for quarter-chord shafts, judged on both edges.
   */
  readonly rivalStations: number;
  /** Median thickness of the panel at its forward edge (over the filled bins). */
  readonly forwardThickness: number;
  /** Median thickness of the panel at its aft edge. */
  readonly aftThickness: number;
  /** True when the vertices lie on one line or point: the panel has no area to hinge. */
  readonly collinear: boolean;
  /** Stations whose nose is a circle: the forward-edge hinge goes through its centre there. */
  readonly roundedStations: number;
  /**
   * Stations whose nose is a circle whose centre is off the hinge line while its tip is on it: the
   * line went through the other stations' tips, where the circle was not recognised (a faceted nose).
   */
  readonly roundOffLine: number;
  /**
   * Stations whose nose is round at its tip but no circle about one point (an oval or overhang
   * nose, `nose_centre.ts`): where it turns, the nose does not say.
   */
  readonly ovalNoses: number;
  /**
   * Geometry outside every station's section (hinge brackets, horns too narrow to cut), which the
   * fitted line does not account for; undefined when there is none.
   */
  readonly hanging?: Hanging;
  /**
   * Vertices of control linkages (pushrods, balance arms and the horns they end at, `linkages.ts`)
   * left out of the fit; undefined when there were none.
   */
  readonly linkages?: number;
  /**
   * For a quarter-chord (all-moving) fit, where its shaft's place came from: `drawn` through a shaft
   * the file draws out of the planform's end (`shaft_point.ts` drawnShaft), `authored` through the
   * node's own origin where its author turned the node onto the shaft (`authored_shaft.ts`), `origin`
   * through an origin in the chord of a node not turned, `guessed` the MAC's quarter point.
   */
  readonly shaft?: "drawn" | "authored" | "origin" | "guessed";
  /** Parts whose name and shape disagree about being a linkage (`linkages.ts`), to warn of. */
  readonly linkageDoubts?: readonly string[];
  /**
   * The envelope of the panel's cut sections, in coordinates from `mean` along `span`, `chordDir`
   * and `normal`, with the span extent; undefined when the edges came from binned vertices. Other
   * geometry (hinge hardware beside the panel) is judged against it.
   */
  readonly sections?: PanelSections;
}

/** A panel's section envelope and the frame its coordinates are taken in. */
export interface PanelSections {
  readonly envelope: SectionEnvelope;
  /** Origin of the panel coordinates (the vertices' mean), aircraft frame. */
  readonly mean: Vec3;
  /** Span extent of the panel's vertices, in panel coordinates. */
  readonly uMin: number;
  readonly uMax: number;
}

/**
 * Fits the hinge of a panel from `count` positions (`xyz` triples, aircraft coordinates).
 *
 * @example
 * ```ts
 * const fit = fitHinge(positions, positions.length / 3, { ...HINGE_FIT_DEFAULTS, edge: "forward" });
 * fit.axis; // along the span, e.g. [0, 0, 1] for an unswept wing panel
 * ```
 * `linkagesOut`: the geometry is already without control linkages (the fit's own second pass);
 * `names`: what the vertices' nodes' names say of linkages (`linkage_names.ts`).
 * @throws Error when there are no vertices; {@link NonFiniteGeometryError} when one is NaN/infinite.
 */
export function fitHinge(
  positions: Float32Array | Float64Array,
  count: number,
  options: HingeFitOptions,
  triangles?: Uint32Array,
  linkagesOut = false,
  names?: LinkageNames,
): HingeFit {
  if (count <= 0 || positions.length < count * 3) throw new Error("a panel needs vertices to fit a hinge");
  const bins = Math.max(1, Math.floor(options.bins));

  // Pass 1: moments about the first vertex (shifted, so large coordinates do not cancel).
  const ox = positions[0], oy = positions[1], oz = positions[2];
  let sx = 0, sy = 0, sz = 0, sxx = 0, sxy = 0, sxz = 0, syy = 0, syz = 0, szz = 0;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0, o = 0; i < count; i++, o += 3) {
    const px = positions[o], py = positions[o + 1], pz = positions[o + 2];
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
    if (pz < minZ) minZ = pz;
    if (pz > maxZ) maxZ = pz;
    const x = px - ox, y = py - oy, z = pz - oz;
    sx += x;
    sy += y;
    sz += z;
    sxx += x * x;
    sxy += x * y;
    sxz += x * z;
    syy += y * y;
    syz += y * z;
    szz += z * z;
  }
  // NaN and infinities propagate into the sums: one check covers every vertex.
  if (!Number.isFinite(sx + sy + sz + sxx + syy + szz + sxy + sxz + syz + ox + oy + oz)) {
    throw new NonFiniteGeometryError();
  }
  const mx = sx / count, my = sy / count, mz = sz / count;
  const eigen = symmetricEigen3(
    sxx / count - mx * mx,
    sxy / count - mx * my,
    sxz / count - mx * mz,
    syy / count - my * my,
    syz / count - my * mz,
    szz / count - mz * mz,
  );
  const mean: Vec3 = [mx + ox, my + oy, mz + oz];
  const axes = panelAxes(eigen.values, eigen.vectors);
  const { span, chordDir, normal } = axes;

  const cut = cutStations(positions, count, triangles, mean, axes, bins, options);
  const { uMin, uMax, coords, lead, trail, chord, leadPoints, trailPoints, filled, leadLine, trailLine } =
    cut;
  const surface = cut.surface, edges = cut.edges;
  let hingeLine = cut.hingeLine, rounded = cut.rounded, roundOffLine = cut.roundOffLine, ovals = cut.ovals;
  if (hingeLine && axes.fromNormal) {
    // A rounded nose modelled deflected at rest, its hinge swept (by sweep or taper): the stations,
    // square to a span that is square to the flow, cut its nose obliquely — an ellipse, not the
    // circle it was drawn as — and the circle fitted near the tip is off its centre. The nose is cut
    // again in the frame the surface would have at rest, turned by its deflection.
    const mid = (uMin + uMax) / 2;
    const chordLine = sub(pointAtSpan(trailLine, mid, mean, span), pointAtSpan(hingeLine, mid, mean, span));
    const turned = deflectedFrame(eigen.vectors[0], hingeLine.direction, chordLine, axes);
    if (turned) {
      const again = cutStations(positions, count, triangles, mean, turned, bins, options, cut.tolerance);
      if (again.hingeLine) {
        [hingeLine, rounded, roundOffLine] = [again.hingeLine, again.rounded, again.roundOffLine];
        ovals = again.ovals;
      }
    }
  }
  const at = (line: LineFit, u: number): Vec3 => pointAtSpan(line, u, mean, span);
  let origin: Vec3, axis: Vec3, inliers: number, residual: number, rivalStations = 0, shaftDrawn = false;
  if (options.edge === "quarter") {
    // An all-moving surface turns on a spanwise shaft square to the flow, near quarter chord: the
    // point a quarter of the way from the leading- to the trailing-edge line at mid-span (each line
    // taken at that station, as a tapered surface's edges are extreme at different stations).
    const quarter = (u: number): Vec3 => {
      const l = at(leadLine, u), t = at(trailLine, u);
      return [l[0] + (t[0] - l[0]) / 4, l[1] + (t[1] - l[1]) / 4, l[2] + (t[2] - l[2]) / 4];
    };
    // The quarter-chord line's direction without its sweep (its aft component): dihedral kept.
    const a = quarter(uMin), b = quarter(uMax);
    const unswept = normalize([0, b[1] - a[1], b[2] - a[2]]);
    axis = uMax > uMin && unswept[1] ** 2 + unswept[2] ** 2 > 0 ? unswept : span;
    // Modelled turned about its shaft, the quarter line climbs with the sweep: the plane holds the shaft
    // (read only where the chord line's turn accounts for a climb; camber tilts the plane at rest).
    const mid = (uMin + uMax) / 2, chordLine = sub(at(trailLine, mid), at(leadLine, mid));
    axis = allMovingShaft(axis, axes, axes.fromNormal, turnClimb(sub(b, a), chordLine, axes));
    // The shaft passes through the aerodynamic centre — a quarter of the mean aerodynamic chord, on its
    // station (the area's spanwise centroid) — where the surface's hinge moment is least; the origin
    // is the shaft's point at mid-span. A tapered swept surface's quarter chord at mid-span lies 5–18 %
    // of the MAC aft of it (all_moving_surfaces.ts).
    const chordAt = (u: number) => length(sub(at(trailLine, u), at(leadLine, u)));
    const ends = planformEnds(
      { lead: leadPoints, trail: trailPoints, filled },
      coords.u,
      (p) => dot(sub(p, mean), span),
      chordAt,
    );
    // A shaft the file draws past the planform's end (a rod, bosses) is the designer's: it wins.
    const station = macStation(ends, chordAt), spanAt = (p: Vec3) => dot(sub(p, mean), span);
    const drawn = drawnShaft(positions, coords.u, coords.chordAt, chordAt, {
      lead: (u) => at(leadLine, u),
      trail: (u) => at(trailLine, u),
      station,
      axis,
      span,
      spanAt,
    });
    origin = drawn
      ? alongShaft(drawn, spanAt(drawn), mid, axis, span)
      : shaftPoint(quarter, station, mid, axis, span);
    shaftDrawn = drawn !== undefined;
    inliers = Math.min(leadLine.inlierCount, trailLine.inlierCount);
    residual = Math.max(leadLine.residual, trailLine.residual);
  } else {
    const line = options.edge === "aft" ? trailLine : hingeLine ?? leadLine;
    // The origin is where the hinge crosses the middle of the span.
    origin = at(line, (uMin + uMax) / 2);
    axis = line.direction;
    inliers = line.inlierCount;
    residual = line.residual;
    rivalStations = line.rivalCount;
    if (line !== hingeLine) roundOffLine = 0;
    if (options.edge === "aft") ovals = 0;
  }
  // The sections' envelope, framed by the fitted edge lines where a station's own edges mislead.
  const envelope = surface && edges.cuts
    ? SectionEnvelope.of(edges.cuts, lead.points, trail.points, (u) => {
      const l = sub(at(leadLine, u), mean), t = sub(at(trailLine, u), mean);
      const lv = dot(l, chordDir), lw = dot(l, normal);
      return [lv, lw, dot(t, chordDir) - lv, dot(t, normal) - lw];
    })
    : undefined;
  const hanging = envelope ? hangingGeometry(coords, envelope, uMax - uMin) : undefined;
  const doubts: string[] = [];
  if (hanging && envelope && triangles && !linkagesOut) {
    // Geometry outside the sections may be a control linkage (a horn and its pushrod, a balance arm):
    // it turns with the surface, and the fit is taken again without it (`linkages.ts`).
    const linked = linkageVertices(coords, envelope, triangles, chord, normal[1], names, doubts);
    if (linked.size > 0 && linked.size < count) {
      const kept = withoutVertices(positions, count, triangles, linked);
      return {
        ...fitHinge(kept.positions, kept.count, options, kept.triangles, true),
        linkages: linked.size,
        ...(doubts.length ? { linkageDoubts: doubts } : {}),
      };
    }
  }
  const farPoints = options.edge === "aft" ? leadPoints : trailPoints;
  const far: Vec3 = [0, 0, 0];
  for (let k = 0; k < filled; k++) for (let c = 0; c < 3; c++) far[c] += farPoints[k * 3 + c] / filled;
  return {
    origin,
    axis,
    normal,
    span,
    chordDir,
    chord,
    spanLength: uMax - uMin,
    farEdge: far,
    centre: [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2],
    lateral: [minZ, maxZ],
    binsFilled: filled,
    stations: bins,
    fromSurface: surface,
    spanFromNormal: axes.fromNormal,
    forwardThickness: medianThickness(lead),
    aftThickness: medianThickness(trail),
    // Variances: a second axis below 1e-5 of the first (in length) is float32 noise on a line.
    collinear: !(eigen.values[1] > 1e-10 * eigen.values[2]),
    inliers,
    residual,
    rivalStations,
    roundedStations: rounded,
    roundOffLine: options.edge === "quarter" ? 0 : roundOffLine,
    ...(options.edge === "quarter" ? { shaft: shaftDrawn ? "drawn" as const : "guessed" as const } : {}),
    ovalNoses: options.edge === "quarter" ? 0 : ovals,
    hanging,
    sections: envelope ? { envelope, mean, uMin, uMax } : undefined,
    ...(doubts.length ? { linkageDoubts: doubts } : {}),
  };
}

/** Thrown by {@link fitHinge} when a vertex position is NaN or infinite. */
export class NonFiniteGeometryError extends Error {
  constructor() {
    super("a vertex position is not finite");
    this.name = "NonFiniteGeometryError";
  }
}
