/**
 * `rig.assign_side` — gives every part a side: from its name first (`_L`, `.L`, `Left`, `Port`,
 * `lh`, `l_` …; `_R`, `Right`, `Starboard`, `stbd`, `rh` …; `_C`, `Centre`), otherwise from where
 * its geometry sits: within a band of the centre line it is centre, else the side it is on. The band
 * is 5 cm in metres, or a fraction of the model's size when the decoder recorded the unit as unknown.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { defineNode } from "../../runtime/node.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { aircraftMatrix, FORWARD_PARAM, resolveFrame, UP_PARAM } from "./frame.ts";
import { gatherPositions, positionBounds } from "./geometry.ts";
import { panelPositions } from "./bone_geometry.ts";
import { getPart, listPartNodes, setPart, topLevelNodes } from "./part_extras.ts";
import { transformPoint } from "./transform.ts";
import { type Side, sideFromName } from "./vocabulary.ts";

/** `rig.assign_side` node definition. */
export const rigAssignSide = defineNode({
  type: "rig.assign_side",
  version: 2,
  doc: "Assigns every part a side (left, right, centre): from its name, else from where its geometry " +
    "sits relative to the centre line (a band around it is centre).",
  inputs: { scene: { type: "scene", doc: "A scene with parts marked." } },
  outputs: { scene: { type: "scene", doc: "The scene with extras.partgraph.part.side on every part." } },
  params: {
    forward: FORWARD_PARAM,
    up: UP_PARAM,
    centre_band: {
      type: "number",
      default: 0.05,
      min: 0,
      doc: "Half-width of the centre band in metres, used when the scene's unit is known.",
    },
    centre_band_fraction: {
      type: "number",
      default: 0.01,
      min: 0,
      max: 0.5,
      doc:
        "Half-width of the centre band as a fraction of the model's largest extent, when the unit is unknown.",
    },
  },
  run({ inputs, params }) {
    const scene = copyScene(inputs.scene, { shareData: true });
    const frame = resolveFrame(scene, params.forward, params.up);
    const matrix = aircraftMatrix(frame);
    const roots = topLevelNodes(scene.getRoot().listNodes());
    let band: number | undefined;
    const centreBand = (): number => {
      if (band !== undefined) return band;
      if (frame.metresPerUnit !== null) return band = params.centre_band / frame.metresPerUnit;
      let extent = 0;
      for (const root of roots) {
        const bounds = positionBounds(gatherPositions(root, matrix));
        if (bounds) { for (let k = 0; k < 3; k++) extent = Math.max(extent, bounds.max[k] - bounds.min[k]); }
      }
      return band = params.centre_band_fraction * extent;
    };
    for (const node of listPartNodes(roots)) {
      const part = getPart(node)!;
      if (part.side) continue;
      const side = sideFromName(node.getName()) ?? sideFromGeometry(scene, node, matrix, centreBand);
      setPart(node, { ...part, side });
    }
    return { scene };
  },
});

/**
 * Left/right/centre from the lateral (aircraft +left) centre of the node's geometry (a skin bone's:
 * the vertices skinned to it), or of its origin when it has none.
 */
function sideFromGeometry(doc: Document, node: Node, matrix: number[], centreBand: () => number): Side {
  const bounds = positionBounds(panelPositions(doc, node, matrix));
  const lateral = bounds
    ? (bounds.min[2] + bounds.max[2]) / 2
    : transformPoint(matrix, transformPoint(node.getWorldMatrix(), [0, 0, 0]))[2];
  if (Math.abs(lateral) <= centreBand()) return "centre";
  return lateral > 0 ? "left" : "right";
}
