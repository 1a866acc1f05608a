/**
 * The demo fighter's fuselage: elliptic sections lofted along +Z (aft), from a pointed nose to a flat
 * tail. The section table is also what places the canopy, air brake and decoys on its skin.
 *
 * @module
 */
import { MeshBuilder, type MeshData } from "./mesh_builder.ts";

/** An elliptic fuselage cross-section. */
export interface FuselageSection {
  /** Station (m, +Z aft). */
  readonly z: number;
  /** Half the width (m). */
  readonly halfWidth: number;
  /** Half the height (m). */
  readonly halfHeight: number;
  /** Height of the section's centre (m). */
  readonly centreY: number;
}

/** The nose tip (the loft closes to it). */
export const NOSE_TIP = [0, -0.05, -8.3] as const;

/** Sections from the nose to the tail, sorted by station. */
export const FUSELAGE_SECTIONS: readonly FuselageSection[] = [
  { z: -7.6, halfWidth: 0.18, halfHeight: 0.16, centreY: -0.05 },
  { z: -6.8, halfWidth: 0.42, halfHeight: 0.38, centreY: 0 },
  { z: -5.6, halfWidth: 0.62, halfHeight: 0.6, centreY: 0.05 },
  { z: -4.2, halfWidth: 0.85, halfHeight: 0.7, centreY: 0.05 },
  { z: -2.5, halfWidth: 1.1, halfHeight: 0.75, centreY: 0 },
  { z: 0, halfWidth: 1.25, halfHeight: 0.78, centreY: 0 },
  { z: 2.5, halfWidth: 1.25, halfHeight: 0.75, centreY: 0 },
  { z: 4.5, halfWidth: 1.15, halfHeight: 0.68, centreY: 0 },
  { z: 6.2, halfWidth: 0.95, halfHeight: 0.58, centreY: 0 },
  { z: 7.0, halfWidth: 0.85, halfHeight: 0.52, centreY: 0 },
];

/** The section at station `z`, linearly interpolated (clamped to the table's ends). */
export function fuselageSectionAt(z: number): FuselageSection {
  const table = FUSELAGE_SECTIONS;
  if (z <= table[0].z) return table[0];
  for (let i = 1; i < table.length; i++) {
    const b = table[i];
    if (z <= b.z) {
      const a = table[i - 1];
      const s = (z - a.z) / (b.z - a.z);
      return {
        z,
        halfWidth: a.halfWidth + s * (b.halfWidth - a.halfWidth),
        halfHeight: a.halfHeight + s * (b.halfHeight - a.halfHeight),
        centreY: a.centreY + s * (b.centreY - a.centreY),
      };
    }
  }
  return table[table.length - 1];
}

/** Height of the fuselage's top line at station `z`. */
export function fuselageTopAt(z: number): number {
  const section = fuselageSectionAt(z);
  return section.centreY + section.halfHeight;
}

/** Height of the fuselage's bottom line at station `z`. */
export function fuselageBottomAt(z: number): number {
  const section = fuselageSectionAt(z);
  return section.centreY - section.halfHeight;
}

/** Builds the fuselage: `subdivisions` rings per table interval, `segments` points per ring. */
export function buildFuselage(subdivisions: number, segments: number): MeshData {
  const rings: number[][] = [];
  const table = FUSELAGE_SECTIONS;
  for (let i = 0; i < table.length; i++) {
    const steps = i + 1 < table.length ? subdivisions : 1;
    for (let s = 0; s < steps; s++) {
      const z = i + 1 < table.length
        ? table[i].z + (table[i + 1].z - table[i].z) * s / subdivisions
        : table[i].z;
      const section = fuselageSectionAt(z);
      const ring: number[] = [];
      for (let p = 0; p < segments; p++) {
        const angle = (2 * Math.PI * p) / segments;
        ring.push(
          section.halfWidth * Math.cos(angle),
          section.centreY + section.halfHeight * Math.sin(angle),
          z,
        );
      }
      rings.push(ring);
    }
  }
  const builder = new MeshBuilder();
  builder.addLoft(rings, { startApex: NOSE_TIP });
  return builder.finish();
}
