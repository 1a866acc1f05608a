/**
 * `rig.report` — gathers the rig as JSON: every part with its name, node path, kind, side, how it
 * was found (and `driven_by: "skin"` for a skin bone), limits, hinge (origin and axis in world and in the aircraft frame) and fit quality.
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
  version: 8,
  doc: "Reports every part (name, node path, kind, side, found_by, limits, hinge in world and " +
    "aircraft frame, fit quality) as JSON; names are the unique ones export.gltf writes.",
  inputs: { scene: { type: "scene", doc: "A rigged scene (any stage of the rig nodes)." } },
  outputs: { report: { type: "json", doc: "{ frame, parts: [...], counts }" } },
  params: { forward: FORWARD_PARAM, up: UP_PARAM },
  run: lazyRun(new URL("./report_run.ts", import.meta.url)),
});
