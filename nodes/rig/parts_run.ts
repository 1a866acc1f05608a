/**
 * The work of `rig.parts` (declared in `parts.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { rigScene } from "./rig_scene.ts";
import { getPartgraphExtras, isExtrasFlag } from "../../runtime/scene/extras.ts";
import { declaredCtrlType, getPart, type PartAnnotation, setPart } from "./part_extras.ts";
import { classifyPartName } from "./vocabulary.ts";
import { redeclareOwnPivots } from "./own_pivots.ts";
import { dropMovedFrame } from "./moved_axes.ts";
import { refitEditedPanels } from "./edited_panels.ts";
import { removeEmptyPivots } from "./stale_pivots.ts";
import type { rigParts } from "./parts.ts";

/** `rig.parts`: see its declaration. */
export const run: NodeRun<typeof rigParts> = ({ inputs, ctx }) => {
  warnIfUnresolved(inputs.scene, ctx);
  const scene = rigScene(inputs.scene, ctx);
  dropMovedFrame(scene, ctx);
  removeEmptyPivots(scene, ctx);
  redeclareOwnPivots(scene, ctx);
  refitEditedPanels(scene, ctx);
  for (const node of scene.getRoot().listNodes()) {
    const ctrlType = declaredCtrlType(node);
    if (!ctrlType) continue;
    const extras = node.getExtras() as Record<string, unknown>;
    const existing = getPart(node);
    const group = typeof extras.group === "string" ? extras.group : undefined;
    const unit = typeof extras.unit === "string" ? extras.unit : ctrlType === "rotation" ? "deg" : "m";
    if (extras.axis !== undefined && extras.axis !== "X") {
      ctx.warn(`part '${node.getName()}' declares axis '${String(extras.axis)}'; parts move along X`);
    }
    const part: PartAnnotation = {
      ...existing,
      kind: existing?.kind ?? classifyPartName(node.getName(), group) ?? "other",
      found_by: existing?.found_by ?? "extras",
      ctrl_type: ctrlType,
      unit,
      min: finite(extras.min) ?? existing?.min,
      max: finite(extras.max) ?? existing?.max,
      rest: finite(extras.rest) ?? existing?.rest ?? 0,
      group: group ?? existing?.group,
      positive: typeof extras.positive === "string" ? extras.positive : existing?.positive,
    };
    setPart(node, part);
  }
  return { scene };
};

/**
 * A decoder's joints become parts only through `constraints.resolve`; without it the rig would miss
 * them and might rig the same surfaces again by name.
 */
function warnIfUnresolved(doc: Document, ctx: RunContext): void {
  for (const scene of doc.getRoot().listScenes()) {
    const { constraints, resolved } = getPartgraphExtras(scene);
    if (!Array.isArray(constraints) || constraints.length === 0 || isExtrasFlag(resolved)) continue;
    ctx.warn(
      `scene '${scene.getName()}' holds ${constraints.length} constraint record(s) its decoder kept: run ` +
        "constraints.resolve before the rig, or their joints are not parts",
    );
  }
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
