/**
 * Airfoil-ish slabs: the closed meshes of wings, fins and control panels. A slab is described by a
 * near edge and a far edge (straight lines, sampled at the same span fraction so sections run
 * streamwise) and a thickness profile along the chord, offset along a fixed normal. A control panel's
 * near edge is its hinge side, so its true hinge follows from the spec alone.
 *
 * @module
 */
import { MeshBuilder, type MeshData, type Vec3 } from "./mesh_builder.ts";

/** One point of a thickness profile: chord fraction from the near edge, lower and upper offsets (m). */
export type ProfilePoint = readonly [fraction: number, lower: number, upper: number];

/** A horn balance: a block at the outboard end that reaches forward of the near edge. */
export interface HornSpec {
  /** Span fraction where the horn starts (it runs to the outboard end, fraction 1). */
  readonly fromSpan: number;
  /** How far the horn reaches ahead of the near edge (m). */
  readonly depth: number;
  /** How far the horn block reaches back into the panel (m), so the two shells overlap. */
  readonly overlap: number;
}

/** The construction parameters of one slab, in its design frame (the parent node's space). */
export interface SlabSpec {
  /** Near (hinge-side) edge at span fraction 0, on the profile's zero line. */
  readonly nearA: Vec3;
  /** Near edge at span fraction 1. */
  readonly nearB: Vec3;
  /** Far edge at span fraction 0. */
  readonly farA: Vec3;
  /** Far edge at span fraction 1. */
  readonly farB: Vec3;
  /** Unit thickness direction; profile offsets are measured along it. */
  readonly normal: Vec3;
  /** Thickness profile from the near edge (fraction 0) to the far edge (fraction 1), sorted. */
  readonly profile: readonly ProfilePoint[];
  /** A horn balance at the span-fraction-1 end, if any. */
  readonly horn?: HornSpec;
}

/** Interpolates a profile at a chord fraction: `[lower, upper]` offsets. */
export function profileAt(profile: readonly ProfilePoint[], fraction: number): [number, number] {
  if (fraction <= profile[0][0]) return [profile[0][1], profile[0][2]];
  for (let i = 1; i < profile.length; i++) {
    const [f1, l1, u1] = profile[i];
    if (fraction <= f1) {
      const [f0, l0, u0] = profile[i - 1];
      const s = (fraction - f0) / (f1 - f0);
      return [l0 + s * (l1 - l0), u0 + s * (u1 - u0)];
    }
  }
  const last = profile[profile.length - 1];
  return [last[1], last[2]];
}

/**
 * The design-frame point at span fraction `span`, chord fraction `chord` and normal offset `offset`.
 *
 * @example
 * ```ts
 * const hingeMid = slabPoint(spec, 0.5, 0, 0);
 * ```
 */
export function slabPoint(spec: SlabSpec, span: number, chord: number, offset: number): Vec3 {
  const out: number[] = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const near = spec.nearA[i] + span * (spec.nearB[i] - spec.nearA[i]);
    const far = spec.farA[i] + span * (spec.farB[i] - spec.farA[i]);
    out[i] = near + chord * (far - near) + offset * spec.normal[i];
  }
  return out as unknown as Vec3;
}

/** Mesh density of a slab: span stations and uniform chord divisions (profile breakpoints are added). */
export interface SlabDensity {
  /** Sections from span fraction 0 to 1 (at least 2). */
  readonly spanStations: number;
  /** Uniform chord divisions of each section. */
  readonly chordDivisions: number;
}

/** Builds the closed mesh of a slab (and its horn block, a second shell) in the design frame. */
export function buildSlab(spec: SlabSpec, density: SlabDensity): MeshData {
  const builder = new MeshBuilder();
  const fractions = chordFractions(spec.profile, density.chordDivisions);
  builder.addLoft(spanRings(spec, fractions, density.spanStations));
  if (spec.horn) {
    const horn = hornSlab(spec, spec.horn);
    builder.addLoft(spanRings(horn, [0, 1], Math.max(2, Math.ceil(density.spanStations / 3))));
  }
  return builder.finish();
}

/** The horn block as a slab of its own: the panel's near-edge thickness, from the horn depth aft. */
function hornSlab(spec: SlabSpec, horn: HornSpec): SlabSpec {
  const along = (span: number, distance: number): Vec3 => {
    const near = slabPoint(spec, span, 0, 0);
    const far = slabPoint(spec, span, 1, 0);
    const length = Math.hypot(far[0] - near[0], far[1] - near[1], far[2] - near[2]);
    const s = distance / length;
    return [
      near[0] + s * (far[0] - near[0]),
      near[1] + s * (far[1] - near[1]),
      near[2] + s * (far[2] - near[2]),
    ];
  };
  const [lower, upper] = profileAt(spec.profile, 0);
  return {
    nearA: along(horn.fromSpan, -horn.depth),
    nearB: along(1, -horn.depth),
    farA: along(horn.fromSpan, horn.overlap),
    farB: along(1, horn.overlap),
    normal: spec.normal,
    profile: [[0, lower, upper], [1, lower, upper]],
  };
}

function chordFractions(profile: readonly ProfilePoint[], divisions: number): number[] {
  const set = new Set<number>();
  for (let i = 0; i <= divisions; i++) set.add(i / divisions);
  for (const [fraction] of profile) if (fraction > 0 && fraction < 1) set.add(fraction);
  return [...set].sort((a, b) => a - b);
}

/** Section rings: upper surface near → far, then lower surface far → near (a closed loop). */
function spanRings(spec: SlabSpec, fractions: readonly number[], stations: number): number[][] {
  const rings: number[][] = [];
  for (let s = 0; s < stations; s++) {
    const span = s / (stations - 1);
    const ring: number[] = [];
    for (const fraction of fractions) {
      ring.push(...slabPoint(spec, span, fraction, profileAt(spec.profile, fraction)[1]));
    }
    for (let i = fractions.length - 1; i >= 0; i--) {
      ring.push(...slabPoint(spec, span, fractions[i], profileAt(spec.profile, fractions[i])[0]));
    }
    rings.push(ring);
  }
  return rings;
}
