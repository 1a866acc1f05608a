/**
 * Names of the parts that spin without limit — propellers, a helicopter's main and tail rotors,
 * spinners — read as tokens (as panel names are, {@link tokenize}), and what each kind means for the
 * rig: the aircraft direction its shaft runs along, the interop `group`, and the `positive` word, a
 * right-hand turn about that direction.
 *
 * @module
 */
import { isRigHelperName, isStructureToken, tokenize } from "./vocabulary.ts";
import { GLUED_PREFIXES, GLUED_SUFFIXES } from "./vocabulary_sides.ts";

/** A spinning part's kind. */
export type SpinningKind = "propeller" | "main_rotor" | "tail_rotor";

/** What a name says: a kind, or a bare `Rotor`/`Blades`/`Propeller` whose shaft decides it. */
export type SpinningName = SpinningKind | "bare";

/** The aircraft direction a kind's shaft runs along. */
export type ShaftDirection = "forward" | "up" | "left";

/** Per-kind rig defaults of spinning parts. */
export interface SpinningSpec {
  /** The shaft runs along this aircraft direction; the pivot's +X is it (within the shaft's tilt). */
  readonly shaft: ShaftDirection;
  /** Interop `group`. */
  readonly group: string;
  /** Interop `positive`: a positive angle is a right-hand turn about {@link shaft}. */
  readonly positive: string;
}

/**
 * The defaults for each kind. A positive angle turns the part right-handed about the named direction:
 * a propeller clockwise seen from behind (its top blade toward the right), a main rotor
 * counter-clockwise seen from above (the US convention: the blade over the nose toward the left), a
 * tail rotor counter-clockwise seen from the left (its top blade toward the nose). No limits: the
 * interop default is ±∞.
 */
export const SPINNING_SPECS: Readonly<Record<SpinningKind, SpinningSpec>> = {
  propeller: { shaft: "forward", group: "propellers", positive: "clockwise_from_behind" },
  main_rotor: { shaft: "up", group: "rotors", positive: "counterclockwise_from_above" },
  tail_rotor: { shaft: "left", group: "rotors", positive: "counterclockwise_from_left" },
};

/** The kind a shaft direction makes of a bare name. */
export const KIND_OF_SHAFT: Readonly<Record<ShaftDirection, SpinningKind>> = {
  forward: "propeller",
  up: "main_rotor",
  left: "tail_rotor",
};

/** True for the kinds this module defines. */
export function isSpinningKind(kind: string | undefined): kind is SpinningKind {
  return kind === "propeller" || kind === "main_rotor" || kind === "tail_rotor";
}

/** Words that name a propeller, or a spinning rotor whose shaft tells which (`Rotor`, `Helice`). */
const BARE_TOKENS: ReadonlySet<string> = new Set([
  "propeller",
  "propellers",
  "propellor",
  "prop",
  "props",
  "airscrew",
  "spinner",
  "spinners",
  "rotor",
  "rotors",
  "proprotor", // a tilt-rotor's (V-22, AW609)
  "contraprop", // contra-rotating propellers (Shackleton, An-22)
  "contraprops",
  "proprotors",
  "blades",
  // A ducted fan's, a fenestron's, a turbofan's front fan: blades that spin inside a duct.
  "fan",
  "fans",
  "luftschraube",
  "helice", // French, Spanish, Portuguese hélice
  "elica",
  "eliche",
  "rotore",
  "винт",
  "пропеллер",
  "ротор",
]);

/** Glued words that name a main rotor. */
const MAIN_TOKENS: ReadonlySet<string> = new Set(["mainrotor", "hauptrotor", "mainrotors"]);

/** Glued words that name a tail rotor. */
const TAIL_TOKENS: ReadonlySet<string> = new Set([
  "tailrotor",
  "heckrotor",
  "fenestron",
  "tailrotors",
  "tailfan",
]);

/** Words beside a rotor word that make it a main rotor (`Rotor_Main`, `rotor principal`, `несущий винт`). */
const MAIN_QUALIFIERS: ReadonlySet<string> = new Set(["main", "principal", "principale", "haupt", "несущии"]);

/** Words beside a rotor word that make it a tail rotor (`rotor de cola`, `rotor anticouple`, `рулевой винт`). */
const TAIL_QUALIFIERS: ReadonlySet<string> = new Set([
  "tail",
  "cola",
  "queue",
  "coda",
  "heck",
  "anticouple",
  "antitorque",
  "рулевои",
  "хвостовои",
]);

/**
 * Parts named after a propeller or rotor that do not spin with it (or are drive train best left
 * still): `Prop_Guard`, `RotorMast`, `Swashplate`, `RotorBrake`, `PropellerShaft`, `Rotor_Blur_Off`.
 * A spinner or hub under a propeller goes with it (only the outermost match is a part).
 */
const STILL_TOKENS: ReadonlySet<string> = new Set([
  "guard",
  "guards",
  "mast",
  "swashplate",
  "brake",
  "shaft",
  "driveshaft",
  "gearbox",
  "governor",
  "pylon",
  "stand",
  "cage",
  "duct",
  "shroud",
  "arm",
  "boom",
  "cover",
  "tiedown",
  "sock",
  "socks",
  "servo",
  "servos",
  "swash", // `rotor_swash_lower`: the swashplate's fixed ring
  "support",
  "supports",
  "stator",
  "stators",
  "casing",
]);

/**
 * Words of what houses a rotor, still only when named after it (`Fan_Nacelle`, `Prop_Intake`): the
 * rotor named after its housing (`Nacelle_L_Propeller`, `Nacelle1_Prop`) spins.
 */
const HOUSING_TOKENS: ReadonlySet<string> = new Set(["nacelle", "nacelles", "intake", "inlet", "pod"]);

/**
 * The spinning kind a node's name suggests, `"bare"` when its shaft must tell (`Rotor`, `Propeller`,
 * `Blades`, `Spinner`), or undefined. Rig helpers (`HINGE_…`, `CTRL_…`) and structure (`Prop_Guard`,
 * `RotorMast`, `Engine_Mount`) are none.
 *
 * @example
 * ```ts
 * matchSpinningName("TailRotor");      // "tail_rotor"
 * matchSpinningName("Rotor_Main");     // "main_rotor"
 * matchSpinningName("Propeller.001");  // "bare"
 * matchSpinningName("Prop_Guard");     // undefined
 * ```
 */
export function matchSpinningName(name: string): SpinningName | undefined {
  if (isRigHelperName(name)) return undefined;
  const tokens = tokenize(name).map((t) => withoutGluedSide(t.replace(/ё/g, "е")));
  if (tokens.some((t) => STILL_TOKENS.has(t) || isStructureToken(t))) return undefined;
  const rotorAt = tokens.findIndex((t) => BARE_TOKENS.has(t) || MAIN_TOKENS.has(t) || TAIL_TOKENS.has(t));
  if (rotorAt >= 0 && tokens.slice(rotorAt + 1).some((t) => HOUSING_TOKENS.has(t))) return undefined;
  if (tokens.some((t) => MAIN_TOKENS.has(t))) return "main_rotor";
  if (tokens.some((t) => TAIL_TOKENS.has(t))) return "tail_rotor";
  if (!tokens.some((t) => BARE_TOKENS.has(t))) return undefined;
  if (tokens.some((t) => MAIN_QUALIFIERS.has(t))) return "main_rotor";
  if (tokens.some((t) => TAIL_QUALIFIERS.has(t))) return "tail_rotor";
  return "bare";
}

/** True when `token` is a word naming a propeller or rotor of any kind. */
function isSpinningToken(token: string): boolean {
  return BARE_TOKENS.has(token) || MAIN_TOKENS.has(token) || TAIL_TOKENS.has(token);
}

/**
 * A spinning word with a side glued before or after it, as old games' rips name each engine's
 * propeller (`LPROP`, `RPROP`, `PROPL`, `LeftProp` read whole), the side left off; other tokens as
 * they are. The side itself comes from where the part is.
 */
function withoutGluedSide(token: string): string {
  if (isSpinningToken(token)) return token;
  for (const side of GLUED_SUFFIXES) {
    const rest = token.slice(0, -side.length);
    if (token.endsWith(side) && rest.length >= 3 && isSpinningToken(rest)) return rest;
  }
  for (const side of GLUED_PREFIXES) {
    const rest = token.slice(side.length);
    if (token.startsWith(side) && rest.length >= 3 && isSpinningToken(rest)) return rest;
  }
  return token;
}

/** Words of a hub or spinner inside a spinning part: its centre is the shaft's. */
const HUB_TOKENS: ReadonlySet<string> = new Set(["hub", "spinner", "nabe", "moyeu", "cone", "cap", "mozzo"]);

/** True when the name says a hub or spinner (`Hub`, `Prop_Spinner`, `RotorHub`, `Nabe`). */
export function isHubName(name: string): boolean {
  return tokenize(name).some((t) => HUB_TOKENS.has(t) || t === "rotorhub" || t === "rotorhead");
}

/** Words of a blurred-propeller disc drawn beside the blades (`prop_disc`, `Prop_Blur`, `PropDisk`). */
const DISC_TOKENS: ReadonlySet<string> = new Set(["disc", "disk", "blur", "blurred", "propdisc", "propdisk"]);

/** True when the name says a blurred-propeller disc (`prop_disc`, `Prop_Blur`). */
export function isDiscName(name: string): boolean {
  return tokenize(name).some((t) => DISC_TOKENS.has(t));
}

/** Words of a counterweight: a single-blade propeller's (`Counterweight`, `Gegengewicht`). */
const COUNTERWEIGHT_TOKENS: ReadonlySet<string> = new Set([
  "counterweight",
  "counterbalance",
  "gegengewicht",
  "contrepoids",
  "contrappeso",
  "contrapeso",
  "противовес",
]);

/** True when the name says a counterweight (`Counterweight`, `Prop_Counterweight`). */
export function isCounterweightName(name: string): boolean {
  return tokenize(name).some((t) => COUNTERWEIGHT_TOKENS.has(t));
}

/** Words naming one blade (`Blade_2`, `Rotorblatt`, `pala`, `лопасть`). */
const BLADE_TOKENS: ReadonlySet<string> = new Set([
  "blade",
  "blatt",
  "rotorblatt",
  "pale",
  "pala",
  "лопасть",
]);

/** True when the name says a single blade (`MainRotor_Blade_1`; `Blades` is a whole rotor). */
export function isBladeName(name: string): boolean {
  return tokenize(name).some((t) => BLADE_TOKENS.has(t));
}

/**
 * The words of a name that say which rotor it belongs to: without blade and hub words, so `MainRotor`,
 * `MainRotor_Blade_1` and `MainRotor_Hub` share `main rotor`; with the numbers that are no blade's
 * (a blade word's own number and Blender's `.001` dropped), so a coaxial pair exported flat —
 * `Rotor1_Blade1`, `Rotor1_Hub`, `Rotor2_Blade1` — stays two rotors, `rotor 1` and `rotor 2`.
 */
export function spinningStem(name: string): string {
  const words = tokenize(name).filter((t) => !BLADE_TOKENS.has(t) && !HUB_TOKENS.has(t));
  const numbers = name.replace(/\.\d{3}$/u, "")
    .replace(/(blade|blatt|pale|pala|лопасть)[\s_.\-]*\d*/giu, "").match(/\d+/gu) ?? [];
  return [...words, ...numbers.map((n) => String(Number(n)))].join(" ");
}
