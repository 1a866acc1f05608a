/**
 * The work of `rig.report` (declared in `report.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { JsonValue } from "../../runtime/node.ts";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { getPartgraphExtras } from "../../runtime/scene/extras.ts";
import { exportNames } from "../../runtime/scene/unique_names.ts";
import { resolveFrame, toAircraft } from "./frame.ts";
import { doubtedFit, frameDoubt } from "./frame_doubt.ts";
import { declaredCtrlType, foundByRig, getPart, nodePath } from "./part_extras.ts";
import { partNodesOf } from "./scene_order.ts";
import {
  canonicalVec3,
  linearDeterminant,
  normalize,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";
import type { rigReport } from "./report.ts";
import { panelChild } from "./own_pivots.ts";
import { panelName } from "./panel_names.ts";

/** `rig.report`: see its declaration. */
export const run: NodeRun<typeof rigReport> = ({ inputs, params }) => {
  const doc = inputs.scene;
  const frame = resolveFrame(doc, params.forward, params.up);
  const all = doc.getRoot().listNodes();
  // Looked up, not searched: a search of every node per part and path step was quadratic in the parts.
  const indices = new Map<Node, number>();
  all.forEach((node, i) => indices.has(node) || indices.set(node, i));
  const indexOf = (node: Node) => indices.get(node) ?? -1;
  // The names export.gltf writes, so the report and the file agree when names repeat.
  const names = exportNames(doc).nodes;
  const nameOf = (node: Node) => names[indexOf(node)];
  const parts: JsonValue[] = [];
  const byKind: Record<string, number> = {};
  const byFoundBy: Record<string, number> = {};
  // A frame whose up or tail end was a guess puts every part's side and hinge in doubt (frame_doubt.ts).
  const doubt = frameDoubt(frame);
  for (const node of partNodesOf(doc)) {
    const part = getPart(node)!;
    const fit = part.fit && doubtedFit(part.fit, doubt);
    const hinge = worldHinge(node);
    // A pivot's panel, called as its pivot is named (`panel_names.ts`); its node named in its path. A
    // panel fitted but given no pivot (reported before rig.insert_pivot, or its fit found no hinge)
    // holds its part itself.
    const panel = part.panel === undefined
      ? (foundByRig(part) && !declaredCtrlType(node) ? node : undefined)
      : panelChild(node, part.panel);
    const called = panel ? panelName(panel) : undefined;
    byKind[part.kind] = (byKind[part.kind] ?? 0) + 1;
    byFoundBy[part.found_by] = (byFoundBy[part.found_by] ?? 0) + 1;
    const entry: Record<string, JsonValue> = {
      name: nameOf(node),
      path: nodePath(node, indexOf, nameOf),
      kind: part.kind,
      side: part.side ?? null,
      found_by: part.found_by,
      driven_by: part.driven_by ?? null,
      ctrl_type: declaredCtrlType(node) ?? part.ctrl_type ?? null,
      unit: part.unit ?? null,
      min: part.min ?? null,
      max: part.max ?? null,
      rest: part.rest ?? 0,
      group: part.group ?? null,
      positive: part.positive ?? null,
      panel: called?.name ?? part.panel ?? null,
      panel_path: panel ? nodePath(panel, indexOf, nameOf) : null,
      panel_named_by: called?.namedBy ?? null,
      hinge: hinge
        ? {
          world: { origin: hinge.origin, axis: hinge.axis },
          aircraft: {
            origin: canonicalVec3(toAircraft(frame, hinge.origin)),
            axis: canonicalVec3(toAircraft(frame, hinge.axis)),
          },
        }
        : null,
      fit: fit ? { ...fit, residual_per_chord: fit.chord > 0 ? fit.residual / fit.chord : 0 } : null,
    };
    parts.push(entry);
  }
  // Which library supplied each material and texture, when the decoder recorded it (decode.cmp).
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const libraries = scene ? getPartgraphExtras(scene).libraries : undefined;
  return {
    report: {
      frame: {
        forward: frame.forward,
        up: frame.up,
        metres_per_unit: frame.metresPerUnit,
        ...(frame.detected
          ? {
            found_by: "geometry",
            confidence: frame.detected.confidence,
            reasons: [...frame.detected.reasons],
          }
          : {}),
      },
      parts,
      counts: { parts: parts.length, by_kind: byKind, by_found_by: byFoundBy },
      ...(libraries === undefined ? {} : { libraries }),
    },
  };
};

/**
 * A part's hinge in world space: its own X for a node that is the joint, the fitted hinge for a
 * panel without a pivot yet. The axis is the one a positive angle turns about (right-hand rule).
 */
function worldHinge(node: Node): { origin: Vec3; axis: Vec3 } | undefined {
  const part = getPart(node)!;
  const world = node.getWorldMatrix();
  // A slide moves along the axis as drawn: a mirroring ancestor flips a turn's sense, not a slide's.
  const slides = (declaredCtrlType(node) ?? part.ctrl_type) === "translation";
  if (declaredCtrlType(node) || !foundByRig(part)) {
    const mirror = !slides && linearDeterminant(world) < 0 ? -1 : 1;
    const axis = normalize(transformDirection(world, [1, 0, 0]));
    return {
      origin: canonicalVec3(transformPoint(world, [0, 0, 0])),
      axis: canonicalVec3(axis.map((v) => v * mirror)),
    };
  }
  if (!part.hinge) return undefined;
  const parent = node.getParentNode();
  if (!parent) {
    return { origin: canonicalVec3(part.hinge.origin), axis: canonicalVec3(normalize(part.hinge.axis)) };
  }
  const parentWorld = parent.getWorldMatrix();
  const mirror = !slides && linearDeterminant(parentWorld) < 0 ? -1 : 1;
  const axis = normalize(transformDirection(parentWorld, part.hinge.axis));
  return {
    origin: canonicalVec3(transformPoint(parentWorld, part.hinge.origin)),
    axis: canonicalVec3(axis.map((v) => v * mirror)),
  };
}
