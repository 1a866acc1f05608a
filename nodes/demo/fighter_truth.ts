/**
 * Ground truth for the `demo.fighter` scene: every panel's true hinge line, side and chord, in world
 * space, computed from the same construction parameters the geometry is built from (parent
 * transforms × design-frame points), never by fitting. Rig tests measure their fits against it.
 *
 * @module
 */
import { fighterLayout, type LayoutNode } from "./fighter_layout.ts";
import { transformPoint, worldMatrices } from "./layout_transforms.ts";
import type { Vec3 } from "./mesh_builder.ts";
import { profileAt, slabPoint } from "./slab.ts";

/** The true hinge of one panel of the demo fighter. */
export interface PanelTruth {
  /** Node name of the panel in the scene. */
  name: string;
  /**
   * One of: "aileron", "elevator", "elevon", "stabilator", "canard", "rudder", "flap",
   * "leading_edge_flap", "air_brake", "spoiler", "drag_rudder", "ruddervator", "trim_tab", "slat".
   */
  kind: string;
  /** The aircraft side (+X is right); the air brake is on the centre line. */
  side: "left" | "right" | "centre";
  /** A point on the true hinge line (its mid-span point), world space, metres. */
  hingeOrigin: [number, number, number];
  /** Unit direction of the hinge line, world space (sign not significant). */
  hingeAxis: [number, number, number];
  /** The panel's streamwise chord at mid-span (m), for the 1 %-of-chord offset tolerance. */
  chord: number;
  /** A world point on the edge farthest from the hinge (mid-span, mid-thickness), for direction checks. */
  farEdge: [number, number, number];
}

/** Ground truth of the whole demo fighter. */
export interface FighterTruth {
  /** Every control panel, in scene order. */
  panels: PanelTruth[];
  /** Node names that look like panels by name but must not be rigged. */
  decoys: string[];
  /** Node names of parts that declare `ctrl_type` extras themselves. */
  prerigged: string[];
}

/** Parameters of `demo.fighter` that the truth could depend on (none move a hinge today). */
export interface FighterTruthParams {
  /** Mesh density; hinges are exact at every density, so it does not change the truth. */
  detail?: number;
}

/**
 * Returns the ground truth of the `demo.fighter` scene.
 *
 * @example
 * ```ts
 * const truth = fighterTruth();
 * const aileron = truth.panels.find((p) => p.name === "LeftAileron")!;
 * // aileron.hingeAxis is a unit vector along the aileron's forward edge, in world space
 * ```
 */
export function fighterTruth(_params: FighterTruthParams = {}): FighterTruth {
  const layout = fighterLayout();
  const world = worldMatrices(layout);
  const panels: PanelTruth[] = [];
  for (const node of layout) {
    if (node.role !== "panel" || !node.panel || node.shape?.type !== "slab") continue;
    panels.push(panelTruth(node, world.get(node.parent!)!));
  }
  return {
    panels,
    decoys: layout.filter((n) => n.role === "decoy").map((n) => n.name),
    prerigged: layout.filter((n) => n.role === "prerigged").map((n) => n.name),
  };
}

function panelTruth(node: LayoutNode, parentWorld: Float64Array): PanelTruth {
  if (node.shape?.type !== "slab" || !node.panel) throw new Error(`${node.name} is not a slab panel`);
  const slab = node.shape.slab;
  const hingeFraction = node.panel.hinge === "quarter_chord" ? 0.25 : 0;
  const midThickness = (fraction: number) => {
    const [lower, upper] = profileAt(slab.profile, fraction);
    return (lower + upper) / 2;
  };
  const at = (span: number, fraction: number): Vec3 =>
    transformPoint(parentWorld, slabPoint(slab, span, fraction, midThickness(fraction)));
  const hingeA = at(0, hingeFraction);
  const hingeB = at(1, hingeFraction);
  const axis = sub(hingeB, hingeA);
  const axisLength = Math.hypot(axis[0], axis[1], axis[2]);
  const farEdge = at(0.5, 1);
  const nearEdge = at(0.5, 0);
  const chordVector = sub(farEdge, nearEdge);
  return {
    name: node.name,
    kind: node.panel.kind,
    side: node.panel.side,
    hingeOrigin: at(0.5, hingeFraction) as [number, number, number],
    hingeAxis: [axis[0] / axisLength, axis[1] / axisLength, axis[2] / axisLength],
    chord: Math.hypot(chordVector[0], chordVector[1], chordVector[2]),
    farEdge: farEdge as [number, number, number],
  };
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
