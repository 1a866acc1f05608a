/**
 * `rig.parts` — collects the parts a model declares: every node whose `ctrl_type` extra is
 * `"rotation"` or `"translation"` turns about (or slides along) its own local X from the pose it was
 * found in. Its interop extras (`rest`, `min`, `max`, `unit`, `group`, `positive`, …) are left as
 * they are and mirrored into `extras.partgraph.part` with a kind read from its name and group.
 * Parts a decoder already annotated (Freelancer joints, `found_by: "constraint"`) keep their data.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { defineNode, type RunContext } from "../../runtime/node.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { getPartgraphExtras } from "../../runtime/scene/extras.ts";
import { declaredCtrlType, getPart, type PartAnnotation, setPart } from "./part_extras.ts";
import { classifyPartName } from "./vocabulary.ts";

/** `rig.parts` node definition. */
export const rigParts = defineNode({
  type: "rig.parts",
  version: 1,
  doc: 'Marks every node with a ctrl_type extra ("rotation" or "translation") as a part: it turns ' +
    "about, or slides along, its own local X from its found pose; rest/min/max/unit/group/positive " +
    "extras are honoured and passed through. What is under a part, or holds one, is left to it.",
  inputs: { scene: { type: "scene", doc: "Any scene." } },
  outputs: { scene: { type: "scene", doc: "The scene with extras.partgraph.part on every declared part." } },
  params: {},
  run({ inputs, ctx }) {
    warnIfUnresolved(inputs.scene, ctx);
    const scene = copyScene(inputs.scene, { shareData: true });
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
  },
});

/**
 * A decoder's joints become parts only through `constraints.resolve`; without it the rig would miss
 * them and might rig the same surfaces again by name.
 */
function warnIfUnresolved(doc: Document, ctx: RunContext): void {
  for (const scene of doc.getRoot().listScenes()) {
    const { constraints, resolved } = getPartgraphExtras(scene);
    if (!Array.isArray(constraints) || constraints.length === 0 || resolved === true) continue;
    ctx.warn(
      `scene '${scene.getName()}' holds ${constraints.length} constraint record(s) its decoder kept: run ` +
        "constraints.resolve before the rig, or their joints are not parts",
    );
  }
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
