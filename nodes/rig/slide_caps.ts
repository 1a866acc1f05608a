/**
 * A Schempp-Hirth blade's cap drawn as an object of its own (`Airbrake_L_cap`, `Bremsklappe_Deckel_L`):
 * a flat plate lying in the skin on the blade's outer end, which alone reads as a hinged spoiler. It
 * rides on the blade (`slide_blades.ts`) and slides with it: the same line, the same travel.
 *
 * @module
 */
import type { Box } from "./surface_pieces.ts";
import type { BladeSlide } from "./slide_blades.ts";

/** A plate's plan must lie over the blade along this share of its span at least. */
const OVER_SPAN = 0.5;

/**
 * The blade a flat brake plate caps, with the slide it takes: the plate lies over the blade in plan
 * (along half its span or more, across the blade's place in the chord) and touches its outer end (within
 * a fifth of the blade's height); undefined when it caps none.
 *
 * @example
 * ```ts
 * const capped = capOf(capBox, [{ box: bladeBox, slide, name: "Airbrake_L" }]);
 * capped?.slide.direction; // the blade's
 * ```
 */
export function capOf(
  plate: Box,
  blades: readonly { readonly box: Box; readonly slide: BladeSlide; readonly name: string }[],
): { slide: BladeSlide; blade: string } | undefined {
  for (const { box, slide, name } of blades) {
    const overSpan = Math.min(plate.hi[2], box.hi[2]) - Math.max(plate.lo[2], box.lo[2]);
    if (overSpan < OVER_SPAN * (plate.hi[2] - plate.lo[2])) continue;
    const bladeX = (box.lo[0] + box.hi[0]) / 2;
    if (bladeX < plate.lo[0] || bladeX > plate.hi[0]) continue;
    // Its outer end: the blade's top for an upper blade, its bottom for a lower one (aircraft up).
    const tolerance = 0.2 * slide.height + 0.1 * (plate.hi[1] - plate.lo[1]);
    const touches = slide.direction[1] > 0
      ? Math.abs(plate.lo[1] - box.hi[1]) <= tolerance ||
        (plate.lo[1] <= box.hi[1] && plate.hi[1] >= box.hi[1])
      : Math.abs(plate.hi[1] - box.lo[1]) <= tolerance ||
        (plate.lo[1] <= box.lo[1] && plate.hi[1] >= box.lo[1]);
    if (!touches) continue;
    const why = `a cap on the outer end of the blade '${name}', which slides: it slides with it`;
    return { slide: { ...slide, why, doubt: slide.doubt }, blade: name };
  }
  return undefined;
}
