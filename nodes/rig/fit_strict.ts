/**
 * `rig.fit_hinge`'s weak and failed fits: warned by panel name, or (`strict`) a failed one thrown; and
 * all-moving shafts placed by guess.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import type { FitJudgement } from "./fit_confidence.ts";
import type { PartAnnotation } from "./part_extras.ts";

/**
 * Warns about a weak or failed fit, naming the panel and why; with `strict`, a failed fit is an
 * error.
 */
export function reportConfidence(
  node: Node,
  part: PartAnnotation,
  judgement: FitJudgement,
  strict: boolean,
  ctx: RunContext,
): void {
  if (judgement.confidence === "good") return;
  const message = `panel '${node.getName()}' (${part.kind}): hinge fit is ${judgement.confidence} — ` +
    judgement.reasons.join("; ");
  if (judgement.confidence === "failed" && strict) throw new HingeFitFailedError(message);
  ctx.warn(message, { panel: node.getName(), confidence: judgement.confidence, reasons: judgement.reasons });
}

/**
 * Warns that an all-moving surface's shaft is placed by guess: nothing in the file shows it (no shaft
 * or bosses drawn past the planform, no node turned onto it), so it goes through a quarter of the mean
 * aerodynamic chord, where real spindles sit from 20 to 45 % of it (`guessed`), or through the node's
 * origin, which lies in the chord but may be anywhere its modeller left it (`origin`).
 */
export function warnGuessedShaft(node: Node, kind: string, how: "guessed" | "origin", ctx: RunContext): void {
  const what = how === "guessed"
    ? "no shaft drawn; put at 25 % MAC — a guess (real spindles sit at 20–45 % of the mean aerodynamic chord)"
    : "no shaft drawn; put through the node's origin, which lies in its chord — if the origin is not the " +
      "spindle, the shaft is wrong";
  ctx.warn(
    `panel '${node.getName()}' (${kind}): ${what}: draw the shaft or bosses out of the root, or set the ` +
      "node's origin on the shaft with one of its axes along it",
    { panel: node.getName(), shaft: how },
  );
}

/** Thrown by `rig.fit_hinge` with `strict: true` when a panel's hinge fit failed. */
export class HingeFitFailedError extends Error {
  constructor(message: string) {
    super(`${message} (strict: a failed fit is an error)`);
    this.name = "HingeFitFailedError";
  }
}
