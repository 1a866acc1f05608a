/**
 * Turn limits no joint or turret has: every angle Freelancer stores is in radians, and a limit beyond
 * a full turn is not one a turn stops at. A UTF editor shows the raw floats, and a limit typed there
 * in degrees (`Min -30`, `Max 90`) is read by the game as radians: a turret that turns without limit.
 * The file cannot tell which was meant, so the limits are kept as the game reads them and named.
 *
 * @module
 */

/** A full turn and f32 noise: no turn limit in radians is beyond it. */
export const FULL_TURN = 2 * Math.PI + 1e-3;

/**
 * Says why `limits` (radians, as stored) look typed in degrees, or undefined when every one is within
 * a full turn.
 *
 * @example
 * ```ts
 * degreesTyped([-30, 90]); // "limits (-30, 90) are beyond a full turn (2π ≈ 6.2832): probably typed in degrees; …"
 * degreesTyped([-0.5, 1.2]); // undefined
 * ```
 */
export function degreesTyped(limits: readonly number[]): string | undefined {
  if (limits.every((v) => Math.abs(v) <= FULL_TURN)) return undefined;
  const asRead = limits.map((v) => `${round(v * 180 / Math.PI)}°`).join(", ");
  return `limits (${limits.map(round).join(", ")}) are beyond a full turn (2π ≈ 6.2832): probably typed in ` +
    `degrees; kept in radians as the game reads them (${asRead}, no limit to its turn)`;
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
