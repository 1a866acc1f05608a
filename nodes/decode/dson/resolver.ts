/**
 * The DSON constraint resolver for `constraints.resolve`: DSON's constraint records are rigidity
 * groups, which only act when a morph is baked — so resolving bakes the `morph` parameter (if any)
 * with rigidity honoured, through the same code as `dson.bake_morph`.
 *
 * @module
 */
import type { ResolverPlugin } from "../../../runtime/node.ts";
import { bakeMorph } from "./codec/bake.ts";

/** Resolver for scenes whose source format is `dson`. */
export const dsonResolver: ResolverPlugin = {
  formats: ["dson"],
  resolve({ scene, params, ctx }) {
    const pose = params.pose;
    if (pose && typeof pose === "object" && Object.keys(pose).length > 0) {
      ctx.warn("dson: the pose parameter is not applied to DSON scenes (bones keep the file's pose)");
    }
    const morph = typeof params.morph === "string" ? params.morph : "";
    if (morph === "") return;
    const weight = typeof params.morph_weight === "number" ? params.morph_weight : 1;
    bakeMorph(scene, morph, weight, (message) => ctx.warn(message));
  },
};
