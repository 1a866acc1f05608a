/**
 * `rig.insert_pivot` — inserts a node `HINGE_auto_<name>` above every fitted panel, on its hinge
 * with local X along it; the panel keeps its world pose, and turning the pivot about X turns the
 * panel about its hinge. The pivot becomes the part: it carries the extras other runtimes read
 * (`ctrl_type: "rotation"`, `axis: "X"`, `unit: "deg"`, `min`, `max`, `rest: 0`, `group`,
 * `positive`) and the part annotation moves from the panel to it. `<name>` is what the panel is called
 * (`panel_names.ts`): its node's name without Assimp's `_$AssimpFbx$_<kind>` helper suffix, or a
 * placeholder node's (`Component#3`, unnamed) mesh's name, numbered `_<n>` when taken.
 *
 * Transforms are composed in parent space (pivot TRS has unit scale; the panel keeps its own scale),
 * so mirrored and non-uniformly scaled parents are never decomposed. Under a parent whose world is no
 * similarity the pivot hangs under `HINGE_auto_<name>_unscale` and the panel under `…_rescale`
 * (`unscale.ts`), so the turn stays rigid in world; with `zero_rest` the pivot's rest transform sits on
 * `HINGE_auto_<name>_rest` and the pivot itself is identity at rest. Components within 1e-4 of
 * identity are snapped to it: glTF writers drop near-identity transforms (within 1e-5), which would
 * otherwise move the panel on export. A skin bone panel is handled the same way: it keeps its world
 * pose, so its inverse bind matrix stays valid, and turning the pivot turns the vertices skinned to it.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** `rig.insert_pivot` node definition. */
export const rigInsertPivot = defineNode({
  type: "rig.insert_pivot",
  // 3: a part without limits (a propeller, a rotor) gets no min/max extras (the interop default is
  // ±∞); they were written null.
  // 6: a pivot is named for what its panel is called (`panel_names.ts`): `HINGE_auto_Aileron_L` above
  // Assimp's `Aileron_L_$AssimpFbx$_Translation` (was `HINGE_auto_Aileron_L_$AssimpFbx$_Translation`),
  // `HINGE_auto_<mesh>` above SketchUp's `Component#3` or an unnamed node (was `HINGE_auto_Component#3`,
  // `HINGE_auto_`), numbered `_<n>` when that name is taken.
  // 7: pivots of panels called alike (SketchUp instances of one definition, nodes named alike, unnamed
  // nodes of one mesh) say the side the rig gave each, `HINGE_auto_Aileron_L`/`_R` (were
  // `HINGE_auto_Aileron` and `…_1`: 96 of 96 sided pivots on 12 generated aircraft said no side), then
  // numbered when still taken (`HINGE_auto_Flap_L_1`).
  // 9: names are read with each kind's own side letters too (vocabulary_pairs.ts kindPairedLetters): a
  // kit-bashed file's `AileronP`/`AileronS` beside `Elevator_L`/`Elevator_P` state their sides.
  // 10: a pivot under a group shrunk to 0 (hidden damage copies) records no fitted geometry: it threw.
  // 11: a side letter beside a two-word kind (`Ster_wysokosci_P`) is paired with the file's (vocabulary_pairs.ts).
  // 12: the copies' boxes read what triangles with an area draw (mesh_bounds.ts), as rig.fit_hinge v92.
  // 13: the copies' boxes are read per primitive, not per vertex buffer (mesh_bounds.ts), as
  // rig.fit_hinge v93.
  // 14: a panel that slides (rig.fit_hinge v95: a glider's airbrake blade) gets a translation pivot:
  // ctrl_type translation, unit m, its X along the slide, its axis_world not flipped under a mirror (a
  // mirror flips a turn's sense, not a slide's).
  // 16: a pivot's `fitted_to` box is read over what triangles with an area draw (fitted_geometry.ts):
  // one reaching to vertices nothing draws, which an exporter drops, made the panel look edited on
  // the next run (undrawn_tally.ts reruns).
  // 17: parts found by their shape (rig.fit_hinge v100: a glider's unnamed airbrake blades,
  // found_by "shape") get pivots as named ones do.
  // 18: a skin bone's box a trim tab is judged riding on is what triangles with an area draw
  // (bone_geometry.ts drawnVertices), as rig.fit_hinge v104.
  version: 18,
  doc: "Inserts a HINGE_auto_<name> pivot above each fitted panel, on its hinge with X along it, " +
    "keeping the panel's world pose and turning it rigidly even under non-uniformly scaled parents; " +
    "the pivot carries ctrl_type/axis/unit/min/max/rest/group/positive extras and the part annotation.",
  inputs: { scene: { type: "scene", doc: "A scene whose panels rig.fit_hinge fitted." } },
  outputs: { scene: { type: "scene", doc: "The scene with a pivot above every fitted panel." } },
  params: {
    zero_rest: {
      type: "boolean",
      default: false,
      doc: "Put each pivot's rest orientation on a fixed parent HINGE_auto_<name>_rest, so the pivot's " +
        "own rotation is identity at rest and its X rotation is the deflection (Blender, three.js).",
    },
  },
  run: lazyRun(new URL("./insert_pivot_run.ts", import.meta.url)),
});
