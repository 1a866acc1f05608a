/**
 * Scenes that are no aircraft, made of English words the rig reads as control surfaces, laid out as
 * their modellers and tools lay them out — and aircraft scenes holding such props:
 *
 * - a car (`Rear_Spoiler`, `Spoiler_Lip`, a French bodykit's `Aileron_Arriere`), a building's lift
 *   (`Elevator`, `Elevator_Door_L`, `Elevator_Cab`), a ship (`Ship_Rudder`, `Rudder_Post`), a sailboat
 *   (`Rudder`, `Keel`, `Boom`, `Jib`), a powerboat's `Trim_Tab_L`, a crane (`Boom`, `Jib`), a robot's
 *   `Flap_Arm`, a tent's `Flap`, a theatre's `Flaps`, a writing desk's `Desk_Flap`;
 * - a level file of several such props, flat;
 * - an airport (an aircraft with a car parked beside it and a terminal's lift) and a carrier (a ship
 *   with deck elevators, its rudder, and an aircraft on its deck, under the deck's node or beside it).
 *
 * Each object is either a group holding its parts (Blender's parent empty, an FBX group) or flat at the
 * scene's root (OBJ groups, a level export), its parts' names written plain or prefixed with the
 * object's (`Car_Rear_Spoiler`, `SM_Car_Body`), with Blender's `.001` and Maya's `_geo` sometimes.
 * The aircraft's fixed parts are named as they come (`Fuselage`, `Wing_L`) or by a tool's
 * placeholders (`pCube3`, `Object_7`). Deterministic from a seed; aircraft coordinates (aft, up, left).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { piecesAircraft } from "./surface_pieces.ts";

/** The kinds of scene drawn. */
export type DecoyKind =
  | "car"
  | "building"
  | "ship"
  | "sailboat"
  | "powerboat"
  | "crane"
  | "robot"
  | "tent"
  | "theatre"
  | "furniture"
  | "level"
  | "airport"
  | "carrier";

/** Every kind of scene. */
export const DECOY_KINDS: readonly DecoyKind[] = [
  "car",
  "building",
  "ship",
  "sailboat",
  "powerboat",
  "crane",
  "robot",
  "tent",
  "theatre",
  "furniture",
  "level",
  "airport",
  "carrier",
];

/** A scene drawn, and what the rig should make of it. */
export interface DecoyScene {
  readonly doc: Document;
  /** Node names of the aircraft's panels, each with its kind: these must be rigged. */
  readonly panels: ReadonlyMap<string, string>;
  readonly description: string;
}

type Box = readonly [name: string, min: readonly number[], max: readonly number[]];

/** A prop: its object's name and its parts as boxes (aft, up, left; metres, about its own origin). */
interface Prop {
  readonly object: string;
  readonly parts: readonly Box[];
}

type Pick = <T>(list: readonly T[]) => T;

/** A car 4.4 m long: body, wheels, lights, and its spoilers named as car modellers name them. */
function car(pick: Pick): Prop {
  const spoiler = pick([
    "Rear_Spoiler",
    "Spoiler",
    "RearSpoiler",
    "Aileron_Arriere",
    "Aileron",
    "Wing_Spoiler",
  ]);
  return {
    object: pick(["Car", "Sedan", "Vehicle_01", "car_body_grp", "Porsche_911"]),
    parts: [
      ["Body", [-2.2, 0.3, -0.9], [2.2, 1.3, 0.9]],
      ["Wheel_FL", [-1.6, 0, 0.75], [-1, 0.6, 0.95]],
      ["Wheel_FR", [-1.6, 0, -0.95], [-1, 0.6, -0.75]],
      ["Wheel_RL", [1, 0, 0.75], [1.6, 0.6, 0.95]],
      ["Wheel_RR", [1, 0, -0.95], [1.6, 0.6, -0.75]],
      [pick(["Headlight_L", "Head_Light_L", "headlamp_l"]), [-2.25, 0.8, 0.5], [-2.2, 0.9, 0.8]],
      [pick(["Bumper_Front", "Front_Bumper", "bumper_f"]), [-2.3, 0.3, -0.9], [-2.2, 0.6, 0.9]],
      [spoiler, [1.8, 1.3, -0.8], [2.2, 1.4, 0.8]],
      [pick(["Spoiler_Lip", "Front_Lip_Spoiler", "Splitter"]), [-2.35, 0.25, -0.8], [-2.2, 0.3, 0.8]],
      ["Windshield", [-1, 1.0, -0.8], [-0.5, 1.3, 0.8]],
    ],
  };
}

/** A three-storey building with a lift: cab, doors, buttons. */
function building(pick: Pick): Prop {
  const lift = pick(["Elevator", "Elevator_01", "elevator"]);
  return {
    object: pick(["Building", "Office_Block", "Apartment_A", "bldg_01"]),
    parts: [
      ["Floor_1", [0, 0, 0], [12, 0.3, 10]],
      ["Floor_2", [0, 3, 0], [12, 3.3, 10]],
      ["Walls", [0, 0, 0], [12, 9, 0.2]],
      ["Stairs", [8, 0, 6], [11, 3, 8]],
      [lift, [4, 0.3, 4], [6, 2.6, 6]],
      [`${lift}_Door_L`, [3.95, 0.3, 4.9], [4, 2.4, 5.5]],
      [`${lift}_Door_R`, [3.95, 0.3, 4.3], [4, 2.4, 4.9]],
      [pick(["Elevator_Cab", "ElevatorCab", "Elevator_Car"]), [4.1, 0.3, 4.1], [5.9, 2.5, 5.9]],
      [pick(["Lobby_Desk", "Reception"]), [1, 0.3, 1], [2.5, 1.3, 3]],
    ],
  };
}

/** A small cargo ship, 40 m: its rudder on its post, its screw. */
function ship(pick: Pick): Prop {
  return {
    object: pick(["Ship", "Cargo_Ship", "Tugboat", "vessel_01"]),
    parts: [
      ["Hull", [-20, -3, -5], [20, 2, 5]],
      ["Deck", [-20, 2, -5], [20, 2.2, 5]],
      ["Bridge", [10, 2.2, -3], [15, 7, 3]],
      ["Funnel", [14, 7, -1], [16, 10, 1]],
      [pick(["Ship_Rudder", "Rudder", "rudder_geo"]), [20.2, -2.8, -0.15], [22, 0, 0.15]],
      ["Rudder_Post", [20, -3, -0.1], [20.2, 0.5, 0.1]],
      ["Anchor", [-19, 0, 4.9], [-18, 1, 5.1]],
    ],
  };
}

/** A sailboat, 8 m: a rudder that turns about its post, keel, mast, boom, sails. */
function sailboat(pick: Pick): Prop {
  return {
    object: pick(["Sailboat", "Yacht", "sloop", "Boat"]),
    parts: [
      ["Hull", [-4, -0.5, -1.3], [4, 0.8, 1.3]],
      ["Keel", [-0.5, -2, -0.1], [0.8, -0.5, 0.1]],
      [pick(["Rudder", "Rudder_Blade", "rudder"]), [3.4, -1.5, -0.05], [4, -0.3, 0.05]],
      ["Tiller", [3, 0.8, -0.05], [4, 0.9, 0.05]],
      ["Mast", [-1, 0.8, -0.08], [-0.85, 11, 0.08]],
      ["Boom", [-0.85, 1.8, -0.06], [3, 1.95, 0.06]],
      ["Mainsail", [-0.85, 1.95, -0.01], [3, 10.5, 0.01]],
      ["Jib", [-4, 1, -0.01], [-1, 9, 0.01]],
    ],
  };
}

/** A powerboat, 6 m, with the trim tabs on its transom. */
function powerboat(pick: Pick): Prop {
  return {
    object: pick(["Speedboat", "Powerboat", "Boat", "bowrider"]),
    parts: [
      ["Hull", [-3, -0.4, -1.1], [3, 0.7, 1.1]],
      ["Windshield", [-1, 0.7, -1], [-0.8, 1.2, 1]],
      ["Seat", [0, 0.7, -0.5], [0.6, 1.1, 0.5]],
      ["Outboard_Motor", [3, -0.6, -0.25], [3.5, 0.9, 0.25]],
      [pick(["Trim_Tab_L", "TrimTab_Port", "trim_tab_l"]), [3, -0.45, 0.4], [3.3, -0.4, 0.9]],
      [pick(["Trim_Tab_R", "TrimTab_Stbd", "trim_tab_r"]), [3, -0.45, -0.9], [3.3, -0.4, -0.4]],
    ],
  };
}

/** A tower crane: its boom or jib, counter-jib, trolley and hook. */
function crane(pick: Pick): Prop {
  return {
    object: pick(["Crane", "Tower_Crane", "crane_01"]),
    parts: [
      ["Base", [-2, 0, -2], [2, 1, 2]],
      ["Tower", [-0.8, 1, -0.8], [0.8, 30, 0.8]],
      ["Cab", [-1, 30, -1], [1, 32, 1]],
      [pick(["Boom", "Jib"]), [-30, 30, -0.6], [0, 31, 0.6]],
      [pick(["Counter_Jib", "CounterJib"]), [0, 30, -0.6], [10, 31, 0.6]],
      ["Counterweight", [8, 28, -1], [10, 30, 1]],
      ["Trolley", [-20, 29.5, -0.7], [-19, 30, 0.7]],
      ["Hook", [-19.8, 20, -0.2], [-19.2, 21, 0.2]],
    ],
  };
}

/** An industrial robot whose gripper rides a `Flap_Arm`. */
function robot(pick: Pick): Prop {
  return {
    object: pick(["Robot", "RobotArm", "KUKA_KR6", "robot_rig"]),
    parts: [
      ["Base", [-0.4, 0, -0.4], [0.4, 0.3, 0.4]],
      ["Shoulder", [-0.2, 0.3, -0.2], [0.2, 0.7, 0.2]],
      [pick(["Flap_Arm", "FlapArm", "Arm_Flap"]), [-0.1, 0.7, -0.1], [0.9, 0.85, 0.1]],
      [pick(["Flap", "Flap_Joint"]), [0.9, 0.7, -0.1], [1.05, 0.9, 0.1]],
      ["Gripper_L", [1.05, 0.7, 0], [1.25, 0.8, 0.05]],
      ["Gripper_R", [1.05, 0.7, -0.05], [1.25, 0.8, 0]],
    ],
  };
}

/** A camping tent with its door flap. */
function tent(pick: Pick): Prop {
  return {
    object: pick(["Tent", "Camp_Tent", "tent_2p"]),
    parts: [
      ["Tent_Body", [-1.2, 0, -1], [1.2, 1.3, 1]],
      [pick(["Flap", "Door_Flap", "flap"]), [-1.25, 0, -0.5], [-1.2, 1.2, 0.5]],
      ["Pole_1", [-1.3, 0, -0.02], [-1.26, 1.4, 0.02]],
      ["Pole_2", [1.26, 0, -0.02], [1.3, 1.4, 0.02]],
      ["Peg_1", [-1.5, -0.2, 1], [-1.45, 0, 1.05]],
      ["Guy_Rope", [-1.5, 0, 1], [-1.3, 1.4, 1.02]],
    ],
  };
}

/** A theatre's stage with its flaps (the scenery hung in the fly tower) and curtains. */
function theatre(pick: Pick): Prop {
  return {
    object: pick(["Theatre", "Theater_Stage", "stage_set"]),
    parts: [
      ["Stage", [0, 0, -8], [8, 1, 8]],
      ["Proscenium", [0, 1, -8], [0.5, 8, 8]],
      ["Curtain_L", [0.5, 1, 5], [0.6, 7, 8]],
      ["Curtain_R", [0.5, 1, -8], [0.6, 7, -5]],
      [pick(["Flaps", "Flap_1", "Scenery_Flaps"]), [3, 5, -6], [3.05, 9, 6]],
      ["Spotlight", [6, 8, 0], [6.4, 8.4, 0.4]],
    ],
  };
}

/** A writing desk whose fall front is its flap, beside a chair and a drawer. */
function furniture(pick: Pick): Prop {
  return {
    object: pick(["Desk", "Writing_Desk", "Secretaire", "furniture_set"]),
    parts: [
      ["Desk_Body", [0, 0, 0], [0.5, 1.1, 1]],
      [pick(["Desk_Flap", "Flap", "Fall_Front_Flap"]), [-0.02, 0.6, 0.05], [0, 1.05, 0.95]],
      ["Drawer_1", [0, 0.1, 0.05], [0.45, 0.3, 0.95]],
      ["Chair", [-0.8, 0, 0.2], [-0.3, 0.9, 0.7]],
      ["Table_Leg", [0, 0, 0], [0.05, 0.6, 0.05]],
    ],
  };
}

const PROPS: Readonly<Record<string, (pick: Pick) => Prop>> = {
  car,
  building,
  ship,
  sailboat,
  powerboat,
  crane,
  robot,
  tent,
  theatre,
  furniture,
};

/** How an object's parts are laid out and named. */
interface Layout {
  readonly grouped: boolean;
  readonly prefix: string;
  readonly suffix: string;
}

function layout(next: () => number, pick: Pick, object: string): Layout {
  const grouped = next() < 0.55;
  const prefix = grouped
    ? pick(["", "", `${object}_`])
    : pick(["", `${object}_`, `SM_${object}_`, `${object.toLowerCase()}:`]);
  return { grouped, prefix, suffix: pick(["", "", ".001", "_geo"]) };
}

/** Adds `prop` at `at` (aft, up, left), under `parent` or the root, laid out by `how`. */
function addProp(doc: Document, prop: Prop, at: readonly number[], how: Layout, parent?: Node): void {
  let holder = parent;
  if (how.grouped) {
    holder = doc.createNode(prop.object);
    if (parent) parent.addChild(holder);
    else doc.getRoot().getDefaultScene()!.addChild(holder);
  }
  for (const [name, min, max] of prop.parts) {
    const { positions, triangles } = boxMesh(
      [min[0] + at[0], min[1] + at[1], min[2] + at[2]],
      [max[0] + at[0], max[1] + at[1], max[2] + at[2]],
    );
    addAircraftMesh(doc, `${how.prefix}${name}${how.suffix}`, positions, triangles, holder);
  }
}

/** Adds `piecesAircraft(seed)` at `at`, grouped or flat, its fixed parts named or placeholders. */
function addAircraft(
  doc: Document,
  next: () => number,
  pick: Pick,
  seed: number,
  at: readonly number[],
  parent?: Node,
): Map<string, string> {
  const aircraft = piecesAircraft(seed);
  let holder = parent;
  if (next() < 0.6) {
    holder = doc.createNode(pick(["Aircraft", "F18_Hornet", "Cessna_172", "Plane", "Spitfire_Mk1", "model"]));
    if (parent) parent.addChild(holder);
    else doc.getRoot().getDefaultScene()!.addChild(holder);
  }
  const placeholders = next() < 0.4;
  const moved = (p: ArrayLike<number>) => Array.from(p, (v, i) => v + at[i % 3]);
  aircraft.fixed.forEach(({ name, mesh }, k) => {
    const shown = placeholders ? ["pCube", "Object_", "Box0"][k % 3] + (k + 3) : name;
    addAircraftMesh(doc, shown, moved(mesh.positions), mesh.triangles, holder);
  });
  const panels = new Map<string, string>();
  for (const panel of aircraft.panels) {
    addAircraftMesh(doc, panel.name, moved(panel.mesh.positions), panel.mesh.triangles, holder);
    panels.set(panel.name, panel.kind);
  }
  return panels;
}

/** A scene of `kind` drawn from `seed`. */
export function decoyScene(seed: number, kind: DecoyKind): DecoyScene {
  const next = prng(seed * 31 + DECOY_KINDS.indexOf(kind));
  const pick: Pick = (list) => list[Math.floor(next() * list.length)];
  const doc = newScene();
  const place = (make: (pick: Pick) => Prop, at: readonly number[], parent?: Node) => {
    const prop = make(pick);
    addProp(doc, prop, at, layout(next, pick, prop.object), parent);
    return prop.object;
  };
  if (kind === "level") {
    const chosen = [...Object.keys(PROPS)].sort(() => next() - 0.5).slice(0, 3 + Math.floor(next() * 3));
    const objects = chosen.map((name, i) => place(PROPS[name], [i * 60, 0, 0]));
    return { doc, panels: new Map(), description: `level of ${objects.join(", ")}` };
  }
  if (kind === "airport") {
    const panels = addAircraft(doc, next, pick, seed, [0, 0, 0]);
    const props = [place(car, [pick([-12, 18]), 0, pick([-9, 9])])];
    if (next() < 0.5) props.push(place(building, [30, 0, 20]));
    return { doc, panels, description: `airport: aircraft beside ${props.join(", ")}` };
  }
  if (kind === "carrier") {
    return carrierScene(doc, next, pick, seed);
  }
  const object = place(PROPS[kind], [0, 0, 0]);
  return { doc, panels: new Map(), description: `${kind} '${object}'` };
}

/** A carrier: hull, deck, island, deck lifts, its rudder and screws, and an aircraft on deck. */
function carrierScene(doc: Document, next: () => number, pick: Pick, seed: number): DecoyScene {
  const grouped = next() < 0.6;
  const holder = grouped
    ? doc.createNode(pick(["Carrier", "CVN_68", "Aircraft_Carrier", "ship"]))
    : undefined;
  if (holder) doc.getRoot().getDefaultScene()!.addChild(holder);
  let deckNode: Node | undefined;
  const parts: Box[] = [
    ["Hull", [-80, -12, -15], [80, 8, 15]],
    ["Flight_Deck", [-85, 8, -20], [85, 9, 20]],
    ["Island", [10, 9, -20], [30, 25, -14]],
    [pick(["Deck_Elevator_1", "Elevator_1", "Lift_1"]), [0, 8.5, 20], [12, 9, 30]],
    [pick(["Deck_Elevator_2", "Elevator_2", "Lift_2"]), [30, 8.5, 20], [42, 9, 30]],
    [pick(["Ship_Rudder", "Rudder_Port", "Rudder_L"]), [80, -11, 3], [86, -3, 3.5]],
    [pick(["Ship_Rudder_2", "Rudder_Stbd", "Rudder_R"]), [80, -11, -3.5], [86, -3, -3]],
    ["Rudder_Post", [79.5, -12, 3], [80, -2, 3.5]],
  ];
  for (const [name, min, max] of parts) {
    const { positions, triangles } = boxMesh([min[0], min[1], min[2]], [max[0], max[1], max[2]]);
    const node = addAircraftMesh(doc, name, positions, triangles, holder);
    if (name === "Flight_Deck") deckNode = node;
  }
  // The aircraft parked on deck: under the deck's node (as a scene graph places it), or beside.
  const under = grouped && next() < 0.5 ? deckNode : holder;
  const panels = addAircraft(doc, next, pick, seed, [-40, 10, 0], under);
  return {
    doc,
    panels,
    description: `carrier (${grouped ? "grouped" : "flat"}, aircraft ${
      under === deckNode ? "under the deck" : "beside"
    })`,
  };
}
