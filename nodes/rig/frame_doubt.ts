/**
 * A frame `"auto"` found from the geometry whose up or tail end was a guess: every fitted part's side
 * (left = aft × up) and its hinge in aircraft axes rest on that guess, so a wrong guess puts each
 * surface on the other side and turns its hinge, while the fit itself looks clean. Such parts are
 * judged weak at best, naming the frame's doubt, never good.
 *
 * @module
 */
import type { AircraftFrame } from "./frame.ts";
import type { PartAnnotation } from "./part_extras.ts";

/** The decisions whose guess mirrors the aircraft: a wrong up or tail end swaps left and right. */
const HANDED = /^(up|tail): /;

/**
 * Why the parts' sides and hinges are in doubt for `frame`, or undefined when the frame was given,
 * recorded by the decoder, or found with its up and tail end settled (by the shape, or by left/right
 * names, which fix the handedness whatever the shape said).
 *
 * @example
 * ```ts
 * frameDoubt(resolveFrame(doc, "auto", "auto")); // "the frame found from the geometry is unsure (up: unclear; …"
 * ```
 */
export function frameDoubt(frame: AircraftFrame): string | undefined {
  const found = frame.detected;
  if (!found || found.confidence === "good") return undefined;
  const doubts = found.reasons
    .filter((r) => r.startsWith("unsure: "))
    .map((r) => r.slice(8))
    .filter((r) => HANDED.test(r) && !r.includes("left/right names"));
  if (!doubts.length) return undefined;
  return `the frame found from the geometry is unsure (${doubts.join("; ")}; forward ${frame.forward}, ` +
    `up ${frame.up}): this part's side and hinge rest on it, and are mirrored if it is wrong; give ` +
    "forward/up, or name the sides (_L/_R)";
}

/**
 * `fit` judged weak at best under `doubt` (a failed fit stays failed), the doubt among its reasons once
 * (rig.assign_side judges the scene's parts, and rig.report again for scenes that skipped it).
 */
export function doubtedFit(
  fit: NonNullable<PartAnnotation["fit"]>,
  doubt: string | undefined,
): NonNullable<PartAnnotation["fit"]> {
  if (!doubt || fit.reasons?.includes(doubt)) return fit;
  return {
    ...fit,
    confidence: fit.confidence === "failed" ? "failed" : "weak",
    reasons: [...fit.reasons ?? [], doubt],
  };
}
