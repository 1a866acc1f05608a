/**
 * Aircraft named as real exporters, converters and modders name them, one habit a file: FlightGear/AC3D
 * (`aileron-left`, `LeftAileron`), X-Plane OBJ converted (`ail_L`, `Left Aileron`), FSX/P3D MDL decompiled
 * by ModelConverterX (`c_aileron_left`, `l_aileron`, `AILERONL`, `AILERONP`), DCS and War Thunder dumps
 * (`AILERON_L`, `ELERON_L`, `aileron_l_dm`), Sketchfab game rips, ship-minded modellers' port and
 * starboard (`Aileron_P`/`Aileron_S`, `PortAileron`), `_LH`/`_RH`, `L-`/`R-`, sides as numbers
 * (`aileron1`/`aileron2`: no side stated), CamelCase, and the languages models are named in with the
 * letters their modellers shorten sides to: Spanish `I`/`D` (izquierdo, derecho), Portuguese `E`/`D`
 * (esquerdo, direito), French `G`/`D`, German `L`/`R`, `li`/`re`, `links`/`rechts`, Polish and Czech
 * `L`/`P` (lewy/levý, prawy/pravý), Russian transliterated `L`/`P`, `lev`/`prav` (левый, правый).
 *
 * A `P` is port (left) in one habit and prawy (right) in another: the file's other letter (`S`, or `L`)
 * tells. Deterministic from a seed; the judge is `cut_names_judge.ts`.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import type { CutFile, CutName } from "./cut_names.ts";

type Kind = "aileron" | "elevator" | "rudder" | "flap";

/** A naming habit: its kind words and its left/right words. */
interface Habit {
  readonly label: string;
  readonly words: Readonly<Record<Kind, readonly string[]>>;
  readonly sides: readonly (readonly [string, string])[];
}

const ENGLISH: Habit["words"] = {
  aileron: ["Aileron", "Ail", "AILERON", "ailer"],
  elevator: ["Elevator", "Elev", "ELEVATOR", "elv"],
  rudder: ["Rudder", "Rud", "RUDDER"],
  flap: ["Flap", "FLAP", "flp"],
};

const HABITS: readonly Habit[] = [
  {
    label: "english",
    words: ENGLISH,
    sides: [["L", "R"], ["Left", "Right"], ["LH", "RH"], ["Lt", "Rt"], ["Lft", "Rgt"], ["left", "right"]],
  },
  { label: "port/starboard", words: ENGLISH, sides: [["P", "S"], ["Port", "Stbd"], ["Port", "Starboard"]] },
  {
    label: "spanish",
    words: { aileron: ["Aleron", "Alerón"], elevator: ["Elevador"], rudder: ["Timon"], flap: ["Flap"] },
    sides: [["I", "D"], ["Izq", "Der"], ["Izquierdo", "Derecho"], ["izq", "dcho"]],
  },
  {
    label: "portuguese",
    words: { aileron: ["Ailerao", "Ailerão"], elevator: ["Profundor"], rudder: ["Leme"], flap: ["Flape"] },
    sides: [["E", "D"], ["Esq", "Dir"], ["Esquerdo", "Direito"]],
  },
  {
    label: "french",
    words: { aileron: ["Aileron"], elevator: ["Profondeur"], rudder: ["Direction"], flap: ["Volet"] },
    sides: [["G", "D"], ["Gauche", "Droite"]],
  },
  {
    label: "german",
    words: {
      aileron: ["Querruder"],
      elevator: ["Hoehenruder", "Höhenruder"],
      rudder: ["Seitenruder"],
      flap: ["Landeklappe"],
    },
    sides: [["L", "R"], ["li", "re"], ["links", "rechts"]],
  },
  {
    label: "polish/czech",
    words: { aileron: ["Lotka", "Kridelko"], elevator: ["Vyskovka"], rudder: ["Smerovka"], flap: ["Klapa"] },
    sides: [["L", "P"], ["Lewa", "Prawa"], ["Levy", "Pravy"]],
  },
  {
    label: "russian",
    words: {
      aileron: ["Eleron", "ELERON"],
      elevator: ["Rul_Vysoty"],
      rudder: ["Rul_Napravleniya"],
      flap: ["Zakrylok"],
    },
    sides: [["L", "P"], ["Lev", "Prav"], ["Levyy", "Pravyy"]],
  },
];

/** How a habit writes a kind word `k` and a side word `s`. */
const TEMPLATES = ["{k}_{s}", "{s}_{k}", "{k}{s}", "{s}{k}", "{k}-{s}", "{s}-{k}", "{k}.{s}", "{k} {s}"];

/** What tools append: nothing, a counter, War Thunder's damage-model mark, a mesh or material name. */
const TAILS = ["", "", "_01", "_dm", ".001", "_Mesh", "_geo"];

/** The surfaces of one aircraft. */
const SURFACES: readonly (readonly [Kind, "left" | "right" | undefined])[] = [
  ["aileron", "left"],
  ["aileron", "right"],
  ["elevator", "left"],
  ["elevator", "right"],
  ["rudder", undefined],
  ["flap", "left"],
  ["flap", "right"],
];

/** One file from `next`. */
export function exporterFile(next: () => number): CutFile {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const habit = pick(HABITS);
  const [left, right] = pick(habit.sides);
  const template = pick(TEMPLATES);
  const tail = pick(TAILS);
  const kase = pick(["as is", "as is", "upper", "lower"]);
  // Sides as numbers (FS and X-Plane animation groups `aileron1`/`aileron2`): no side stated.
  const numbered = next() < 0.12;
  const words = Object.fromEntries(
    Object.entries(habit.words).map(([kind, list]) => [kind, pick(list)]),
  ) as Record<Kind, string>;
  const names: CutName[] = [];
  SURFACES.forEach(([kind, side], k) => {
    const sideWord = side === "left" ? left : side === "right" ? right : undefined;
    let name = sideWord === undefined
      ? words[kind]
      : numbered
      ? `${words[kind]}${side === "left" ? 1 : 2}`
      : template.replace("{k}", words[kind]).replace("{s}", sideWord);
    name += tail === "_01" ? `_${String(k + 1).padStart(2, "0")}` : tail;
    if (kase === "upper") name = name.toUpperCase();
    if (kase === "lower") name = name.toLowerCase();
    names.push({ name, full: name, kind, side: numbered ? undefined : side, trueSide: side });
  });
  const style = `${habit.label} ${
    numbered ? "numbered" : `${left}/${right} '${template}'`
  } '${tail}' ${kase}`;
  return { width: "31", style, names };
}

/** `count` files from `seed`. */
export function exporterFiles(seed: number, count: number): CutFile[] {
  const next = prng(seed);
  return Array.from({ length: count }, () => exporterFile(next));
}
