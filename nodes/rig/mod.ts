/**
 * The aircraft rig nodes: find declared parts and control surfaces, fit hinges, assign sides,
 * insert pivots and report. Each node is scene → scene (the report gives JSON) and usable alone;
 * intermediate results travel in the scene as `extras.partgraph.part` annotations.
 *
 * @example
 * ```ts
 * import { rigPlugin } from "./nodes/rig/mod.ts";
 * rigPlugin.nodes!.map((n) => n.type); // ["rig.parts", "rig.detect_panels", …]
 * ```
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";
import { rigParts } from "./parts.ts";
import { rigDetectPanels } from "./detect_panels.ts";
import { rigFitHinge } from "./fit_hinge.ts";
import { rigAssignSide } from "./assign_side.ts";
import { rigInsertPivot } from "./insert_pivot.ts";
import { rigReport } from "./report.ts";

/** The rig nodes, in pipeline order. */
export const rigPlugin: Plugin = {
  nodes: [rigParts, rigDetectPanels, rigFitHinge, rigAssignSide, rigInsertPivot, rigReport],
};
