/**
 * After a preset poses a decoded DSON scene: the nodes it leaves turned under an unevenly scaled
 * parent, which a glTF child cannot draw as Daz does (`scale_composition.ts`), named as the decode
 * names them. Only nodes the preset posed, or under one it posed, are looked at: the rest were the
 * decode's to name.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { currentPose, nodeTrs, record } from "./preset_pose.ts";
import type { Vec3 } from "./rigid_fit.ts";
import { type ComposedNode, unevenlyScaled, unevenScaleWarning } from "./scale_composition.ts";

/**
 * Warns of the nodes of `doc` under (or among) `posed` that a glTF hierarchy draws otherwise than
 * DSON's composition, `scales` being each DSON node's own scale (`dsonScales`, as the preset set it).
 * Rigid followers (posed in their written parent's frame, under another joint) and what hangs under
 * them are left out.
 *
 * @example
 * ```ts
 * warnUnevenAfterPreset(doc, new Set(poses.keys()), scales, warn);
 * ```
 */
export function warnUnevenAfterPreset(
  doc: Document,
  posed: ReadonlySet<Node>,
  scales: ReadonlyMap<Node, Vec3>,
  warn: WarningSink,
): void {
  if (!posed.size) return;
  const composed: ComposedNode[] = [], gltfScales: Vec3[] = [], touched: boolean[] = [];
  const visit = (node: Node, parent: number, underPosed: boolean) => {
    const own = record(node);
    const dson = getPartgraphExtras(node).dson as { rigid_follow?: unknown; key?: unknown } | undefined;
    if (!own || dson?.rigid_follow !== undefined) return;
    const parentNode = parent >= 0 ? node.getParentNode() : null;
    const parentRecord = parentNode ? record(parentNode) : undefined;
    const pose = currentPose(
      nodeTrs(node),
      own,
      parentRecord && { centerPoint: parentRecord.center_point, orientation: parentRecord.orientation },
    );
    const index = composed.length;
    composed.push({
      key: typeof dson?.key === "string" ? dson.key : node.getName(),
      parent,
      orientation: own.orientation,
      rotation: pose.rotation,
      rotationOrder: own.rotation_order,
      scale: scales.get(node) ?? [1, 1, 1],
      generalScale: 1,
      inheritsScale: own.inherits_scale !== false,
    });
    gltfScales.push([...node.getScale()] as Vec3);
    const here = underPosed || posed.has(node);
    touched.push(here);
    for (const child of node.listChildren()) visit(child, index, here);
  };
  for (const scene of doc.getRoot().listScenes()) {
    for (const root of scene.listChildren()) visit(root, -1, false);
  }
  const uneven = unevenlyScaled(composed, gltfScales).filter((u) => touched[u.node]);
  if (uneven.length) warn(unevenScaleWarning(composed, uneven, "dson preset"));
}
