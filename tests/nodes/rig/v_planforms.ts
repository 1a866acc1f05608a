/**
 * V planforms drawn as one connected mesh across the centre line, with each half's true hinge: a
 * V-tail or butterfly tail (dihedral), swept elevons touching at the centre (sweep), or both; 2–6
 * sections along each half, flat sheets or thick sections, quads split either way, with a section on
 * the plane of symmetry or a strip straddling it (whose triangles must be cut). Aircraft coordinates
 * (aft, up, left).
 *
 * @module
 */
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";

/** How a V planform is drawn. */
export interface VOptions {
  readonly sweepDegrees: number;
  readonly dihedralDegrees: number;
  /** Sections along each half (2–6). */
  readonly sections: number;
  /** Thickness as a fraction of chord; 0 draws a single-sided sheet. */
  readonly thickness: number;
  /** True: the halves share a section on the plane; false: a strip across it joins them. */
  readonly centreSection: boolean;
  /** Span of the left half relative to the right (1: mirror images). */
  readonly leftStretch?: number;
}

/** A generated V: the mesh and each half's true hinge (origin at mid-span of the half). */
export interface VPlanform {
  readonly positions: number[];
  readonly triangles: number[];
  readonly halves: {
    readonly left: { origin: Vec3; axis: Vec3; span: number; chord: number };
    readonly right: { origin: Vec3; axis: Vec3; span: number; chord: number };
  };
}

const AFT: Vec3 = [1, 0, 0];
const HALF_SPAN = 1.4, ROOT_CHORD = 0.7, TAPER = 0.5, X0 = 6, Y0 = 0.3;
/** Where the straddling strip ends on each side, as a fraction of the half-span. */
const GAP = 0.08;

/** A V planform per `options`; `next` chooses how each quad is split. */
export function vPlanform(options: VOptions, next: () => number): VPlanform {
  const sweep = (options.sweepDegrees * Math.PI) / 180, dihedral = (options.dihedralDegrees * Math.PI) / 180;
  const first = options.centreSection ? 0 : GAP;
  const ts = Array.from(
    { length: options.sections },
    (_, i) => first + (1 - first) * i / (options.sections - 1),
  );
  const spanOf = (side: 1 | -1) => side === 1 ? HALF_SPAN * (options.leftStretch ?? 1) : HALF_SPAN;
  const direction = (side: 1 | -1): Vec3 => [0, Math.sin(dihedral), side * Math.cos(dihedral)];
  const hingeAt = (side: 1 | -1, t: number): Vec3 => {
    const b = spanOf(side) * t, d = direction(side);
    return [X0 + b * Math.tan(sweep), Y0 + b * d[1], b * d[2]];
  };
  const chordAt = (t: number) => ROOT_CHORD * (1 - t * (1 - TAPER));
  // Section outline: (chord fraction, thickness fraction), a diamond or a flat pair.
  const ring: [number, number][] = options.thickness > 0
    ? [[0, 0], [0.3, 0.5], [1, 0], [0.3, -0.5]]
    : [[0, 0], [1, 0]];
  const sectionAt = (side: 1 | -1, t: number): number[] => {
    const h = hingeAt(side, t), chord = chordAt(t);
    // Up out of the half's plane; the right half's is the left's mirror image, so sections join untwisted.
    const normal: Vec3 = [0, Math.cos(dihedral), -side * Math.sin(dihedral)];
    return ring.flatMap(([x, w]) =>
      [0, 1, 2].map((k) => h[k] + AFT[k] * x * chord + normal[k] * w * options.thickness * chord)
    );
  };
  // Sections from the right tip to the left tip (one shared section on the plane, or none there).
  const sections: number[][] = [
    ...[...ts].reverse().filter((t) => t > 0).map((t) => sectionAt(-1, t)),
    ...ts.map((t) => sectionAt(1, t)),
  ];
  const positions = sections.flat();
  const m = ring.length, closed = m > 2, triangles: number[] = [];
  for (let s = 0; s + 1 < sections.length; s++) {
    for (let j = 0; j < (closed ? m : m - 1); j++) {
      const a = s * m + j, b = s * m + ((j + 1) % m), c = a + m, d = b + m;
      if (next() < 0.5) triangles.push(a, c, b, b, c, d);
      else triangles.push(a, c, d, a, d, b);
    }
  }
  const truth = (side: 1 | -1) => {
    const root = hingeAt(side, first), tip = hingeAt(side, 1);
    return {
      origin: hingeAt(side, (first + 1) / 2),
      axis: normalize([tip[0] - root[0], tip[1] - root[1], tip[2] - root[2]]),
      span: Math.hypot(tip[0] - root[0], tip[1] - root[1], tip[2] - root[2]),
      chord: chordAt((first + 1) / 2),
    };
  };
  return { positions, triangles, halves: { left: truth(1), right: truth(-1) } };
}
