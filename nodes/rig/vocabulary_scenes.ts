/**
 * Words that tell what a scene or an object is, for name search to tell an aircraft's surfaces from
 * things of other scenes that share their words (a car's `Rear_Spoiler`, a building's `Elevator`, a
 * ship's or a sailboat's `Rudder`, a tent's `Flap`). Read by `scene_setting.ts`.
 *
 * @module
 */
import { AIRCRAFT_TOKENS } from "./vocabulary_words.ts";

/**
 * Words an aircraft model never holds, each with what it tells: a car, a building, a ship or boat, a
 * crane, a robot, a tent, a theatre, furniture. Words both hold are none of them: `Door`, `Wheel`, `Seat`,
 * `Window`, `Windshield`, a carrier aircraft's `Hook`, `Exhaust`, a cabin's `Floor`, `Wall` and
 * `Ceiling`, a flying boat's `Hull`, IL-2's fin `Keel1`, a helicopter's `Mast`, an `Outboard` flap, a
 * galley's `Trolley`.
 */
export const PROP_WORDS: Readonly<Record<string, string>> = Object.fromEntries([
  ...words("car", [
    "car",
    "cars",
    "sedan",
    "coupe",
    "hatchback",
    "truck",
    "lorry",
    "vehicle",
    "bumper",
    "grille",
    "grill",
    "headlight",
    "headlights",
    "headlamp",
    "taillight",
    "taillights",
    "taillamp",
    "bonnet",
    "numberplate",
    "licence",
    "license",
    "splitter",
    "bodykit",
    "muffler",
    "hubcap",
    "sideskirt",
    "diffuser",
  ]),
  ...words("building", [
    "building",
    "bldg",
    "storey",
    "lobby",
    "stairs",
    "stair",
    "staircase",
    "corridor",
    "apartment",
    "reception",
    "escalator",
    "basement",
    "elevatorshaft",
  ]),
  ...words("ship", [
    "ship",
    "boat",
    "vessel",
    "yacht",
    "sloop",
    "tugboat",
    "speedboat",
    "powerboat",
    "sailboat",
    "bowrider",
    "dinghy",
    "mainsail",
    "sail",
    "sails",
    "jib",
    "tiller",
    "transom",
    "funnel",
    "anchor",
    "deck",
    "carrier",
    "stern",
    "bilge",
    // French: a boat's `Gouvernail` is its rudder as an aircraft's is (vocabulary_words.ts).
    "bateau",
    "voilier",
    "navire",
    "barque",
    "chalutier",
    "paquebot",
    "remorqueur",
    "goelette",
    "quille",
  ]),
  ...words("crane", ["crane", "trolley", "counterjib", "outrigger", "outriggers"]),
  ...words("robot", ["robot", "gripper", "claw", "forearm", "wrist", "elbow", "torso", "kuka", "effector"]),
  ...words("tent", ["tent", "peg", "pegs", "groundsheet", "guy"]),
  ...words("theatre", [
    "theatre",
    "theater",
    "stage",
    "proscenium",
    "curtain",
    "curtains",
    "spotlight",
    "scenery",
  ]),
  ...words("furniture", [
    "desk",
    "chair",
    "table",
    "drawer",
    "drawers",
    "cabinet",
    "shelf",
    "sofa",
    "wardrobe",
    "cupboard",
    "secretaire",
    "furniture",
    "dresser",
  ]),
]);

/**
 * Words that tell a prop together (an aircraft's flap is `Outboard` too; an `Outboard_Motor` is a
 * boat's), and then not each alone (an `Elevator_Car` is a lift's, no car's).
 */
export const PROP_PAIRS: readonly (readonly [string, string, string])[] = [
  ["elevator", "car", "building"], // a lift's car, no car's
  ["outboard", "motor", "ship"],
  ["outboard", "engine", "ship"],
];

function words(what: string, list: readonly string[]): [string, string][] {
  return list.map((w) => [w, what]);
}

/**
 * Words that tell an aircraft: its structure (those of `AIRCRAFT_TOKENS` but propellers, which ships
 * and fans have too) and what aircraft are called.
 */
export const AIRCRAFT_WORDS: ReadonlySet<string> = new Set([
  ...[...AIRCRAFT_TOKENS].filter((w) => w !== "propeller" && w !== "helice"),
  "plane",
  "jet",
  "glider",
  "sailplane",
  "airliner",
  "fighter",
  "bomber",
  "helicopter",
  "heli",
  "fuselaje",
  // What only aircraft are built of or called, though their files hold other scenes' words beside:
  // a seaplane's floats, a rocket plane's booster, an airship's gondola, a pilot figure, airstairs,
  // a galley, the landing gear's bogie and skids, a rotor, a maker's name (`Boeing_737_Ship`).
  "float",
  "floats",
  "pontoon",
  "pontoons",
  "seaplane",
  "floatplane",
  "hydravion",
  "booster",
  "interstage",
  "airship",
  "blimp",
  "zeppelin",
  "dirigible",
  "gondola",
  "pilot",
  "copilot",
  "airstair",
  "airstairs",
  "galley",
  "gear",
  "undercarriage",
  "bogie",
  "skid",
  "skids",
  "rotor",
  "boeing",
  "airbus",
  "cessna",
  "piper",
  "embraer",
  "antonov",
  "tupolev",
  "ilyushin",
  "sukhoi",
  "sikorsky",
  "grumman",
  "lockheed",
]);

/**
 * Words that name an aircraft together, each of which alone is another scene's (`Air_Ship`,
 * `Flying_Boat`, `Sea_Plane`).
 */
export const AIRCRAFT_PAIRS: readonly (readonly [string, string])[] = [
  ["air", "ship"],
  ["flying", "boat"],
  ["sea", "plane"],
  ["landing", "gear"],
];
