/**
 * `rig.report` — gathers the rig as JSON: every part with its name, node path, kind, side, how it
 * was found (and `driven_by: "skin"` for a skin bone), limits, hinge (origin and axis in world and in the aircraft frame) and fit quality.
 * A pivot names its panel as the panel is called (`panel_names.ts`), its node's path beside it.
 * Parts that are nodes turning about their own X (declared parts, inserted pivots) report that X;
 * panels fitted but not yet given a pivot report the fitted hinge.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";
import { FORWARD_PARAM, UP_PARAM } from "./frame_params.ts";

/** `rig.report` node definition. */
export const rigReport = defineNode({
  type: "rig.report",
  // 4: frame detection reads skinned meshes at rest. 6: "auto" frame detection reads a box fuselage's
  // centre line at its slimmer end, not its wing root.
  // 7: "auto" frame detection reads a helicopter's main rotor apart (a flat wide layer on a mast, or parts
  // named as one): up from it, the tail from the body running further from its mast, the other measures
  // without it; tail rotor and tail boom names mark the tail (1,728 generated helicopters in 24 frames: 312
  // right and good, 96 wrong and judged good before; now all right and good).
  // 8: "auto" frame detection reads the first of the aircraft's copies laid out apart (copies.ts).
  // 9: a pivot's `panel` is what the panel is called (`Aileron_L` for Assimp's
  // `Aileron_L_$AssimpFbx$_Translation`, the mesh's name for SketchUp's `Component#3`; it was the node's
  // name, empty for an unnamed node), with `panel_path` (the panel node's path, names as exported) and
  // `panel_named_by` (`node` or `mesh`) beside it.
  // 10: "auto" frame detection reads the first copy apart when copies are told apart by other names
  // (copy_names.ts: `_Low`, `.001`, `_damaged`): stacked, 60 of 260 panels were wrong (3 judged good) and
  // 21 propellers' shafts wrong and judged good; now none.
  // 11: a part fitted but given no pivot (a report made before rig.insert_pivot, or a panel whose fit
  // found no hinge) names its panel, the node holding it, with panel_path and panel_named_by (was null).
  // 12: "auto" frame detection reads the first of different aircraft in one file (copies.ts).
  // 13: "auto" frame detection reads the first aircraft of a fleet in levels (`Spitfire_…_LOD1`), named in
  // camel case (`F16AileronLeft`), or in a hangar building (copies.ts, copy_places.ts).
  // 14: parts judged weak at best, naming the doubt, when the "auto" frame's up or tail end was a guess
  // (frame_doubt.ts).
  // 15: a part or path step without a name (empty or whitespace only) is named as export.gltf v26 writes it
  // (derived_names.ts: after its mesh, else `node_<i>`; before, '' — pointing at nothing in the file).
  // 16: the "auto" frame's camber cue as rig.fit_hinge v48 reads it (frame_camber.ts).
  // 17: "auto" frame detection reads the first aircraft standing clear where others touch (copy_places.ts
  // orders touching groups last).
  // 18: "auto" frame detection reads up from low-poly wing sections' camber (frame_camber.ts, a game
  // model's 4–10 points round: no vote before), and from copies found when touching aircraft's names
  // barely overlap (copy_places.ts).
  // 19: the "auto" frame reads no damage debris lying apart (frame_cloud.ts, detect_panels_debris.ts).
  // 20: the "auto" frame and the copies' boxes read what triangles with an area draw (drawn_vertices.ts,
  // mesh_bounds.ts), as rig.fit_hinge v92.
  // 21: the copies' boxes are read per primitive, not per vertex buffer (mesh_bounds.ts), as
  // rig.fit_hinge v93.
  // 22: a part that slides (ctrl_type translation, declared or found) reports its axis as drawn, not
  // negated under a mirroring ancestor (which flips a turn's sense, not a slide's).
  // 23: a part rig.fit_hinge found by its shape (found_by "shape", v100: a glider's airbrake blades no
  // name tells) is reported as a found-by-name one is: its panel, its hinge or slide from its fit.
  // 24: the "auto" frame's skinned meshes are what triangles with an area draw (frame_cloud.ts,
  // bone_geometry.ts drawnVertices), as rig.fit_hinge v104.
  version: 24,
  doc: "Reports every part (name, node path, kind, side, found_by, limits, hinge in world and " +
    "aircraft frame, fit quality) as JSON; names are the unique ones export.gltf writes.",
  inputs: { scene: { type: "scene", doc: "A rigged scene (any stage of the rig nodes)." } },
  outputs: { report: { type: "json", doc: "{ frame, parts: [...], counts }" } },
  params: { forward: FORWARD_PARAM, up: UP_PARAM },
  run: lazyRun(new URL("./report_run.ts", import.meta.url)),
});
