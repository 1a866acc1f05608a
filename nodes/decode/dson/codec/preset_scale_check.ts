/**
 * After a preset poses a decoded DSON scene: the nodes that do not inherit scale under an uneven one
 * get the nearest scale to Daz's (as the decode fits them), and the nodes it leaves turned under an
 * unevenly scaled parent, which a glTF child cannot draw as Daz does (`scale_composition.ts`), are
 * named as the decode names them. Only nodes the preset posed, or under one it posed, are looked at:
 * the rest were the decode's.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { currentPose, isScaleFit, nodeTrs, record } from "./preset_pose.ts";
import { eulerDegrees, eulerQuat, scaleDivisor } from "./rest_pose.ts";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { quat } from "gl-matrix/esm/index.js";
import type { Vec3 } from "./rigid_fit.ts";
import {
  type ComposedNode,
  fitUninherited,
  unevenlyScaled,
  unevenScaleWarnings,
} from "./scale_composition.ts";

/** A node's DSON record in its extras. */
type DsonExtras = { [key: string]: JsonValue };

/**
 * Fits the glTF scale of each node of `doc` under (or among) `posed` that does not inherit scale under
 * an uneven one (`fitUninherited`, its `scale_fit` recorded; a stale one dropped, the node's scale
 * undone as the decode undoes it), then warns of those nodes a glTF hierarchy draws otherwise than
 * DSON's composition, `scales` being each DSON node's own scale (`dsonScales`, as the preset set it).
 * Rigid followers (posed in their written parent's frame, under another joint) ride that joint as a
 * child prop does: they are named where its uneven scale runs across their turn (dson.apply_preset
 * v53; before, they and what hangs under them were left out), and are never fitted.
 *
 * @example
 * ```ts
 * scaleAfterPreset(doc, new Set(poses.keys()), scales, warn);
 * ```
 */
export function scaleAfterPreset(
  doc: Document,
  posed: ReadonlySet<Node>,
  scales: ReadonlyMap<Node, Vec3>,
  warn: WarningSink,
): void {
  if (!posed.size) return;
  const composed: ComposedNode[] = [], gltfScales: Vec3[] = [], touched: boolean[] = [], gltf: Node[] = [];
  const follower: boolean[] = [];
  const visit = (node: Node, parent: number, underPosed: boolean) => {
    const own = record(node);
    const dson = getPartgraphExtras(node).dson as { rigid_follow?: unknown; key?: unknown } | undefined;
    if (!own) return;
    const parentNode = parent >= 0 ? node.getParentNode() : null;
    const parentRecord = parentNode ? record(parentNode) : undefined;
    const index = composed.length;
    const key = typeof dson?.key === "string" ? dson.key : node.getName();
    const follows = dson?.rigid_follow !== undefined;
    follower.push(follows);
    if (follows) {
      // A rigid follower rides the joint it is under as a child prop does (decode.dson v70), turned
      // and scaled as its glTF node is there: not posed in that joint's frame, so its turn in its own
      // frame is O_f⁻¹·O_j·R (the decode's follower_shear.ts), and it takes no fit of its own.
      const turn = quat.invert(quat.create(), eulerQuat(own.orientation, "XYZ"));
      if (parentRecord) quat.multiply(turn, turn, eulerQuat(parentRecord.orientation, "XYZ"));
      quat.multiply(turn, turn, node.getRotation());
      composed.push({
        key,
        parent,
        orientation: own.orientation,
        rotation: eulerDegrees(turn, "XYZ"),
        rotationOrder: "XYZ",
        scale: [...node.getScale()] as Vec3,
        generalScale: 1,
        inheritsScale: true,
      });
    } else {
      const pose = currentPose(
        nodeTrs(node),
        own,
        parentRecord && { centerPoint: parentRecord.center_point, orientation: parentRecord.orientation },
      );
      composed.push({
        key,
        parent,
        orientation: own.orientation,
        rotation: pose.rotation,
        rotationOrder: own.rotation_order,
        scale: scales.get(node) ?? [1, 1, 1],
        generalScale: 1,
        inheritsScale: own.inherits_scale !== false,
      });
    }
    gltfScales.push([...node.getScale()] as Vec3);
    gltf.push(node);
    const here = underPosed || posed.has(node);
    touched.push(here);
    for (const child of node.listChildren()) visit(child, index, here);
  };
  for (const scene of doc.getRoot().listScenes()) {
    for (const root of scene.listChildren()) visit(root, -1, false);
  }
  // A scale fitted before starts again from the decode's (its own, undone as build_scene.ts does): the
  // fit below gives it again where it is still under an uneven scale, and its children compose on it.
  const stale = composed.map((_, i) =>
    touched[i] && isScaleFit((getPartgraphExtras(gltf[i]).dson as DsonExtras).scale_fit)
  );
  stale.forEach((was, i) => {
    if (!was) return;
    const c = composed[i];
    // A node that inherits scale (fitted where a right-angle turn made the fit exact) divides nothing.
    const divisor = c.inheritsScale ? 1 : scaleDivisor(c.parent >= 0 ? composed[c.parent].scale : [1, 1, 1]);
    gltfScales[i] = c.scale.map((v) => v / divisor) as Vec3;
  });
  const { scales: fitted, factors } = fitUninherited(composed, gltfScales, (i) => touched[i] && !follower[i]);
  gltf.forEach((node, i) => {
    const factor = factors.get(i);
    if (!factor && !stale[i]) return;
    node.setScale(fitted[i]);
    const { scale_fit: _fit, ...dson } = getPartgraphExtras(node).dson as DsonExtras;
    setPartgraphExtras(node, { dson: factor ? { ...dson, scale_fit: factor } : dson });
  });
  const uneven = unevenlyScaled(composed, fitted).filter((u) => touched[u.node]);
  for (const message of unevenScaleWarnings(composed, uneven, "dson preset")) warn(message);
}
