/**
 * Random low-poly control panels as real models have them, with their true hinge: 2–6 sections
 * along the span, taper, sweep ±50°, dihedral, skewed ribs, stepped edges (a horn balance at the
 * tip, a protrusion at the root), kinked edges, thickness 0–15 % of chord (flat single-sided sheets
 * included), blunt or sharp noses, quads triangulated either way, end caps or none. Deterministic
 * from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { HingeFit } from "../../../nodes/rig/hinge_fit.ts";
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { axisErrorDegrees, distanceToLine } from "./fixtures.ts";

/** What departs from a clean planform, for the failure message. */
export type Feature = "horn" | "root_step" | "kink" | "skew" | "sheet" | "caps";

/** A generated panel: mesh in aircraft coordinates (aft, up, left) and its true hinge. */
export interface CoarsePanel {
  readonly positions: Float32Array;
  readonly triangles: Uint32Array;
  /** True hinge: a point (mid-span) and unit direction. */
  readonly origin: Vec3;
  readonly axis: Vec3;
  /** Span (along the hinge) and chord at mid-span, for tolerances. */
  readonly span: number;
  readonly chord: number;
  readonly features: readonly Feature[];
  readonly description: string;
}

const AFT: Vec3 = [1, 0, 0];

/**
 * One random panel hinged on its forward edge (`edge: "forward"`) or, for an all-moving surface
 * (`"quarter"`), at quarter chord on a spanwise shaft square to the flow.
 */
export function coarsePanel(next: () => number, edge: "forward" | "quarter" = "forward"): CoarsePanel {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const between = (a: number, b: number) => a + (b - a) * next();
  const sections = 2 + Math.floor(next() * 5);
  const spanLength = between(0.4, 4);
  const rootChord = between(0.15, 1.6);
  const taper = between(0.3, 1);
  const sweep = (between(-50, 50) * Math.PI) / 180;
  const dihedral = (between(-35, 35) * Math.PI) / 180;
  const upright = next() < 0.2; // a rudder-like panel standing up
  const clean = edge === "quarter";
  const features: Feature[] = [];
  const thicknessRatio = next() < 0.2 ? 0 : between(0.01, 0.15);
  if (thicknessRatio === 0) features.push("sheet");
  const blunt = next() < 0.5;
  const divisions = Math.floor(next() * 3);
  const skew = !clean && next() < 0.3 ? Math.tan((between(-30, 30) * Math.PI) / 180) : 0;
  if (skew) features.push("skew");
  // Forward-edge departures from the hinge line, each over at most 30 % of the span.
  const departure = clean ? "none" : pick(["none", "none", "horn", "root_step", "kink"] as const);
  const from = departure === "root_step" ? between(0.1, 0.3) : between(0.7, 0.92);
  const depth = between(0.05, 0.3) * rootChord;
  if (departure !== "none") features.push(departure);
  const lead = (t: number): number => {
    if (departure === "horn") return t > from ? depth : 0;
    if (departure === "root_step") return t < from ? depth : 0;
    if (departure === "kink") return t > from ? (depth * (t - from)) / (1 - from) : 0;
    return 0;
  };
  const ts = Array.from({ length: sections }, (_, i) => i / (sections - 1));
  if (departure === "horn" || departure === "root_step") ts.push(from - 1e-3, from + 1e-3);
  if (departure === "kink") ts.push(from);
  ts.sort((a, b) => a - b);

  const span: Vec3 = upright ? [0, 1, 0] : [0, Math.sin(dihedral), Math.cos(dihedral)];
  const normal = normalize(cross(AFT, span));
  const root: Vec3 = [between(-3, 3), between(-1, 1), upright ? 0 : between(0.2, 2)];
  const hingeAt = (t: number): Vec3 =>
    [0, 1, 2].map((k) => root[k] + t * spanLength * (span[k] + Math.tan(sweep) * AFT[k])) as Vec3;
  const chordAt = (t: number) => rootChord * (1 - t * (1 - taper));
  const hingeFraction = edge === "quarter" ? 0.25 : 0;

  // Section outline (x from the leading edge as a fraction of chord, w as a fraction of thickness).
  const xs = [0, ...Array.from({ length: divisions }, (_, i) => (i + 1) / (divisions + 1)), 1];
  const half = (x: number) => blunt ? 0.5 * (1 - 0.9 * x) : x < 0.3 ? 0.5 * (x / 0.3) : 0.5 * (1 - x) / 0.7;
  const ring: [number, number][] = [];
  if (thicknessRatio === 0) {
    for (const x of xs) ring.push([x, 0]);
  } else {
    for (const x of xs) if (!(x === 0 && !blunt) && x !== 1) ring.push([x, half(x)]);
    ring.push([1, 0]);
    for (const x of [...xs].reverse()) if (!(x === 0 && !blunt) && x !== 1) ring.push([x, -half(x)]);
    if (!blunt) ring.push([0, 0]);
  }
  const closed = thicknessRatio > 0;
  const positions: number[] = [];
  for (const t of ts) {
    const chord = chordAt(t), forward = lead(t), h = hingeAt(t);
    for (const [fx, fw] of ring) {
      const x = -hingeFraction * chord - forward + fx * (chord + forward);
      const w = fw * thicknessRatio * chord * (1 - 0.9 * Math.max(0, x / chord));
      const along = skew * (x + forward);
      for (let k = 0; k < 3; k++) positions.push(h[k] + AFT[k] * x + normal[k] * w + span[k] * along);
    }
  }
  const m = ring.length, triangles: number[] = [];
  for (let s = 0; s + 1 < ts.length; s++) {
    for (let j = 0; j < (closed ? m : m - 1); j++) {
      const a = s * m + j, b = s * m + ((j + 1) % m), c = a + m, d = b + m;
      if (next() < 0.5) triangles.push(a, c, b, b, c, d);
      else triangles.push(a, c, d, a, d, b);
    }
  }
  if (closed && next() < 0.5) {
    features.push("caps");
    const last = (ts.length - 1) * m;
    for (let j = 1; j + 1 < m; j++) triangles.push(0, j, j + 1, last, last + j + 1, last + j);
  }
  const rootHinge = hingeAt(0), tipHinge = hingeAt(1);
  const direction = normalize([0, 1, 2].map((k) => tipHinge[k] - rootHinge[k]));
  const axis = edge === "quarter" ? normalize([0, direction[1], direction[2]]) : direction;
  // An all-moving panel's shaft passes through the quarter point of its mean aerodynamic chord, at
  // the area's spanwise centroid; its origin is the shaft's point at mid-span.
  const station = (1 + 2 * taper) / (3 * (1 + taper));
  const mid = edge === "quarter"
    ? [0, 1, 2].map((k) => hingeAt(station)[k] + span[k] * spanLength * (0.5 - station)) as Vec3
    : hingeAt(0.5);
  return {
    positions: new Float32Array(positions),
    triangles: new Uint32Array(triangles),
    origin: mid,
    axis,
    span: spanLength,
    chord: chordAt(0.5),
    features,
    description: `${sections} sections, chord ${rootChord.toFixed(2)}×${taper.toFixed(2)}, sweep ${
      ((sweep * 180) / Math.PI).toFixed(0)
    }°, dihedral ${((dihedral * 180) / Math.PI).toFixed(0)}°${upright ? " upright" : ""}, thickness ${
      (thicknessRatio * 100).toFixed(0)
    } %, ${blunt ? "blunt" : "sharp"} nose, ${divisions} divisions, ${features.join(" ") || "clean"}`,
  };
}

/**
 * How far a fit is from a panel's true hinge: the axis error in degrees, and the worse of the fitted
 * line's distances from the true line at the root and the tip.
 */
export function hingeError(
  panel: Pick<CoarsePanel, "origin" | "axis" | "span">,
  fit: Pick<HingeFit, "origin" | "axis">,
): { degrees: number; offset: number } {
  const ends = [-0.5, 0.5].map((f) =>
    [0, 1, 2].map((k) => panel.origin[k] + panel.axis[k] * f * panel.span) as Vec3
  );
  const offset = Math.max(...ends.map((end) => {
    const along = [0, 1, 2].reduce((sum, k) => sum + (end[k] - fit.origin[k]) * fit.axis[k], 0);
    const onFit = [0, 1, 2].map((k) => fit.origin[k] + fit.axis[k] * along) as Vec3;
    return distanceToLine(onFit, panel.origin, panel.axis);
  }));
  return { degrees: axisErrorDegrees(fit.axis, panel.axis), offset };
}

/**
 * Adds a mesh node given in aircraft coordinates (aft, up, left) to a scene in the default frame
 * (−Z forward, +Y up: aft is +Z, left is −X).
 */
export function addAircraftMesh(
  doc: Document,
  name: string,
  positions: ArrayLike<number>,
  triangles: ArrayLike<number>,
  parent?: Node,
): Node {
  const scene = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    scene[i] = -positions[i + 2];
    scene[i + 1] = positions[i + 1];
    scene[i + 2] = positions[i];
  }
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const position = doc.createAccessor(`${name}.position`, buffer).setType("VEC3").setArray(scene);
  const index = doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR")
    .setArray(new Uint32Array(triangles));
  const node = doc.createNode(name).setMesh(
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(index),
    ),
  );
  if (parent) parent.addChild(node);
  else doc.getRoot().getDefaultScene()!.addChild(node);
  return node;
}

/**
 * A flat sheet through sections at span positions `spans` (left, from `z0`), each from its leading
 * edge `lead[i]` (aft) to `lead[i] + chord`, at height `y`.
 */
export function sheet(
  spans: readonly number[],
  lead: readonly number[],
  chord: number,
  options: { z0?: number; y?: number; x0?: number } = {},
): { positions: number[]; triangles: number[] } {
  const { z0 = 1, y = 0, x0 = 0 } = options;
  const positions: number[] = [];
  spans.forEach((s, i) => positions.push(x0 + lead[i], y, z0 + s, x0 + lead[i] + chord, y, z0 + s));
  const triangles: number[] = [];
  for (let i = 0; i + 1 < spans.length; i++) {
    const a = 2 * i;
    triangles.push(a, a + 2, a + 1, a + 1, a + 2, a + 3);
  }
  return { positions, triangles };
}
