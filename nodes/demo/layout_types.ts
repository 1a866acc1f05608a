/**
 * The vocabulary of the demo fighter's construction table: transforms, shapes, panel roles and
 * node records, with the two transform helpers the table is written with.
 *
 * @module
 */
import type { JsonValue } from "../../runtime/node.ts";
import type { Vec3 } from "./mesh_builder.ts";
import type { SlabSpec } from "./slab.ts";

/** A unit quaternion `[x, y, z, w]`. */
export type Quat = readonly [number, number, number, number];

/** A node's local transform. */
export interface Trs {
  /** Translation in the parent's space (m). */
  readonly translation: Vec3;
  /** Unit quaternion `[x, y, z, w]`. */
  readonly rotation: Quat;
  /** Per-axis scale; a negative X mirrors. */
  readonly scale: Vec3;
}

/** A shape, given in the space of the node's parent (its design frame). */
export type ShapeSpec =
  | { readonly type: "slab"; readonly slab: SlabSpec }
  | { readonly type: "box"; readonly min: Vec3; readonly max: Vec3 }
  | { readonly type: "cylinder"; readonly a: Vec3; readonly b: Vec3; readonly radius: number }
  | { readonly type: "ellipsoid"; readonly centre: Vec3; readonly radii: Vec3 }
  | { readonly type: "fuselage" };

/** The panel kinds the demo contains (the rig's vocabulary). */
export type PanelKind =
  | "aileron"
  | "flap"
  | "leading_edge_flap"
  | "spoiler"
  | "canard"
  | "stabilator"
  | "rudder"
  | "drag_rudder"
  | "air_brake";

/** Where a panel's true hinge is: its near edge at mid-thickness, or its quarter-chord line. */
export type HingeRule = "near_edge" | "quarter_chord";

/** What a control panel is, for the ground truth. */
export interface PanelRole {
  /** Surface kind, in the rig's vocabulary. */
  readonly kind: PanelKind;
  /** The aircraft side it is on (+X is right). */
  readonly side: "left" | "right" | "centre";
  /** Where its true hinge lies. */
  readonly hinge: HingeRule;
}

/** The surface materials of the demo. */
export type MaterialName = "structure" | "panel" | "canopy" | "detail";

/** Why a node is in the demo. */
export type NodeRole = "group" | "structure" | "panel" | "decoy" | "prerigged";

/** One node of the demo fighter. */
export interface LayoutNode {
  /** Node name in the scene (unique). */
  readonly name: string;
  /** Parent node name, or null for the scene's root node. */
  readonly parent: string | null;
  /** Local transform. */
  readonly trs: Trs;
  /** Why the node is there (panels, decoys and pre-rigged parts are listed in the truth). */
  readonly role: NodeRole;
  /** The node's geometry in its parent's space; the mesh stores it in the node's local space. */
  readonly shape?: ShapeSpec;
  /** Nodes with the same key share one mesh (the mirrored left wing instances the right's meshes). */
  readonly meshKey?: string;
  /** Surface material of the mesh. */
  readonly material?: MaterialName;
  /** Extras written on the node (the pre-rigged parts' `ctrl_type` fields). */
  readonly extras?: Readonly<Record<string, JsonValue>>;
  /** Set on control panels: what the truth reports about them. */
  readonly panel?: PanelRole;
}

export const IDENTITY: Trs = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };

/** A rotation of `degrees` about `axis` (normalised here). */
export function axisAngle(axis: Vec3, degrees: number): Quat {
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const half = (degrees * Math.PI) / 360;
  const s = Math.sin(half) / length;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(half)];
}

/**
 * The transform that mirrors `trs` through the YZ plane when put under the same (unmirrored) parent:
 * S·T·R·Sc = T(S·t)·R(S·q·S)·(S·Sc), with S = diag(−1, 1, 1).
 */
export function mirrorTrs(trs: Trs): Trs {
  const [x, y, z, w] = trs.rotation;
  return {
    translation: [-trs.translation[0], trs.translation[1], trs.translation[2]],
    rotation: [x, -y, -z, w],
    scale: [-trs.scale[0], trs.scale[1], trs.scale[2]],
  };
}
