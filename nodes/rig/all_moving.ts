/**
 * All-moving surfaces found by geometry: an elevator, elevon or rudder with no fixed surface ahead
 * of it — no stabiliser or fin planform just forward of its leading edge over most of its span — is
 * the whole surface (a stabilator, an all-moving fin), and pivots on a spanwise shaft near quarter
 * chord rather than along its (swept) leading edge.
 *
 * @module
 */
import type { HingeFit } from "./hinge_fit.ts";
import { dot, type Vec3 } from "./transform.ts";

/** Kinds whose name says "trailing-edge surface" but which may be the whole surface. */
export const MAYBE_ALL_MOVING: ReadonlySet<string> = new Set(["elevator", "elevon", "rudder"]);

/** Share of the span a fixed surface ahead must cover for the panel to be a trailing-edge surface. */
export const AHEAD_COVERAGE = 0.5;
/** How far ahead of the leading edge (chords) and how far off the panel's plane (chords) to look. */
const AHEAD_REACH = 1.5, PLANE_BAND = 0.3, OVERLAP = 0.1;
const SLOTS = 24;

/** Foreign geometry in aircraft coordinates. */
export interface Geometry {
  readonly positions: Float64Array;
  readonly triangles: Uint32Array;
}

/**
 * The box around a panel's centre that holds everything that can be ahead of it: anything further
 * is rejected before any projection (most of a large model).
 */
export function aheadBox(fit: HingeFit): { centre: Vec3; reach: number } {
  return { centre: fit.centre, reach: fit.spanLength + (AHEAD_REACH + 1) * fit.chord };
}

/**
 * The share of the panel's span (0–1) over which other geometry's triangles lie just ahead of its
 * fitted forward edge, in its plane: a fixed stabiliser or fin.
 */
export function fixedSurfaceAhead(fit: HingeFit, others: Iterable<Geometry>): number {
  const { origin, axis, span, chordDir, normal, chord, spanLength } = fit;
  // The hinge line's chord position moves by `slope` per unit of span.
  const along = dot(axis, span);
  const slope = Math.abs(along) > 1e-9 ? dot(axis, chordDir) / along : 0;
  const covered = new Uint8Array(SLOTS);
  const half = spanLength / 2;
  const local = (p: Float64Array, i: number): Vec3 => {
    const d: Vec3 = [p[i * 3] - origin[0], p[i * 3 + 1] - origin[1], p[i * 3 + 2] - origin[2]];
    const u = dot(d, span);
    return [u, dot(d, chordDir) - slope * u, dot(d, normal)];
  };
  const ahead = (q: Vec3) =>
    q[1] >= -AHEAD_REACH * chord && q[1] <= OVERLAP * chord && Math.abs(q[2]) <= PLANE_BAND * chord;
  const { reach } = aheadBox(fit);
  const [cx, cy, cz] = fit.centre;
  for (const { positions, triangles } of others) {
    for (let t = 0; t < triangles.length; t += 3) {
      const o = triangles[t] * 3;
      if (
        Math.abs(positions[o] - cx) > reach || Math.abs(positions[o + 1] - cy) > reach ||
        Math.abs(positions[o + 2] - cz) > reach
      ) continue;
      const a = local(positions, triangles[t]);
      if (Math.abs(a[0]) > half + spanLength || !ahead(a)) continue;
      const b = local(positions, triangles[t + 1]), c = local(positions, triangles[t + 2]);
      if (!ahead(b) || !ahead(c)) continue;
      const lo = Math.min(a[0], b[0], c[0]), hi = Math.max(a[0], b[0], c[0]);
      const k0 = Math.max(0, Math.floor(((lo + half) / spanLength) * SLOTS));
      const k1 = Math.min(SLOTS - 1, Math.floor(((hi + half) / spanLength) * SLOTS));
      for (let k = k0; k <= k1; k++) covered[k] = 1;
    }
  }
  return covered.reduce((sum, c) => sum + c, 0) / SLOTS;
}
