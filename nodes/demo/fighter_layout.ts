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
import {
  axisAngle,
  IDENTITY,
  type LayoutNode,
  type MaterialName,
  mirrorTrs,
  type NodeRole,
  type PanelRole,
  type ShapeSpec,
  type Trs,
} from "./layout_types.ts";
import {
  AIR_BRAKE_PROFILE,
  allMovingSlab,
  CANARD_PROFILE,
  DRAG_RUDDER_INNER_PROFILE,
  DRAG_RUDDER_OUTER_PROFILE,
  FIN_BOX_PROFILE,
  FIN_HINGE_FRACTION,
  finSlab,
  HORN_DEPTH,
  HORN_GAP,
  HORN_START_X,
  LEADING_FLAP_PROFILE,
  panelTrs,
  RUDDER_PROFILE,
  spoilerSlab,
  STABILATOR_PROFILE,
  TRAILING_PANEL_PROFILE,
  WING_BOX_PROFILE,
  WING_HINGE_FRACTION,
  WING_LEF_FRACTION,
  wingSlab,
  wingStation,
} from "./fighter_surfaces.ts";
import { fuselageBottomAt, fuselageTopAt } from "./fuselage.ts";
import type { SlabSpec } from "./slab.ts";
import type { JsonValue } from "../../runtime/node.ts";

export type { LayoutNode, MaterialName, ShapeSpec, Trs } from "./layout_types.ts";

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
