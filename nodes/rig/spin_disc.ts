/**
 * Blurred-propeller discs (`prop_disc`, `PropDisk`, `rotor_blur`) drawn beside a part's blades, checked
 * against the shaft fitted from the blades: a disc turns with the part, so one whose face is off the
 * shaft (left in the wrong plane, or tipped) wobbles — or, square to it, sweeps a sphere — as the rotor
 * spins. The fit is not left good without saying which disc.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { symmetricEigen3 } from "./eigen3.ts";
import { IndexOutOfRangeError, subtreeNodes } from "./geometry.ts";
import { gatherDrawnSurface } from "./drawn_vertices.ts";
import { surfaceMoments } from "./spin_symmetry.ts";
import { isDiscName } from "./spinning_names.ts";
import { dot, type Mat4, type Vec3 } from "./transform.ts";

/** A disc whose face is further than this off the blades' shaft is said, degrees. */
export const DISC_TOLERANCE_DEGREES = 3;

/** A disc's eigenvalues: the least must be this share of the middle one or less to be flat. */
const FLAT = 0.05;

/**
 * Why each flat blurred disc inside `node` (not `node` itself: a disc alone is the part, its face the
 * shaft) faces off `axis` (unit, aircraft frame) by more than {@link DISC_TOLERANCE_DEGREES}; empty when
 * none does.
 *
 * @example
 * ```ts
 * discsOffShaft(propeller, toAircraft, fit.axis); // ["its disc 'prop_disc' faces 20.0° off the blades' shaft: …"]
 * ```
 */
export function discsOffShaft(node: Node, toAircraft: Mat4, axis: Vec3): string[] {
  const out: string[] = [];
  for (const disc of subtreeNodes(node)) {
    if (disc === node || !disc.getMesh() || !isDiscName(disc.getName())) continue;
    let geometry;
    try {
      geometry = gatherDrawnSurface(disc, toAircraft, { descend: false });
    } catch (error) {
      if (error instanceof IndexOutOfRangeError) continue;
      throw error;
    }
    if (geometry.count < 3) continue;
    const { values, vectors } = symmetricEigen3(...surfaceMoments(geometry).covariance);
    if (!(values[0] <= FLAT * values[1])) continue;
    const degrees = (Math.acos(Math.min(1, Math.abs(dot(vectors[0], axis)))) * 180) / Math.PI;
    if (degrees <= DISC_TOLERANCE_DEGREES) continue;
    out.push(
      `its disc '${disc.getName()}' faces ${degrees.toFixed(1)}° off the blades' shaft: it turns with the ` +
        "blades and will wobble as they spin — set it square to the shaft, or hide it",
    );
  }
  return out;
}
