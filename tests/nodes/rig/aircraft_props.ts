/**
 * Real aircraft whose parts carry words of other scenes, as their modellers name them: a seaplane's
 * `Float_L` and `Anchor`, a flying boat's `Boat_Hull`, a cargo plane's `Car_Ramp` and its gear's
 * `Truck_L` bogie, a rocket plane's `Stage_1` booster, a rescue helicopter's `Crane_Hook` and
 * `Spotlight`, an airship's `Engine_Car` and `Control_Car`, an airliner's `Upper_Deck`, `Airstairs`,
 * `Cabin_Curtain`, tray `Table`s, a pilot figure's `Torso` and `Forearm`, a `Scenery_Shadow` and a
 * livery's `Building_Lights`, a root named `Boeing_737_Ship`. Every panel here is an aircraft's.
 *
 * Real files often separate only some surfaces (the rest merged into the wing or tail), so a scene keeps
 * all of its panels or one or two kinds of them; its fixed parts are named (`Fuselage`, `Wing_L`) or left
 * as a tool's placeholders (`pCube3`, `Object_7`); it is grouped under its root or flat, the root's name
 * sometimes prefixed to its parts'. Deterministic from a seed; aircraft coordinates (aft, up, left).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { piecesAircraft } from "./surface_pieces.ts";

/** The kinds of aircraft drawn. */
export type PropAircraftKind =
  | "seaplane"
  | "flying_boat"
  | "cargo"
  | "rocket_plane"
  | "helicopter"
  | "airship"
  | "airliner";

/** Every kind of aircraft. */
export const PROP_AIRCRAFT_KINDS: readonly PropAircraftKind[] = [
  "seaplane",
  "flying_boat",
  "cargo",
  "rocket_plane",
  "helicopter",
  "airship",
  "airliner",
];

/** A scene drawn, and the panels the rig should find in it. */
export interface PropAircraft {
  readonly doc: Document;
  /** Node names of the panels, each with its kind. */
  readonly panels: ReadonlyMap<string, string>;
  readonly description: string;
}

type Box = readonly [name: string, min: readonly number[], max: readonly number[]];
type Pick = <T>(list: readonly T[]) => T;

/** Each aircraft's roots and its parts with other scenes' words, about the 14 m fuselage (x −4…10). */
const KINDS: Readonly<Record<PropAircraftKind, (pick: Pick) => { roots: string[]; parts: Box[] }>> = {
  seaplane: (pick) => ({
    roots: ["Seaplane", "DHC2_Beaver_Floats", "Cessna_Floatplane", "model"],
    parts: [
      [pick(["Float_L", "Pontoon_L", "Float_Left"]), [0, -2.2, 1.2], [6, -1.6, 1.8]],
      [pick(["Float_R", "Pontoon_R", "Float_Right"]), [0, -2.2, -1.8], [6, -1.6, -1.2]],
      [pick(["Anchor", "Anchor_Locker", "Boat_Anchor"]), [-3.5, -0.4, -0.1], [-3.2, -0.2, 0.1]],
      [pick(["Boat_Cleat", "Mooring_Cleat", "Cleat_L"]), [-3, -2.2, 1.4], [-2.8, -2.1, 1.6]],
    ],
  }),
  flying_boat: (pick) => ({
    roots: ["PBY_Catalina", "Short_Sunderland", "Flying_Boat", "Boat"],
    parts: [
      [pick(["Boat_Hull", "Hull_Boat", "Hull"]), [-4, -1.4, -0.7], [10, -0.4, 0.7]],
      [pick(["Wingtip_Float_L", "Float_L"]), [3.5, -1, 6], [4.5, -0.6, 6.4]],
      [pick(["Wingtip_Float_R", "Float_R"]), [3.5, -1, -6.4], [4.5, -0.6, -6]],
      [pick(["Bow_Anchor", "Anchor_Hatch"]), [-4.1, -0.6, -0.2], [-3.9, -0.3, 0.2]],
    ],
  }),
  cargo: (pick) => ({
    roots: ["C130_Hercules", "An124_Ruslan", "Cargo_Plane", "C17"],
    parts: [
      [pick(["Car_Ramp", "Vehicle_Ramp", "Truck_Ramp", "Cargo_Ramp_Car"]), [10, -0.5, -0.4], [12, -0.4, 0.4]],
      [pick(["Gear_Truck_L", "Truck_L", "Bogie_Truck_L"]), [3, -1.4, 0.3], [5, -0.5, 0.5]],
      [pick(["Gear_Truck_R", "Truck_R", "Bogie_Truck_R"]), [3, -1.4, -0.5], [5, -0.5, -0.3]],
      [pick(["Cargo_Deck", "Deck_Floor", "Cargo_Floor"]), [0, -0.45, -0.45], [9.5, -0.4, 0.45]],
      [pick(["Vehicle_Tiedown", "Cargo_Vehicle", "Jeep"]), [2, -0.4, -0.3], [4, 0.2, 0.3]],
    ],
  }),
  rocket_plane: (pick) => ({
    roots: ["X15", "Rocket_Plane", "Bell_X1", "Shuttle_Stack"],
    parts: [
      [pick(["Stage_1", "Booster_Stage", "Stage1_Booster", "First_Stage"]), [-2, -2.5, -0.6], [
        12,
        -1.3,
        0.6,
      ]],
      [pick(["Stage_2", "Upper_Stage", "Stage2"]), [-6, -0.4, -0.4], [-4, 0.4, 0.4]],
      [pick(["Interstage", "Stage_Adapter"]), [-4.1, -0.3, -0.3], [-3.9, 0.3, 0.3]],
    ],
  }),
  helicopter: (pick) => ({
    roots: ["SH3_SeaKing", "UH60_Blackhawk", "Rescue_Heli", "AW139"],
    parts: [
      [pick(["Crane_Hook", "Hoist_Crane", "Crane_Hoist"]), [1, -1.2, 0.5], [1.3, -0.5, 0.8]],
      [pick(["Spotlight", "Search_Spotlight", "Nightsun_Spotlight"]), [-3.5, -0.7, -0.1], [-3.2, -0.5, 0.1]],
      [pick(["Tail_Bumper", "Bumper", "Tail_Skid_Bumper"]), [9.5, -0.8, -0.05], [9.8, -0.5, 0.05]],
      [pick(["Pilot_Torso", "Torso", "Crew_Torso"]), [-2.5, -0.3, -0.2], [-2.1, 0.3, 0.2]],
      [pick(["Pilot_Forearm_L", "Forearm_L", "Arm_Forearm_L"]), [-2.7, -0.1, 0.15], [-2.4, 0, 0.25]],
      [pick(["Winch", "Rescue_Winch"]), [1, 0.3, 0.5], [1.4, 0.5, 0.7]],
    ],
  }),
  airship: (pick) => ({
    roots: ["Airship", "Air_Ship", "Zeppelin_LZ127", "Blimp_GoodYear"],
    parts: [
      [pick(["Envelope", "Hull", "Gas_Envelope"]), [-4, 0.5, -1.5], [10, 3.5, 1.5]],
      [pick(["Control_Car", "Gondola", "Control_Car_Gondola"]), [-1, -1, -0.5], [2, -0.5, 0.5]],
      [pick(["Engine_Car_L", "Power_Car_L", "Engine_Car_1"]), [3, -0.8, 1.5], [4.5, -0.3, 2]],
      [pick(["Engine_Car_R", "Power_Car_R", "Engine_Car_2"]), [3, -0.8, -2], [4.5, -0.3, -1.5]],
      [pick(["Mooring_Mast_Cone", "Nose_Cone_Mooring"]), [-4.3, 1.5, -0.3], [-4, 2.5, 0.3]],
    ],
  }),
  airliner: (pick) => ({
    roots: ["Boeing_737_Ship", "B747_400", "Airliner_A320", "ship_model"],
    parts: [
      [pick(["Upper_Deck", "Flight_Deck", "Main_Deck"]), [-3.5, 0.1, -0.45], [0, 0.45, 0.45]],
      [pick(["Airstairs", "Stairs", "Stair_Door"]), [-3, -1.4, 0.5], [-2, -0.5, 0.9]],
      [pick(["Cabin_Curtain", "Curtain_1", "Galley_Curtain"]), [0.5, -0.4, -0.4], [0.55, 0.4, 0.4]],
      [pick(["Tray_Table_12", "Table_Business_1", "Galley_Table"]), [2, -0.2, -0.3], [2.4, -0.15, 0]],
      [pick(["Scenery_Shadow", "Shadow_Plane"]), [-6, -2, -8], [12, -1.99, 8]],
      [pick(["Building_Lights", "Logo_Lights", "Taxi_Headlight"]), [8, 0.4, -0.1], [8.3, 0.5, 0.1]],
      [pick(["Pilot_Torso", "Captain_Torso"]), [-3.2, 0, 0.1], [-2.9, 0.35, 0.3]],
    ],
  }),
};

/** An aircraft of `kind` drawn from `seed`. */
export function propAircraft(seed: number, kind: PropAircraftKind): PropAircraft {
  const next = prng(seed * 37 + PROP_AIRCRAFT_KINDS.indexOf(kind));
  const pick: Pick = (list) => list[Math.floor(next() * list.length)];
  const doc = newScene();
  const { roots, parts } = KINDS[kind](pick);
  const root = pick(roots);
  const grouped = next() < 0.6;
  const holder: Node | undefined = grouped ? doc.createNode(root) : undefined;
  if (holder) doc.getRoot().getDefaultScene()!.addChild(holder);
  const prefix = grouped ? "" : pick(["", "", `${root}_`]);
  const placeholders = next() < 0.5;
  const aircraft = piecesAircraft(seed);
  // All the panels, or those of one or two kinds (the rest merged into the wing or the tail).
  const kinds = [...new Set(aircraft.panels.map((p) => p.kind))];
  const kept = next() < 0.5 ? kinds : kinds.sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * 2));
  aircraft.fixed.forEach(({ name, mesh }, k) => {
    // A tailplane whose elevators are merged into it is named apart from a stabilator's hint.
    const fixed = kept.includes("elevator") ? name : name.replace("Stabilizer", "HTail");
    const shown = placeholders ? ["pCube", "Object_", "Box0"][k % 3] + (k + 3) : fixed;
    addAircraftMesh(doc, `${prefix}${shown}`, mesh.positions, mesh.triangles, holder);
  });
  // The wing's root, joining the fuselage to the wing's fixed part as a real wing does.
  const wingRoots: Box[] = [
    [placeholders ? "pCube2" : "Wing_Root_L", [1.45, -0.3, 0.4], [5.05, 0.3, 1.5]],
    [placeholders ? "pCube1" : "Wing_Root_R", [1.45, -0.3, -1.5], [5.05, 0.3, -0.4]],
  ];
  for (const [name, min, max] of [...wingRoots, ...parts]) {
    const { positions, triangles } = boxMesh([min[0], min[1], min[2]], [max[0], max[1], max[2]]);
    addAircraftMesh(doc, `${prefix}${name}`, positions, triangles, holder);
  }
  const panels = new Map<string, string>();
  for (const panel of aircraft.panels.filter((p) => kept.includes(p.kind))) {
    addAircraftMesh(doc, `${prefix}${panel.name}`, panel.mesh.positions, panel.mesh.triangles, holder);
    panels.set(`${prefix}${panel.name}`, panel.kind);
  }
  return {
    doc,
    panels,
    description: `${kind} '${root}' (${grouped ? "grouped" : "flat"}, ${
      placeholders ? "placeholder" : "named"
    } structure, ${kept.join("+")}; ${parts.map(([n]) => n).join(", ")})`,
  };
}
