/**
 * Wing sections as the aircraft generators of this folder draw them (`dive_brakes.ts`,
 * `glider_brakes.ts`, `fowler_flaps.ts`): a modeller's chordwise loops, crowded at both edges, and a
 * section's closed outline between two of them, so a surface cut from the wing shares its loops; and
 * the octagonal rings their fuselages are lofted through.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";

/** A spanwise station: where its section's leading edge lies (`lead`, `y`, `z`) and its chord. */
export interface Station {
  readonly z: number;
  readonly lead: number;
  readonly chord: number;
  readonly y: number;
}

/** `side + 1` chordwise fractions from 0 to 1, cosine-spaced (close together at both edges). */
export function cosineLoops(side: number): number[] {
  return Array.from({ length: side + 1 }, (_, i) => (1 - Math.cos(Math.PI * i / side)) / 2);
}

/**
 * A function drawing a station's section from chord fraction `from` to `to` (0…1, the whole section):
 * upper surface aft to fore, then lower fore to aft, on the loops `xs` that lie between (and `from`,
 * `to` themselves). `upper`/`lower` give the surface's height at a fraction, in chords.
 */
export function sectionDrawer(
  xs: readonly number[],
  upper: (x: number) => number,
  lower: (x: number) => number,
): (s: Station, from?: number, to?: number) => Vec3[] {
  return (s, from = 0, to = 1) => {
    const inside = [from, ...xs.filter((x) => x > from + 0.01 && x < to - 0.01), to];
    const pts: Vec3[] = [];
    for (const x of [...inside].reverse()) pts.push([s.lead + x * s.chord, s.y + upper(x) * s.chord, s.z]);
    for (const x of inside.filter((x) => (x > 0 || from > 0) && (x < 1 || to < 1))) {
      pts.push([s.lead + x * s.chord, s.y + lower(x) * s.chord, s.z]);
    }
    return pts;
  };
}

/** An octagonal fuselage section `x` aft, of radius `r`, its centre `y` up (the first vertex on top). */
export function fuselageRing(x: number, r: number, y: number): Vec3[] {
  return Array.from(
    { length: 8 },
    (_, k) => [x, y + r * Math.cos(k * Math.PI / 4), r * Math.sin(k * Math.PI / 4)],
  );
}
