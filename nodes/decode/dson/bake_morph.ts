/**
 * `dson.bake_morph` — bakes one morph of a decoded DSON scene into the mesh, with rigidity groups
 * honoured (participants move rigidly with their reference vertices instead of taking the morph's
 * shape). The same code runs when `constraints.resolve` is given a `morph` on a DSON scene.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";

/**
 * What the run imports, on its first call or ahead of it (a batch worker's preload): not to declare
 * the node, which would load the codec.
 */
const runModules = () =>
  Promise.all([
    importOnUse<typeof import("../../../runtime/scene/copy.ts")>(
      "../../../runtime/scene/copy.ts",
      import.meta.url,
    ),
    importOnUse<typeof import("./codec/bake.ts")>("./codec/bake.ts", import.meta.url),
  ]);

/** `dson.bake_morph` node definition. */
export const dsonBakeMorph = defineNode({
  type: "dson.bake_morph",
  // 2: a vertex in the masks of several rigidity groups is a warning naming it and its groups (it
  // takes the last group's result, as before, but silently).
  // 3: a shape whose ERC formulas move joint centres (decode.dson v58's `rig_centres`) moves the
  // joints where the baked weight puts them, rest frames, inverse binds and pose, as decode.dson
  // does for a file saved at that weight, and those formulas read the weight from then on (before:
  // the joints stayed where the decoded dial put them, silently: rig_preset_test's held-out seeds
  // 17101-17140, baked from 0 and from another dial, 40 of 40 wrong -> 0).
  // 4: rigid followers are refitted to their reference vertices as the baked shape moves them and
  // their joint (decode.dson v59 records them; `follower_refit.ts`; before: they stayed, warned only
  // when their joint moved: follower_shape_habits.ts held-out seeds 18201-18240, 40 of 40 wrong, 7
  // silently -> 0). A follower decoded before v59 keeps its place, named in one warning. Node
  // instances' copies (decode.dson v52's `copy_of`) take their originals' new places, as
  // dson.apply_preset v38 poses them (before: they kept the joints' old places, silently:
  // figure_instance_habits with a shape baked, held-out seeds 13101-13120, 20 of 20 wrong -> 0).
  // 5: rigid followers refitted by their rotation_mode and scale_modes, from the base mesh as Daz
  // fits them (held-out seeds 19201-19240: 48 of 81 followers off, all silently -> 0).
  // 6: a rigid follower of a merged graft is refitted (decode.dson v61; before it kept its place,
  // warned: graft_follower_habits.ts held-out seeds 20101-20140, 39 of 40 wrong -> 0), and every
  // follower from the base mesh, as Daz fits it.
  // 7: a follower's refit measures along the axes its group names (decode.dson v62's `frame`).
  // 8: a rigidity group's frame node (`transform_nodes` / `reference`) gives its rest axes, not its
  // posed ones: rigidity runs with the morphs on the mesh at rest, before skinning poses it, as
  // rigid followers are refitted (posed_rigidity_habits.ts held-out seeds 22001-22040: 23 of 40
  // scenes, 34 of 79 groups off by up to 2 mm, all silently -> 0); a frame node missing from the
  // scene is warned at the group's path in the scene extras; rigid followers whose frame node is
  // missing are named (before, only by decode.dson), groups and followers stretched across a line
  // their reference vertices do not fix are named, and flat reference sets are read as
  // decode.dson v63 reads them.
  // 9: rigid followers and `full` rigidity groups whose reference vertices lie on a line (or are one
  // vertex) take the least turn carrying the line and are named, as those vertices fix no twist about it;
  // default-mode followers on such vertices turned (two slid unturned, three or more took Horn's
  // degenerate twist) silently: follower_line_habits.ts held-out seeds 1001-1400, 245 of 400 parts off by
  // over 1 mm, all silently -> 191, none silently.
  // 10: a rigid follower or `full` rigidity group on a line is named only when the line turns (its
  // twist about the line is then not in the file); reference vertices that slide along their line, or
  // one vertex, fit a slide, as Daz's rigid fit of them does, and are not named, nor a group whose
  // participants lie on its line; a set spans a direction only past its coordinates' written rounding
  // (7 significant digits) as well as a thousandth of its widest spread. follower_line_habits.ts
  // held-out seeds 9001-9400 judged against Daz's fit: 235 parts right but warned -> 0, 85 wrong, none
  // silently, before and after. Same version: a strap's twist doubt is averaged over at most 64 of
  // its vertices (a smooth unevenness is shared by neighbours): rigidity_real_habits.ts beltCase
  // held-out seeds 3001-3400, 12 of 400 parts off silently -> 0.
  // 11: reference vertices that fit a slide (a line keeping its direction, or one place) while the
  // mesh's 8 vertices nearest them turn about that line or place by over 0.02 rad are named (a rigid
  // follower; a group with a participant off the line, turned in full, or any but `none` on one place):
  // Daz fits the reference vertices alone, so the part slides unturned, off the surface's turn; the
  // slide is kept. Judged against the surface's motion (surface_turn_test.ts), held-out
  // follower_line_habits seeds 12001-12400: 138 of 400 parts off by over 1 mm silently -> 0;
  // rigidity_real_habits seeds 14001-14400: 55 -> 0; plain shifts named 0 -> 0.
  // Same version (same session): so is a stretch of that mesh over 2 % where scale_modes ask for one
  // the set cannot measure (one vertex: every axis; a line: across it), read as 1 (0/0):
  // stretch_habits.ts held-out seeds 16001-16400, 198 of 400 parts off silently -> 0.
  // 12: a projected morph into which dson.apply_preset (v54) fitted its item's rigidity at the
  // preset's dial is baked from its plain deltas (its record's `rigid.plain`), rigidity fitted again
  // at the baked weight, as Daz fits it; before v54 no target held such a fit, so nothing else changed.
  version: 12,
  doc: "Bakes a morph target of a decoded DSON scene into the base mesh at a weight, applying the " +
    "geometry's rigidity groups; the target is removed from the mesh, and joints the shape's ERC formulas move " +
    "go where that weight puts them.",
  inputs: { scene: { type: "scene", doc: "A scene decoded by decode.dson." } },
  outputs: { scene: { type: "scene", doc: "The scene with the morph baked." } },
  params: {
    morph: {
      type: "string",
      default: "",
      doc: "Name of the morph (modifier name or id) to bake; empty passes the scene through.",
    },
    weight: { type: "number", default: 1, min: -10, max: 10, doc: "Weight the morph is baked at." },
  },
  run: preloadWith(async ({ inputs, params, ctx }) => {
    if (params.morph === "") {
      ctx.cheapToRecompute(); // passed through: storing it again would encode the same scene twice
      return { scene: inputs.scene };
    }
    const [{ sceneToChange }, { bakeMorph }] = await runModules();
    // It gives changed vertices new arrays, never writing into the input's: in place when owned.
    const scene = sceneToChange(inputs.scene, ctx.owns("scene"));
    bakeMorph(scene, params.morph, params.weight, (message) => ctx.warn(message));
    return { scene };
  }, runModules),
});
