/**
 * `rig.fit_hinge`'s weak and failed fits: warned by panel name, or (`strict`) a failed one thrown.
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

/** Thrown by `rig.fit_hinge` with `strict: true` when a panel's hinge fit failed. */
export class HingeFitFailedError extends Error {
  constructor(message: string) {
    super(`${message} (strict: a failed fit is an error)`);
    this.name = "HingeFitFailedError";
  }
}
