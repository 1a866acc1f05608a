/**
 * The words that keep a name from being a panel though it holds a surface's word: fixed structure named
 * after what moves in it (`Aileron_Bay`, `Flap_Track`), cockpit and engine parts (`RudderPedal_L`,
 * `CowlFlap_1`), collision proxies, and things of other scenes (`Elevator_Shaft`, `Mud_Flap`). Read by
 * `vocabulary.ts`; the surface words themselves are in `vocabulary_words.ts`.
 *
 * @module
 */

/**
 * Tokens of fixed structure named after what moves in it, and of cockpit or engine parts that share
 * a surface's name (`Aileron_Bay`, `Flap_Track`, `RudderPedal_L`, `Flap_Lever`, `CowlFlap_1`).
 */
export const STRUCTURE_TOKENS: ReadonlySet<string> = new Set([
  "well",
  "bay",
  "recess",
  "cavity",
  // The strips and recesses about a hinge that stay with the wing: a cove is the wing's hollow the
  // surface's nose turns in, a gap cover or seal bridges the slot from the wing's edge. Read as the
  // panel, `Aileron_L_Gap` joined its pieces and drew the hinge along the strip's front, 15 % of the
  // chord ahead. A seal strip fixed to the surface instead turns with it only under its node.
  "gap",
  "cove",
  "seal",
  "fairing",
  "housing",
  "track",
  "actuator",
  "jack",
  "piston",
  "cylinder",
  "strut",
  "bar", // anti-roll / stabilizer bars of cars
  "rod",
  "pushrod",
  "linkage",
  "link",
  "cable",
  "bracket",
  "fitting",
  "mount",
  "hinge",
  "horn",
  "rib",
  "spar",
  "pod",
  "light",
  "lamp",
  "antenna",
  "lever",
  "handle",
  "pedal",
  "pedals",
  "wheel",
  "knob",
  "switch",
  "gauge",
  "indicator",
  "needle",
  "cowl",
  "cowling",
  "collision",
  "collider",
  // Collision proxies by import convention: Unreal's UCX_/UBX_/USP_/UCP_ prefixes, Godot's
  // -col/-colonly/-convcol/-convcolonly suffixes; game hit boxes.
  "ucx",
  "ubx",
  "usp",
  "ucp",
  "col",
  "colonly",
  "convcol",
  "convcolonly",
  "hitbox",
  "shadow",
  "decal",
  "label",
  // Things of other scenes that share a surface's word: a building's lift (`Elevator_Shaft`,
  // `Elevator_Cabin`), a truck's mud flap, a pocket's or an envelope's flap. A shaft is also the fixed
  // torque tube a surface turns on.
  "shaft",
  "cabin",
  "mud",
  "pocket",
  "envelope",
  // …and of furniture, bags and cars: a bed's, a blind's or a fence's slats, a tent's, a bag's, a box's,
  // a cat door's, a hat's, a book's or a lid's flap, a car's lip, roof or boot spoiler, a lift's button
  // (a cockpit's `Flap_Button` is no flap either).
  "bed",
  "blind",
  "fence",
  "tent",
  "bag",
  "box",
  "cat",
  "hat",
  "book",
  "lid",
  "lip",
  "roof",
  "trunk",
  "bumper",
  "button",
  // A ship's rudder post, a robot's `Flap_Arm`, a lift's `Elevator_Cab`: what holds or carries a surface
  // (an aircraft's `Flap_Arm` is its flap's actuator arm).
  "post",
  "arm",
  "cab",
]);
