/**
 * Wing sections as the aircraft generators of this folder draw them (`dive_brakes.ts`,
 * `glider_brakes.ts`, `fowler_flaps.ts`): a modeller's chordwise loops, crowded at both edges, and a
 * section's closed outline between two of them, so a surface cut from the wing shares its loops; the
 * octagonal rings their fuselages are lofted through; and the loft itself (`krueger_flaps.ts` too).
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import type { ClassMesh } from "./surface_classes.ts";

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

/** Lofts sections (each a closed loop of the same count) into a mesh; `caps`: closed at both ends. */
export function loft(sections: readonly Vec3[][], caps = true): ClassMesh {
  const n = sections[0].length, positions: number[] = [], triangles: number[] = [];
  for (const s of sections) for (const p of s) positions.push(...p);
  for (let j = 0; j + 1 < sections.length; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * n + i, b = j * n + (i + 1) % n, c = a + n, d = b + n;
      triangles.push(a, b, d, a, d, c);
    }
  }
  if (caps) {
    for (const j of [0, sections.length - 1]) {
      for (let i = 1; i + 1 < n; i++) triangles.push(j * n, j * n + i, j * n + i + 1);
    }
  }
  return { positions, triangles };
}
