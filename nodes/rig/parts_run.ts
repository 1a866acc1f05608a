/**
 * The work of `rig.parts` (declared in `parts.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { rigScene } from "./rig_scene.ts";
import { getPartgraphExtras, isExtrasFlag, mergeExtras } from "../../runtime/scene/extras.ts";
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
  // Limits written as text (`"min": "-20"`) and `ctrl_type` as typed (`"Rotation"`): Blender's FBX
  // import keeps 3ds Max's user-defined properties as strings, and its glTF export writes them so. Read,
  // written back as numbers and the word (the runtimes reading these extras compare them exactly), and
  // named; what cannot be read is named as unread.
  const asText: string[] = [], unread: string[] = [], retyped: string[] = [], untyped: string[] = [];
  for (const node of scene.getRoot().listNodes()) {
    const extras = node.getExtras() as Record<string, unknown>;
    const ctrlType = declaredCtrlType(node);
    if (!ctrlType) {
      if (extras.ctrl_type !== undefined) {
        untyped.push(`'${node.getName()}' ${JSON.stringify(extras.ctrl_type)}`);
      }
      continue;
    }
    const rewritten: Record<string, number | string> = {};
    if (extras.ctrl_type !== ctrlType) {
      retyped.push(`'${node.getName()}' ${JSON.stringify(extras.ctrl_type)}`);
      rewritten.ctrl_type = ctrlType;
    }
    const existing = getPart(node);
    const finite = (key: string) => {
      const read = numberOf(extras[key]);
      const at = `'${node.getName()}' ${key} ${JSON.stringify(extras[key])}`;
      if (read.from === "text") {
        asText.push(at);
        rewritten[key] = read.value!;
      } else if (read.from === "unread") unread.push(at);
      return read.value;
    };
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
      min: finite("min") ?? existing?.min,
      max: finite("max") ?? existing?.max,
      rest: finite("rest") ?? existing?.rest ?? 0,
      group: group ?? existing?.group,
      positive: typeof extras.positive === "string" ? extras.positive : existing?.positive,
    };
    setPart(node, part);
    if (Object.keys(rewritten).length) mergeExtras(node, rewritten);
  }
  const list = (items: string[]) =>
    items.slice(0, 4).join(", ") + (items.length > 4 ? ` and ${items.length - 4} more` : "");
  if (asText.length) {
    ctx.warn(`part limits written as text read (and written) as numbers: ${list(asText)}`, {
      limits: asText,
    });
  }
  if (retyped.length) {
    ctx.warn(`ctrl_type read (and written) as its word: ${list(retyped)}`, { parts: retyped });
  }
  if (untyped.length) {
    ctx.warn(
      `ctrl_type neither rotation nor translation, so no part declared (a surface named as one is rigged by ` +
        `its name): ${list(untyped)}`,
      { nodes: untyped },
    );
  }
  if (unread.length) {
    ctx.warn(`part limits that are no number left out (the defaults apply): ${list(unread)}`, {
      limits: unread,
    });
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

/** A plain decimal number written as text: `-20`, ` 12.5 `, `+3`, `1e-2`. */
const NUMBER_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** A limit's value: a finite number, one written as text, or (anything else given) unread. */
function numberOf(value: unknown): { value?: number; from?: "text" | "unread" } {
  if (value === undefined || value === null) return {};
  if (typeof value === "number" && Number.isFinite(value)) return { value };
  if (typeof value === "string" && NUMBER_TEXT.test(value)) return { value: Number(value), from: "text" };
  return { from: "unread" };
}
