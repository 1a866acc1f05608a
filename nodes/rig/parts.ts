/**
 * `rig.parts` — collects the parts a model declares: every node whose `ctrl_type` extra is
 * `"rotation"` or `"translation"` turns about (or slides along) its own local X from the pose it was
 * found in. Its interop extras (`rest`, `min`, `max`, `unit`, `group`, `positive`, …) are left as
 * they are and mirrored into `extras.partgraph.part` with a kind read from its name and group.
 * Parts a decoder already annotated (Freelancer joints, `found_by: "constraint"`) keep their data.
 * partgraph's own `HINGE_auto_` pivots whose extras a tool dropped are declared again (`own_pivots.ts`);
 * a frame an earlier run recorded is dropped when its pivots show the file's axes turned since (`moved_axes.ts`).
 * A panel the user edited under one of partgraph's pivots since (moved, turned, resized, re-modelled) has
 * the stale pivot taken out and is fitted again, warned; unedited panels keep theirs (`edited_panels.ts`).
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** `rig.parts` node definition. */
export const rigParts = defineNode({
  type: "rig.parts",
  // 9: an extras-less pivot of ours named for what its panel is called (rig.insert_pivot v6:
  // `HINGE_auto_Aileron_L` above `Aileron_L_$AssimpFbx$_Translation`, `HINGE_auto_<mesh>[_<n>]` above a
  // `Component#3`) finds its panel again (it was taken for no pivot, the panel pivoted a second time).
  // 10: Apply Scale on a mirrored half (a wing scaled −1 holding its panels' pivots) is no edit: the
  // pivots' frames lose their mirror, the panels read point-reflected, the hinge lines stay (10
  // generated aircraft: 35 panels warned and refitted on untouched round trips, now 0; a 1 cm edit still
  // refitted). Panels sheared by scale applied to the _unscale/_rescale helpers are one warning naming
  // them and the cause, their hinges kept and records following (was one "holds more than the panel"
  // warning each, on every later run).
  // 11: an extras-less pivot named with the side of a shared name (`HINGE_auto_Flap_L_1`, rig.insert_pivot
  // v7) finds its panel again, as does one whose panel export numbered apart (`Flap_1`).
  // 12: a scene marked `resolved: 1` (a boolean as Blender 3.4 writes it back) is not warned of as unresolved.
  // 13: `min`, `max` and `rest` written as text (`"-20"`: Blender's FBX import keeps 3ds Max's
  // user-defined properties as strings and exports them so) are read as numbers, named in a warning;
  // limits that are no number are named as left out (both were dropped silently, the defaults applied).
  // 14: `ctrl_type` as typed into custom properties (`"Rotation"`, `" translation "`) declares a part, and
  // text limits and such a ctrl_type are written back as numbers and the word, which runtimes compare
  // exactly; a ctrl_type that is neither word is named (before: not a part, silently).
  // 15: an edited panel is told by what its triangles with an area draw (fitted_geometry.ts
  // panelDrift): a panel written again without its undrawn vertices (an exporter's) is not refitted; a
  // record of rig.insert_pivot before v16, over every vertex, still reads the panel unedited.
  version: 15,
  doc: 'Marks every node with a ctrl_type extra ("rotation" or "translation") as a part: it turns ' +
    "about, or slides along, its own local X from its found pose; rest/min/max/unit/group/positive " +
    "extras are honoured and passed through. What is under a part, or holds one, is left to it.",
  inputs: { scene: { type: "scene", doc: "Any scene." } },
  outputs: { scene: { type: "scene", doc: "The scene with extras.partgraph.part on every declared part." } },
  params: {},
  run: lazyRun(new URL("./parts_run.ts", import.meta.url)),
});
