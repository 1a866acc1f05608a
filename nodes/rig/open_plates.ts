/**
 * A dive brake drawn open (a Ju 87's or D3A's slatted plate hanging under the wing, a Vengeance's or
 * Dauntless's out of both skins; `slide_blades.ts` brakeReading finds it): a plate standing out of one
 * skin whose inner end lies on that skin at both ends of its span. That edge is its hinge. Fitted as
 * drawn, a plate hanging square to the flow gives the fit no flat normal (its span came from its
 * largest extent, judged weak) and sometimes its far edge for the hinge; so the plate is turned closed
 * about the edge, into the skin aft of it, fitted there as any flat panel hinged at its forward edge,
 * and the fit turned back open. Where that fit's hinge lies on the edge (within 2° and 5 % of its
 * chord) edge and plate agree; where not, the hinge is the edge's line, weak, saying why.
 *
 * @module
 */
import { fitHinge, type HingeFit, type HingeFitOptions } from "./hinge_fit.ts";
import type { PanelGeometry } from "./split_halves.ts";
import type { OpenEdge } from "./slide_blades.ts";
import type { RuleOf } from "./hinge_rule.ts";
import { cross, dot, normalize, rotatePointAboutAxis, sub, type Vec3 } from "./transform.ts";

/** Edge and plate agree when the closed plate's hinge lies within this angle (degrees) of the edge… */
const AGREE_DEGREES = 2;
/** …and this share of its chord of it, at both ends of its span. */
const AGREE_CHORD = 0.05;

/** A dive brake drawn open, fitted about its edge: the fit, its rule, and which way it opens. */
export interface OpenPlateFit {
  readonly fit: HingeFit;
  readonly rule: RuleOf;
  /** The far edge's motion as the plate opens further (aircraft, unit): the `open` sense. */
  readonly opening: Vec3;
}

/**
 * The hinge of a plate drawn open about `edge` (see the module); undefined when the edge gives no
 * line or the closed plate no fit.
 */
export function openPlateFit(
  edge: OpenEdge,
  geometry: PanelGeometry,
  options: Omit<HingeFitOptions, "edge">,
): OpenPlateFit | undefined {
  const line = edgeLine(edge.points);
  if (!line) return undefined;
  const { positions, count } = geometry;
  const [o, e] = [line.origin, line.axis];
  // Where the plate stands from its edge (its vertices' mean, square to the edge), and where it lies
  // closed: aft along the skin (the kind's forward edge is its hinge; a plate square to the skin could
  // close either way, and the turn's line is the same).
  const mean: Vec3 = [0, 0, 0];
  for (let i = 0; i < count; i++) for (let k = 0; k < 3; k++) mean[k] += positions[3 * i + k] / count;
  const stands = reject(sub(mean, o), e), lies = reject(edge.aft, e);
  if (!(Math.hypot(...stands) > 0) || !(Math.hypot(...lies) > 0)) return undefined;
  const d = normalize(stands), t = normalize(lies);
  // The turn closing it: about e, from d onto t.
  const closing = Math.atan2(dot(cross(d, t), e), dot(d, t));
  const closed = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    const p: Vec3 = [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
    closed.set(rotatePointAboutAxis(p, o, e, closing), 3 * i);
  }
  const shut = fitHinge(closed, count, { ...options, edge: "forward" }, geometry.triangles);
  if (shut.collinear) return undefined;
  // Turned back open: points about the edge, directions about its direction.
  const point = (p: Vec3) => rotatePointAboutAxis(p, o, e, -closing);
  const direction = (v: Vec3) => normalize(sub(point([o[0] + v[0], o[1] + v[1], o[2] + v[2]]), o));
  // The box and lateral extent as drawn (not as closed).
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[3 * i + k]), hi[k] = Math.max(hi[k], positions[3 * i + k]);
    }
  }
  // The line is the same turned or not: edge and closed plate compared as they lie.
  const degrees = Math.acos(Math.min(1, Math.abs(dot(shut.axis, e)))) * 180 / Math.PI;
  const half = shut.spanLength / 2;
  const offset = Math.max(
    ...[-half, half].map((f) => distanceToLine(addScaled(shut.origin, shut.axis, f), o, e)),
  );
  const agree = degrees <= AGREE_DEGREES && offset <= AGREE_CHORD * shut.chord;
  const where = `its edge on the ${edge.surface} skin at both ends of its span (a dive brake drawn open)`;
  const opened = {
    ...shut,
    origin: agree ? point(shut.origin) : pointOn(o, e, point(shut.origin)),
    axis: agree ? direction(shut.axis) : (dot(e, shut.span) < 0 ? [-e[0], -e[1], -e[2]] as Vec3 : e),
    normal: direction(shut.normal),
    span: direction(shut.span),
    chordDir: direction(shut.chordDir),
    farEdge: point(shut.farEdge),
    centre: [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2) as Vec3,
    lateral: [lo[2], hi[2]] as const,
    ...(shut.sections ? { sections: { ...shut.sections, mean: point(shut.sections.mean) } } : {}),
  };
  // Opening further turns the far edge the way it turned out of the skin: about e by −closing.
  const arm = sub(opened.farEdge, o);
  const sign = closing > 0 ? -1 : 1;
  const opening = normalize(cross([sign * e[0], sign * e[1], sign * e[2]], arm));
  const rule: RuleOf = agree
    ? {
      rule: "forward_edge",
      why: `${where}: hinged on that edge, the plate turned closed about it lying flat in the skin`,
    }
    : {
      rule: "forward_edge",
      why: `${where}: hinged on that edge, but the plate turned closed about it fits a hinge ` +
        `${degrees.toFixed(1)}° and ${(100 * offset / shut.chord).toFixed(0)} % of its chord off it ` +
        "(a plate bent, twisted or on brackets?): where it turns is unsure",
      weak: true,
    };
  return { fit: opened, rule, opening };
}

/** The line through a plate's inner end: the mean of its points and the way from one end's to the other's. */
function edgeLine(points: readonly Vec3[]): { origin: Vec3; axis: Vec3 } | undefined {
  if (points.length < 2) return undefined;
  // The edge's two ends: the points split about their mean along their widest spread.
  const mean: Vec3 = [0, 0, 0];
  for (const p of points) for (let k = 0; k < 3; k++) mean[k] += p[k] / points.length;
  const far = points.reduce((a, p) => (dist(p, mean) > dist(a, mean) ? p : a), points[0]);
  const way = sub(far, mean);
  if (!(Math.hypot(...way) > 0)) return undefined;
  const ends = [0, 1].map((h) => points.filter((p) => (dot(sub(p, mean), way) < 0 ? 0 : 1) === h));
  if (ends.some((end) => end.length === 0)) return undefined;
  const [a, b] = ends.map((end) => {
    const m: Vec3 = [0, 0, 0];
    for (const p of end) for (let k = 0; k < 3; k++) m[k] += p[k] / end.length;
    return m;
  });
  const axis = sub(b, a);
  if (!(Math.hypot(...axis) > 0)) return undefined;
  return { origin: [0, 1, 2].map((k) => (a[k] + b[k]) / 2) as Vec3, axis: normalize(axis) };
}

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** `v` less its part along unit `axis`. */
function reject(v: Vec3, axis: Vec3): Vec3 {
  const d = dot(v, axis);
  return [v[0] - d * axis[0], v[1] - d * axis[1], v[2] - d * axis[2]];
}

function addScaled(p: Vec3, v: Vec3, s: number): Vec3 {
  return [p[0] + s * v[0], p[1] + s * v[1], p[2] + s * v[2]];
}

/** The foot of `p` on the line through `o` along unit `axis`. */
function pointOn(o: Vec3, axis: Vec3, p: Vec3): Vec3 {
  return addScaled(o, axis, dot(sub(p, o), axis));
}

/** The distance from `p` to the line through `o` along unit `axis`. */
function distanceToLine(p: Vec3, o: Vec3, axis: Vec3): number {
  return dist(p, pointOn(o, axis, p));
}
