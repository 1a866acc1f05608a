/**
 * The search for a two-blade rotor's shaft in the plane across its blade line, for `spin_fit.ts`:
 * where the surface's moments across the line are (nearly) equal they do not fix the half-turn axis,
 * so directions in that plane are measured for symmetry; and the named axis a shaft runs nearest.
 *
 * @module
 */
import { addScaled, cross, dot, normalize, type Vec3 } from "./transform.ts";
import { SYMMETRY_FAILED } from "./spin_symmetry.ts";

/**
 * The axis with the least symmetry error in the plane across `line`: 60 directions measured coarsely
 * (100 points), then the best refined at full measure — only where it is within reach of symmetric
 * (an asymmetric part has no axis to refine to, and refining there was most of a rig's time);
 * undefined when none is found.
 */
export function searchPlane<T extends { axis: Vec3; symmetry: number; blades: number }>(
  line: Vec3,
  judge: (axis: Vec3, budget?: number) => T,
  nearest: (axis: Vec3) => { degrees: number },
): T | undefined {
  const u = normalize(cross(line, Math.abs(line[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const w = cross(line, u);
  const at = (phi: number, budget?: number) =>
    judge(normalize(addScaled(addScaled([0, 0, 0], u, Math.cos(phi)), w, Math.sin(phi))), budget);
  let best: { phi: number; fit: T } | undefined;
  const better = (fit: T, than: T) =>
    fit.symmetry < than.symmetry - 1e-9 ||
    (Math.abs(fit.symmetry - than.symmetry) <= 1e-9 &&
      nearest(fit.axis).degrees < nearest(than.axis).degrees);
  for (let i = 0; i < 60; i++) {
    const phi = (i * Math.PI) / 60, fit = at(phi, 100);
    if (fit.blades === 2 && (!best || better(fit, best.fit))) best = { phi, fit };
  }
  if (!best) return undefined;
  best = { phi: best.phi, fit: at(best.phi) };
  if (best.fit.symmetry > SYMMETRY_FAILED) return best.fit;
  for (let step = Math.PI / 120; step > 1e-6; step /= 2) {
    const around: number = best.phi;
    for (const phi of [around - step, around + step]) {
      const fit: T = at(phi);
      if (fit.blades === 2 && better(fit, best.fit)) best = { phi, fit };
    }
  }
  return best.fit;
}

/** The named axis a line runs nearest, and the angle to it (degrees; 90 and no name when none is given). */
export function nearestFrameAxis(
  axis: Vec3,
  frameAxes: readonly { readonly name: string; readonly direction: Vec3 }[],
): { name: string; direction: Vec3; degrees: number } {
  let best = { name: "", direction: axis, degrees: 90 };
  for (const { name, direction } of frameAxes) {
    const degrees = (Math.acos(Math.min(1, Math.abs(dot(axis, direction)))) * 180) / Math.PI;
    if (degrees < best.degrees || !best.name) best = { name, direction, degrees };
  }
  return best;
}
