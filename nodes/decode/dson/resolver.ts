/**
 * The DSON constraint resolver for `constraints.resolve`: DSON's constraint records are rigidity
 * groups, which only act when a morph is baked — so resolving bakes the `morph` parameter (if any)
 * with rigidity honoured, through the same code as `dson.bake_morph`.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import {
  defineResolver,
  type NumberParam,
  type ResolverPlugin,
  type StringParam,
} from "../../../runtime/node.ts";

/** The bake, imported on first use (or ahead of it: a batch worker's preload). */
const bake = () => importOnUse<typeof import("./codec/bake.ts")>("./codec/bake.ts", import.meta.url);

/** Resolver for scenes whose source format is `dson`. */
export const dsonResolver: ResolverPlugin<{ morph: StringParam; morph_weight: NumberParam }> = defineResolver(
  {
    formats: ["dson"],
    // 2: a vertex in the masks of several rigidity groups is a warning (see `dson.bake_morph` v2).
    // 3: joints a baked shape's ERC formulas move go where its weight puts them (`dson.bake_morph` v3).
    // 4: rigid followers refitted and instance copies moved with the bake (`dson.bake_morph` v4).
    // 5: rigid followers refitted by their rotation and scale modes (`dson.bake_morph` v5).
    // 6: rigid followers of merged grafts refitted by a bake (`dson.bake_morph` v6).
    // 7: a follower's refit measures along the axes its group names (`dson.bake_morph` v7).
    // 8: rigidity frames at rest, flat reference sets, missing frames named (`dson.bake_morph` v8).
    // 9: a projected morph dson.apply_preset fitted rigidity into is baked from its plain deltas (`dson.bake_morph` v12).
    version: 9,
    params: {
      morph: {
        type: "string",
        default: "",
        doc: "Name of a morph to bake into the mesh (DSON; rigidity groups honoured). Empty: none.",
      },
      morph_weight: {
        type: "number",
        default: 1,
        min: -10,
        max: 10,
        doc: "Weight of the baked morph (DSON).",
      },
    },
    resolve: preloadWith(async ({ scene, params, ctx }) => {
      if (params.morph === "") return;
      const { bakeMorph } = await bake();
      bakeMorph(scene, params.morph, params.morph_weight, (message) => ctx.warn(message));
    }, bake),
  },
);
