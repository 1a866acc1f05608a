/**
 * The construction parameters of the demo fighter: every node, its local transform, its shape (in its
 * parent's space) and, for control panels, what kind of surface it is and where its hinge lies. Both
 * the `demo.fighter` scene and its ground truth ({@link ./fighter_truth.ts}) are derived from this one
 * table, so the truth is exact by construction rather than fitted.
 *
 * Frame: −Z forward, +Y up, +X right, metres.
 *
 * @module
 */
import type { JsonValue } from "../../runtime/node.ts";
import type { Vec3 } from "./mesh_builder.ts";
import { fuselageBottomAt, fuselageTopAt } from "./fuselage.ts";
import { type ProfilePoint, slabPoint, type SlabSpec } from "./slab.ts";

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

const IDENTITY: Trs = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };

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

const symmetric = (points: readonly (readonly [number, number])[]): ProfilePoint[] =>
  points.map(([f, half]) => [f, -half, half]);

// Thickness profiles (m). Neighbouring parts share their edge thickness so the surfaces meet.
const WING_BOX_PROFILE = symmetric([[0, 0.035], [0.35, 0.055], [1, 0.03]]);
const TRAILING_PANEL_PROFILE = symmetric([[0, 0.03], [1, 0.003]]);
const LEADING_FLAP_PROFILE = symmetric([[0, 0.035], [1, 0.004]]);
const SPOILER_PROFILE = symmetric([[0, 0.006], [1, 0.002]]);
const FIN_BOX_PROFILE = symmetric([[0, 0.01], [0.35, 0.045], [1, 0.028]]);
const RUDDER_PROFILE = symmetric([[0, 0.028], [1, 0.003]]);
/** Clamshell halves: each is one skin of a split rudder, meeting the other on the fin's mid-plane. */
const DRAG_RUDDER_OUTER_PROFILE: ProfilePoint[] = [[0, 0, 0.004], [0.3, 0, 0.022], [1, 0, 0.003]];
const DRAG_RUDDER_INNER_PROFILE: ProfilePoint[] = DRAG_RUDDER_OUTER_PROFILE.map(([f, l, u]) => [f, -u, -l]);
const STABILATOR_PROFILE = symmetric([[0, 0.008], [0.3, 0.05], [1, 0.003]]);
const CANARD_PROFILE = symmetric([[0, 0.006], [0.3, 0.04], [1, 0.003]]);
const AIR_BRAKE_PROFILE = symmetric([[0, 0.02], [1, 0.005]]);

// Wing planform, in the wing group's frame: x outboard, z aft, mid-plane y = 0.
const wingLeadingEdge = (x: number) => -2.3 + 0.9 * x;
const wingChord = (x: number) => 4.9 - 0.7826 * x;
const wingStation = (x: number, fraction: number) => wingLeadingEdge(x) + fraction * wingChord(x);
const WING_HINGE_FRACTION = 0.78;
const WING_LEF_FRACTION = 0.14;
/** The aileron's horn balance: where it starts outboard, how far ahead of the hinge it reaches. */
const HORN_START_X = 4.2;
const HORN_DEPTH = 0.16;
const HORN_GAP = 0.01;

/**
 * A spoiler lying on the wing box's upper skin, from `x0` to `x1`: its mid-plane drops with the skin
 * from the hinge to the far edge, and its normal is square to that plane so the hinge face is too.
 */
function spoilerSlab(x0: number, x1: number): SlabSpec {
  const [near, far, nearHeight, farHeight] = [0.52, 0.74, 0.054, 0.0365];
  const x = (x0 + x1) / 2;
  const run = wingStation(x, far) - wingStation(x, near), drop = farHeight - nearHeight;
  const length = Math.hypot(run, drop);
  return {
    nearA: [x0, nearHeight, wingStation(x0, near)],
    nearB: [x1, nearHeight, wingStation(x1, near)],
    farA: [x0, farHeight, wingStation(x0, far)],
    farB: [x1, farHeight, wingStation(x1, far)],
    normal: [0, run / length, -drop / length],
    profile: SPOILER_PROFILE,
  };
}

/** A slab between two chord fractions of the wing, from `x0` to `x1`. */
function wingSlab(x0: number, x1: number, near: number, far: number, profile: ProfilePoint[]): SlabSpec {
  return {
    nearA: [x0, 0, wingStation(x0, near)],
    nearB: [x1, 0, wingStation(x1, near)],
    farA: [x0, 0, wingStation(x0, far)],
    farB: [x1, 0, wingStation(x1, far)],
    normal: [0, 1, 0],
    profile,
  };
}

// Fin planform, in a fin group's frame: y up the fin, z aft, mid-plane x = 0.
const finLeadingEdge = (y: number) => 0.95 * y;
const finChord = (y: number) => 3.2 - 0.85 * y;
const finStation = (y: number, fraction: number) => finLeadingEdge(y) + fraction * finChord(y);
const FIN_HINGE_FRACTION = 0.7;

/** A slab between two chord fractions of a fin; `outward` is +1 for the right fin, −1 for the left. */
function finSlab(
  y0: number,
  y1: number,
  near: number,
  far: number,
  profile: ProfilePoint[],
  outward: number,
): SlabSpec {
  return {
    nearA: [0, y0, finStation(y0, near)],
    nearB: [0, y1, finStation(y1, near)],
    farA: [0, y0, finStation(y0, far)],
    farB: [0, y1, finStation(y1, far)],
    normal: [outward, 0, 0],
    profile,
  };
}

/**
 * An all-moving surface whose quarter-chord line is straight and lateral (leading edge swept back,
 * trailing edge swept forward), so "pivot near quarter chord" names one line at every station.
 * `dihedral` in degrees; `sign` +1 builds the right surface, −1 the left.
 */
function allMovingSlab(
  rootX: number,
  tipX: number,
  rootChord: number,
  tipChord: number,
  dihedral: number,
  sign: number,
  profile: ProfilePoint[],
): SlabSpec {
  const slope = Math.tan((dihedral * Math.PI) / 180);
  const rise = (tipX - rootX) * slope;
  const normalLength = Math.hypot(slope, 1);
  return {
    nearA: [sign * rootX, 0, -0.25 * rootChord],
    nearB: [sign * tipX, rise, -0.25 * tipChord],
    farA: [sign * rootX, 0, 0.75 * rootChord],
    farB: [sign * tipX, rise, 0.75 * tipChord],
    normal: [(-sign * slope) / normalLength, 1 / normalLength, 0],
    profile,
  };
}

/**
 * A panel's own local transform: deliberately neither identity nor aligned with its hinge, so a
 * hinge fit has to go through the node's transform. Varies with `index` so no two panels match.
 * With `atParentOrigin` the node sits on its parent's origin (as exporters that leave every origin
 * at the model origin do), so its origin says nothing about where the panel is.
 */
function panelTrs(slab: SlabSpec, index: number, atParentOrigin: boolean): Trs {
  const anchor = slabPoint(slab, 0.5, 0.3, 0);
  return {
    translation: atParentOrigin ? [0, 0, 0] : [anchor[0] + 0.04, anchor[1] - 0.03, anchor[2] + 0.05],
    rotation: axisAngle([0.3, 1, 0.2 + 0.05 * index], 9 + 5 * (index % 7)),
    scale: [1, 1, 1],
  };
}

const WING_R_TRS: Trs = {
  translation: [0.75, -0.2, 0],
  rotation: axisAngle([0, 0, 1], -3),
  scale: [1, 1, 1],
};

/** Builds the demo fighter's node table (parents always precede their children). */
export function fighterLayout(): LayoutNode[] {
  const nodes: LayoutNode[] = [];
  let panelIndex = 0;
  const panel = (
    name: string,
    parent: string,
    slab: SlabSpec,
    role: PanelRole,
    atParentOrigin = false,
  ): LayoutNode => {
    const node: LayoutNode = {
      name,
      parent,
      trs: panelTrs(slab, panelIndex++, atParentOrigin),
      role: "panel",
      shape: { type: "slab", slab },
      meshKey: name,
      material: "panel",
      panel: role,
    };
    nodes.push(node);
    return node;
  };
  const mesh = (
    name: string,
    parent: string | null,
    role: NodeRole,
    shape: ShapeSpec,
    material: MaterialName,
    trs: Trs = IDENTITY,
    extras?: Record<string, JsonValue>,
  ): LayoutNode => {
    const node: LayoutNode = { name, parent, trs, role, shape, meshKey: name, material, extras };
    nodes.push(node);
    return node;
  };
  const group = (name: string, parent: string | null, trs: Trs, extras?: Record<string, JsonValue>) =>
    nodes.push({ name, parent, trs, role: extras ? "prerigged" : "group", extras });

  group("Fighter", null, IDENTITY);
  mesh("Fuselage", "Fighter", "structure", { type: "fuselage" }, "structure");

  // Right wing; the left wing below instances these meshes under a mirroring parent.
  group("Wing_R", "Fighter", WING_R_TRS);
  const wingBox = mesh(
    "WingBox_R",
    "Wing_R",
    "structure",
    {
      type: "slab",
      slab: wingSlab(0, HORN_START_X, WING_LEF_FRACTION, WING_HINGE_FRACTION, WING_BOX_PROFILE),
    },
    "structure",
  );
  // Outboard of the horn's start the wing box stops short of the hinge, leaving the horn its notch.
  const tipBox = wingSlab(HORN_START_X, 4.6, WING_LEF_FRACTION, WING_HINGE_FRACTION, WING_BOX_PROFILE);
  const wingTip = mesh("WingTip_R", "Wing_R", "structure", {
    type: "slab",
    slab: {
      ...tipBox,
      farA: [tipBox.farA[0], 0, tipBox.farA[2] - HORN_DEPTH - HORN_GAP],
      farB: [tipBox.farB[0], 0, tipBox.farB[2] - HORN_DEPTH - HORN_GAP],
    },
  }, "structure");
  const hornFrom = (HORN_START_X - 2.36) / (4.45 - 2.36);
  const aileron = panel(
    "Flight_Aileron_R",
    "Wing_R",
    {
      ...wingSlab(2.36, 4.45, WING_HINGE_FRACTION, 1, TRAILING_PANEL_PROFILE),
      horn: { fromSpan: hornFrom, depth: HORN_DEPTH, overlap: 0.06 },
    },
    { kind: "aileron", side: "right", hinge: "near_edge" },
  );
  const flap = panel(
    "flap_rh",
    "Wing_R",
    wingSlab(0.4, 2.3, WING_HINGE_FRACTION, 1, TRAILING_PANEL_PROFILE),
    {
      kind: "flap",
      side: "right",
      hinge: "near_edge",
    },
  );
  const lef = panel("lef_r", "Wing_R", wingSlab(0.35, 4.5, WING_LEF_FRACTION, 0, LEADING_FLAP_PROFILE), {
    kind: "leading_edge_flap",
    side: "right",
    hinge: "near_edge",
  });
  const spoiler1 = panel("Spoiler_R_1", "Wing_R", spoilerSlab(0.55, 1.35), {
    kind: "spoiler",
    side: "right",
    hinge: "near_edge",
  });
  const spoiler2 = panel("Spoiler_R_2", "Wing_R", spoilerSlab(1.4, 2.2), {
    kind: "spoiler",
    side: "right",
    hinge: "near_edge",
  });
  const flapTrack = mesh(
    "Flap_Track_1",
    "Wing_R",
    "decoy",
    {
      type: "box",
      min: [1.25, -0.16, wingStation(1.3, 0.6)],
      max: [1.35, -0.03, wingStation(1.3, 1) + 0.25],
    },
    "detail",
  );
  const actuatorZ = wingStation(3.2, WING_HINGE_FRACTION);
  mesh(
    "Aileron_Actuator_R",
    "Wing_R",
    "decoy",
    { type: "cylinder", a: [3.2, -0.06, actuatorZ - 0.35], b: [3.2, -0.06, actuatorZ + 0.05], radius: 0.025 },
    "detail",
  );

  // Left wing: same meshes and local transforms, under a parent with scale (−1, 1, 1).
  group("Wing_L", "Fighter", mirrorTrs(WING_R_TRS));
  const mirrored = (source: LayoutNode, name: string, side?: PanelRole["side"]) =>
    nodes.push({
      ...source,
      name,
      parent: "Wing_L",
      meshKey: source.meshKey,
      panel: source.panel && side ? { ...source.panel, side } : source.panel,
    });
  mirrored(wingBox, "WingBox_L");
  mirrored(wingTip, "WingTip_L");
  mirrored(aileron, "LeftAileron", "left");
  mirrored(flap, "Flap.L", "left");
  mirrored(lef, "LEFlap_L", "left");
  mirrored(spoiler1, "Spoiler_L_1", "left");
  mirrored(spoiler2, "Spoiler_L_2", "left");
  mirrored(flapTrack, "Flap_Track_2");

  // Canards: all-moving, under a non-uniformly scaled (and slightly pitched) parent.
  group("Canards", "Fighter", {
    translation: [0, 0.2, -4.3],
    rotation: axisAngle([1, 0, 0], 3),
    scale: [1.15, 0.85, 1],
  });
  panel("Canard_R", "Canards", allMovingSlab(0.55, 1.9, 1.4, 0.6, 5, 1, CANARD_PROFILE), {
    kind: "canard",
    side: "right",
    hinge: "quarter_chord",
  });
  panel("CanardLeft", "Canards", allMovingSlab(0.55, 1.9, 1.4, 0.6, 5, -1, CANARD_PROFILE), {
    kind: "canard",
    side: "left",
    hinge: "quarter_chord",
  });

  // Stabilators: all-moving tailplanes with anhedral, each built explicitly (no mirroring parent).
  group("Tail", "Fighter", { translation: [0, -0.05, 5.5], rotation: [0, 0, 0, 1], scale: [1, 1, 1] });
  panel("Stabilator_Stbd", "Tail", allMovingSlab(1.0, 3.4, 2.2, 0.8, -5, 1, STABILATOR_PROFILE), {
    kind: "stabilator",
    side: "right",
    hinge: "quarter_chord",
  });
  // No side in the name, and its node sits on the centre line: only its geometry tells the side.
  panel("Stabilator.001", "Tail", allMovingSlab(1.0, 3.4, 2.2, 0.8, -5, -1, STABILATOR_PROFILE), {
    kind: "stabilator",
    side: "left",
    hinge: "quarter_chord",
  }, true);

  // Twin vertical fins canted outboard by 22°, each with a rudder above a split drag rudder.
  for (const [side, sign] of [["right", 1], ["left", -1]] as const) {
    const fin = sign > 0 ? "Fin_R" : "Fin_L";
    group(fin, "Fighter", {
      translation: [0.78 * sign, 0.5, 3.3],
      rotation: axisAngle([0, 0, 1], -22 * sign),
      scale: [1, 1, 1],
    });
    mesh(
      sign > 0 ? "FinBox_R" : "FinBox_L",
      fin,
      "structure",
      { type: "slab", slab: finSlab(0, 2.4, 0, FIN_HINGE_FRACTION, FIN_BOX_PROFILE, sign) },
      "structure",
    );
    panel(
      sign > 0 ? "rud_r" : "Rudder",
      fin,
      finSlab(1.15, 2.3, FIN_HINGE_FRACTION, 1, RUDDER_PROFILE, sign),
      { kind: "rudder", side, hinge: "near_edge" },
    );
    panel(
      sign > 0 ? "DragRudder_R_Outer" : "DragRudder.L.Outer",
      fin,
      finSlab(0.3, 1.1, FIN_HINGE_FRACTION, 1, DRAG_RUDDER_OUTER_PROFILE, sign),
      { kind: "drag_rudder", side, hinge: "near_edge" },
    );
    panel(
      sign > 0 ? "drag_rudder_r_inner" : "DragRudder.L.Inner",
      fin,
      finSlab(0.3, 1.1, FIN_HINGE_FRACTION, 1, DRAG_RUDDER_INNER_PROFILE, sign),
      { kind: "drag_rudder", side, hinge: "near_edge" },
    );
  }

  // Dorsal air brake: near-square (0.84 m span × 0.9 m chord), hinged at its forward edge.
  const brakeNearY = fuselageTopAt(1.4) + 0.035;
  const brakeFarY = fuselageTopAt(2.3) + 0.02;
  const brakeRise = brakeFarY - brakeNearY;
  const brakeNormalLength = Math.hypot(0.9, brakeRise);
  panel(
    "SpeedBrake",
    "Fighter",
    {
      nearA: [-0.42, brakeNearY, 1.4],
      nearB: [0.42, brakeNearY, 1.4],
      farA: [-0.42, brakeFarY, 2.3],
      farB: [0.42, brakeFarY, 2.3],
      normal: [0, 0.9 / brakeNormalLength, -brakeRise / brakeNormalLength],
      profile: AIR_BRAKE_PROFILE,
    },
    { kind: "air_brake", side: "centre", hinge: "near_edge" },
  );

  // Pre-rigged parts: author-declared `ctrl_type`, hinge along their local X.
  group("Canopy", "Fighter", {
    translation: [0, fuselageTopAt(-3.9), -3.9],
    rotation: axisAngle([1, 0, 0], 4),
    scale: [1, 1, 1],
  }, {
    ctrl_type: "rotation",
    axis: "X",
    unit: "deg",
    min: 0,
    max: 35,
    rest: 0,
    group: "canopy",
    positive: "open",
  });
  mesh("Canopy_Glass", "Canopy", "structure", {
    type: "ellipsoid",
    centre: [0, 0.02, -1.15],
    radii: [0.44, 0.34, 1.2],
  }, "canopy");
  const doorY = fuselageBottomAt(-5.7);
  mesh(
    "GearDoor_Nose",
    "Fighter",
    "prerigged",
    { type: "box", min: [-0.17, doorY - 0.022, -6.2], max: [0.17, doorY - 0.002, -5.2] },
    "structure",
    // Local X along world +Z: the door hinges on its right edge, fore and aft.
    { translation: [0.17, doorY - 0.012, -5.7], rotation: axisAngle([0, 1, 0], -90), scale: [1, 1, 1] },
    {
      ctrl_type: "rotation",
      axis: "X",
      unit: "deg",
      min: 0,
      max: 95,
      rest: 0,
      group: "gear_doors",
      positive: "open",
    },
  );

  // Decoys: names that mention panel words but are fixed structure or cockpit controls.
  mesh("MainGear_Bay_L", "Fighter", "decoy", {
    type: "box",
    min: [-0.95, -0.82, -0.8],
    max: [-0.45, -0.55, 1.2],
  }, "detail");
  mesh("RudderPedal_L", "Fighter", "decoy", {
    type: "box",
    min: [-0.2, -0.15, -6.45],
    max: [-0.1, -0.05, -6.35],
  }, "detail");
  mesh("Flap_Lever", "Fighter", "decoy", {
    type: "cylinder",
    a: [-0.4, 0.05, -5.3],
    b: [-0.4, 0.25, -5.25],
    radius: 0.015,
  }, "detail");
  mesh("Elevator_Trim_Wheel", "Fighter", "decoy", {
    type: "cylinder",
    a: [-0.45, 0.1, -5.0],
    b: [-0.41, 0.1, -5.0],
    radius: 0.06,
  }, "detail");
  mesh(
    "CowlFlap_1",
    "Fighter",
    "decoy",
    { type: "box", min: [0.25, 0.48, 6.6], max: [0.5, 0.52, 6.95] },
    "detail",
  );
  return nodes;
}
