/**
 * A leading-edge flap that lies where a Krueger flap does (`krueger_flaps.ts`), whatever its name: in
 * the wing's lower skin, the fixed wing over it and the wing's fixed nose ahead of its forward edge,
 * along most of its span. A droop flap or a slat is the wing's nose itself: nothing fixed stands ahead
 * of it (a slat's cove lies above its lower lip, but behind its leading edge).
 *
 * @module
 */
import type { HingeFit } from "./hinge_fit.ts";
import type { Vec3 } from "./transform.ts";

/** Fixed geometry in aircraft coordinates (aft, up, left), with its triangles. */
export interface FixedMesh {
  readonly positions: ArrayLike<number>;
  readonly count: number;
  readonly triangles: ArrayLike<number>;
}

/** Span slots (over the middle 90 % of the span) each test must fill. */
const SLOTS = 20;
/** Share of the slots that must see fixed geometry ahead and over the panel. */
const COVERAGE = 0.6;
/** How far ahead of its forward edge the wing's nose may stand, in the panel's chords. */
const AHEAD = 1.5;
/** How far over the panel the wing's skin may lie, in the panel's chords. */
const OVER = 1.0;

/**
 * Why a leading-edge flap fitted on its aft edge (`fit`) is a Krueger flap by its place, or
 * undefined. `panel` is its own geometry and `fixed` the fixed meshes near it, all in aircraft
 * coordinates. Triangles are cut at span stations (a coarse wing's skin spans the whole flap with none
 * of its vertices beside it), and each station's forward edge is the panel's own there (a tapered
 * flap's chord is not its median one).
 */
export function kruegerByPlace(
  fit: HingeFit,
  panel: FixedMesh,
  fixed: Iterable<FixedMesh>,
): string | undefined {
  const { origin, axis, chord, spanLength } = fit;
  if (!(chord > 0) || !(spanLength > 0)) return undefined;
  // The aft-edge line, read per point at its span position: [along the span, aft of the line, above it].
  const along = axis[2];
  if (Math.abs(along) < 0.5) return undefined; // a leading-edge device runs across the flow
  // Distances along the flow: a swept hinge's chord square to it is cos Λ of the streamwise one.
  const streamwise = chord * Math.hypot(axis[0], axis[2]) / Math.abs(axis[2]);
  const local = (p: Vec3): Vec3 => {
    const u = (p[2] - origin[2]) / along;
    return [u, p[0] - (origin[0] + axis[0] * u), p[1] - (origin[1] + axis[1] * u)];
  };
  // One station plane through the middle of each slot, over the middle 90 % of the span.
  const planes = Float64Array.from(
    { length: SLOTS },
    (_, k) => origin[2] + along * ((k + 0.5) / SLOTS * 2 - 1) * 0.45 * spanLength,
  );
  const step = 0.05 * chord;
  // The panel's forward edge per slot: its foremost point there (negative: ahead of its aft edge).
  const front = new Float64Array(SLOTS).fill(Infinity);
  slice([panel], planes, step, (p, k) => {
    const v = local(p)[1];
    if (v < front[k]) front[k] = v;
  });
  const ahead = new Uint8Array(SLOTS), over = new Uint8Array(SLOTS);
  slice(fixed, planes, step, (p, k) => {
    const [, v, h] = local(p);
    if (!(front[k] < 0) || h <= -0.5 * chord || h >= OVER * chord) return;
    if (v < front[k] - 0.02 * streamwise && v > front[k] - AHEAD * streamwise) ahead[k] = 1;
    if (h > 0 && v > 0.9 * front[k] && v < 0.1 * front[k]) over[k] = 1;
  });
  const share = (s: Uint8Array) => s.reduce((sum, x) => sum + x, 0) / SLOTS;
  if (share(ahead) < COVERAGE || share(over) < COVERAGE) return undefined;
  return `it lies in the wing's lower skin, the wing's fixed nose ahead of its forward edge and its skin ` +
    `over it along ${Math.round(Math.min(share(ahead), share(over)) * 100)} % of its span, where a ` +
    "Krueger flap lies: hinged at its forward edge (it swings down and forward), not its aft edge";
}

/**
 * Calls `mark(point, slot)` with points along each triangle's cut by every slot's station plane (a
 * plane of constant aircraft left, `planes[k]`), `step` apart: what a coarse triangle holds at a
 * station, at a cost per station and not per area.
 */
function slice(
  meshes: Iterable<FixedMesh>,
  planes: Float64Array,
  step: number,
  mark: (p: Vec3, k: number) => void,
): void {
  const lo = Math.min(planes[0], planes[planes.length - 1]),
    hi = Math.max(planes[0], planes[planes.length - 1]);
  for (const mesh of meshes) {
    const at = (
      i: number,
    ): Vec3 => [mesh.positions[3 * i], mesh.positions[3 * i + 1], mesh.positions[3 * i + 2]];
    for (let t = 0; t + 2 < mesh.triangles.length; t += 3) {
      const corners = [at(mesh.triangles[t]), at(mesh.triangles[t + 1]), at(mesh.triangles[t + 2])];
      const zs = corners.map((c) => c[2]);
      if (Math.max(...zs) < lo || Math.min(...zs) > hi) continue;
      for (let k = 0; k < planes.length; k++) {
        const z = planes[k], ends: Vec3[] = [];
        for (let e = 0; e < 3; e++) {
          const a = corners[e], b = corners[(e + 1) % 3];
          if ((a[2] - z) * (b[2] - z) > 0 || a[2] === b[2]) continue;
          const f = (z - a[2]) / (b[2] - a[2]);
          ends.push([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), z]);
        }
        if (ends.length < 2) continue;
        const [a, b] = ends, n = Math.min(400, Math.max(1, Math.ceil(dist(a, b) / step)));
        for (let i = 0; i <= n; i++) {
          const f = i / n;
          mark([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), z], k);
        }
      }
    }
  }
}

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
