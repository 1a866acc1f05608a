/**
 * Rings of blades: objects drawn one per blade with no rotor word and no hub (`Blade_1`…`_3`,
 * Blender's `blade.001`…, Sketchfab's `Blade1_Material_0`), side by side in the tree, are a rotor's
 * where their geometry is one: their roots meet at one point, and turning the set by one blade spacing
 * about a shaft through it lands it on itself (`fitSpinAxis`, the blades counted from the surface
 * equal to the objects). Several rotors numbered on at one level (a twin's `Blade_1`…`_6`, a
 * helicopter's main and tail blades) are told apart by where their roots meet. Blade-named objects in
 * a row (blade antennas on the spine) meet nowhere and are no ring.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { symmetricEigen3 } from "./eigen3.ts";
import { IndexOutOfRangeError } from "./geometry.ts";
import { gatherDrawnSurface } from "./drawn_vertices.ts";
import { cross, dot, IDENTITY, length, sub, type Vec3 } from "./transform.ts";
import { fitSpinAxis, SYMMETRY_FAILED } from "./spin_fit.ts";
import type { SpinGeometry } from "./spin_symmetry.ts";

/** Ends of two blades within this share of the shorter blade's length meet (a hub's diameter, or less). */
export const ROOTS_MEET = 0.4;

/** A ring's blade roots lie within this share of its radius of its shaft. */
const ROOT_ON_SHAFT = 0.3;

/** World axes: a loose ring's shaft is measured before the aircraft's frame is known; they only break ties. */
const WORLD_AXES = [
  { name: "X", direction: [1, 0, 0] as Vec3 },
  { name: "Y", direction: [0, 1, 0] as Vec3 },
  { name: "Z", direction: [0, 0, 1] as Vec3 },
];

interface Blade {
  readonly node: Node;
  readonly geometry: SpinGeometry;
  /** The two ends along the blade's length (the mean of the vertices near each extreme). */
  readonly ends: [Vec3, Vec3];
  readonly length: number;
}

/**
 * The rings among `nodes` (blade objects side by side): each a set of two or more whose roots meet
 * and whose surface is symmetric about a shaft through them by one blade spacing, the blades counted
 * equal to the set. Larger rings first, then tighter; a node is in one ring at most; nodes in none are
 * left out.
 *
 * @example
 * ```ts
 * bladeRings([blade1, blade2, blade3, antenna1, antenna2]); // [[blade1, blade2, blade3]]
 * ```
 */
export function bladeRings(nodes: readonly Node[]): Node[][] {
  const blades = nodes.map(measureBlade).filter((b): b is Blade => b !== undefined);
  const sets = new Map<string, { members: number[]; spread: number }>();
  blades.forEach((b) => {
    for (const end of b.ends) {
      const members: number[] = [], matched: Vec3[] = [];
      blades.forEach((other, j) => {
        const tolerance = ROOTS_MEET * Math.min(b.length, other.length);
        const near = other.ends.map((e) => length(sub(e, end)));
        const k = near[0] <= near[1] ? 0 : 1;
        if (near[k] <= tolerance) members.push(j), matched.push(other.ends[k]);
      });
      if (members.length < 2) continue;
      const mean = [0, 1, 2].map((k) => matched.reduce((s, p) => s + p[k], 0) / matched.length);
      const spread = matched.reduce((s, p) => s + length(sub(p, mean)), 0) / matched.length / b.length;
      const key = members.join(",");
      if (!sets.has(key) || sets.get(key)!.spread > spread) sets.set(key, { members, spread });
    }
  });
  const ordered = [...sets.values()].sort((a, b) =>
    b.members.length - a.members.length || a.spread - b.spread
  );
  const taken = new Set<number>(), rings: Node[][] = [];
  for (const { members } of ordered) {
    if (members.some((m) => taken.has(m))) continue;
    if (!isRing(members.map((m) => blades[m]))) continue;
    members.forEach((m) => taken.add(m));
    rings.push(members.map((m) => blades[m].node));
  }
  return rings;
}

/**
 * The blade's world geometry as its triangles draw it (no stray vertex, no other part's vertices in a
 * shared buffer), length and ends; undefined when it has too little to measure.
 */
function measureBlade(node: Node): Blade | undefined {
  let geometry: SpinGeometry;
  try {
    geometry = gatherDrawnSurface(node, IDENTITY);
  } catch (error) {
    if (error instanceof IndexOutOfRangeError) return undefined;
    throw error;
  }
  const { positions: p, count } = geometry;
  if (count < 3 || !p.subarray(0, count * 3).every(Number.isFinite)) return undefined;
  const mean = [0, 1, 2].map((k) => {
    let s = 0;
    for (let i = 0; i < count; i++) s += p[i * 3 + k];
    return s / count;
  });
  const c = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < count; i++) {
    const d = [0, 1, 2].map((k) => p[i * 3 + k] - mean[k]);
    c[0] += d[0] * d[0], c[1] += d[0] * d[1], c[2] += d[0] * d[2];
    c[3] += d[1] * d[1], c[4] += d[1] * d[2], c[5] += d[2] * d[2];
  }
  const { vectors } = symmetricEigen3(c[0], c[1], c[2], c[3], c[4], c[5]);
  const axis = vectors[2];
  const along = Array.from({ length: count }, (_, i) => dot([p[i * 3], p[i * 3 + 1], p[i * 3 + 2]], axis));
  const lo = Math.min(...along), hi = Math.max(...along), span = hi - lo;
  if (!(span > 0)) return undefined;
  // Each end's mid-section: the vertices within 5 % of the length of the extreme, averaged.
  const endAt = (extreme: number): Vec3 => {
    const sum = [0, 0, 0];
    let n = 0;
    for (let i = 0; i < count; i++) {
      if (Math.abs(along[i] - extreme) > 0.05 * span) continue;
      for (let k = 0; k < 3; k++) sum[k] += p[i * 3 + k];
      n++;
    }
    return sum.map((s) => s / n) as Vec3;
  };
  return { node, geometry, ends: [endAt(lo), endAt(hi)], length: span };
}

/** True when the blades' joined surface turns onto itself about a shaft their roots lie on. */
function isRing(blades: readonly Blade[]): boolean {
  const count = blades.reduce((s, b) => s + b.geometry.count, 0);
  const positions = new Float64Array(count * 3);
  const triangles: number[] = [];
  let offset = 0;
  for (const b of blades) {
    positions.set(b.geometry.positions.subarray(0, b.geometry.count * 3), offset * 3);
    for (const t of b.geometry.triangles ?? []) triangles.push(t + offset);
    offset += b.geometry.count;
  }
  const fit = fitSpinAxis(
    { positions, count, triangles: triangles.length ? Uint32Array.from(triangles) : undefined },
    { frameAxes: WORLD_AXES },
  );
  if (fit.confidence === "failed" || fit.blades !== blades.length || !(fit.symmetry < SYMMETRY_FAILED)) {
    return false;
  }
  // Every blade reaches in to the shaft: its nearer end lies close to it (not a row turned onto itself).
  const offShaft = (p: Vec3) => length(cross(sub(p, fit.centre), fit.axis));
  return blades.every((b) => Math.min(...b.ends.map(offShaft)) <= ROOT_ON_SHAFT * fit.radius);
}
