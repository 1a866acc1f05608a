/**
 * Surface names as real users' tools and hands write them, and ordinary names that only look like
 * them. Deterministic from a seed:
 *
 * - `exporter`: what exporters and habits add — a level mark glued to the side letter
 *   (`AileronLLOD1`, `Rudder_LLOD2`, `ElevRLOD0`), glued numbers and sides (`Aileron01L`, `flapL2`,
 *   `FlapInnerLH`), side words first (`L_Flap_In`, `port_aileron`), brackets (`Aileron (Left)`,
 *   `Aileron [L]`), Blender's `.001`, Maya's `_geo` and `pCube12_` prefixes, 3ds Max's `Object012_`,
 *   Sketchfab's `_Material_0` and `_0`, a Blender `Mesh.014` node drawing a mesh named for the surface.
 * - `language`: German, French, Spanish, Portuguese, Russian transliterated, Japanese romaji and Chinese
 *   pinyin, with and without accents, with the side words and short forms those modellers write
 *   (`Querruder_li`, `aileron_droit`, `Aleron_Der`, `rul_vysoty_levyy`).
 * - `abbreviation`: `ail`, `elev`, `rud`, `flp`, `spl`, `slt`, `ailrn`, `elvtr`, `rddr`, `lflap`,
 *   `LAIL`, `RAIL`.
 * - `tool`: 3ds Max, Maya, MSFS, FS, X-Plane, DCS, Arma and JSBSim conventions (`wild_tool_names.ts`).
 *
 * Decoys are names from scenes that are no aircraft (a house's shutters `Volet_G`, a car's
 * `Mud_Flap_L`, a ship's `Guard_Rail`, furniture `Detail_L`, a building's `Elevator_Shaft`) and the
 * ordinary words the abbreviations hide in (`rail`, `trail`, `detail`, `flipper`).
 *
 * @module
 */
import type { PanelKind, Side } from "../../../nodes/rig/vocabulary.ts";
import { TOOL_STYLES, TOOL_TEMPLATES } from "./wild_tool_names.ts";

/** The families of names. */
export type WildFamily = "exporter" | "language" | "abbreviation" | "tool";
/** Every family. */
export const WILD_FAMILIES: readonly WildFamily[] = ["exporter", "language", "abbreviation", "tool"];

/** The kinds the names are drawn for. */
export type WildKind = Extract<PanelKind, "aileron" | "elevator" | "rudder" | "flap" | "spoiler" | "slat">;
/** Every kind drawn. */
export const WILD_KINDS: readonly WildKind[] = ["aileron", "elevator", "rudder", "flap", "spoiler", "slat"];

/** A surface's name and what a reader should make of it. */
export interface WildName {
  /** The node's name. */
  readonly name: string;
  /** The mesh's name, where it differs from the node's (a `Mesh.014` node draws `Aileron_L`). */
  readonly mesh?: string;
  /** The material its primitives are drawn with (Sketchfab's `_<material>_<n>` suffix names it). */
  readonly material?: string;
  readonly kind: WildKind;
  /** The side the name states; undefined when it states none (a centre rudder). */
  readonly side?: Exclude<Side, "centre">;
  readonly family: WildFamily;
  /** How it was written (the template's label), for messages. */
  readonly style: string;
}

type Pick = <T>(list: readonly T[]) => T;
const picker = (next: () => number): Pick => (list) => list[Math.floor(next() * list.length)];

/** English words and their short forms, per kind. */
const ENGLISH: Readonly<Record<WildKind, { words: string[]; short: string[] }>> = {
  aileron: { words: ["Aileron", "aileron", "AILERON"], short: ["Ail", "AIL", "ail", "Ailrn", "AILRN"] },
  elevator: { words: ["Elevator", "elevator", "ELEVATOR"], short: ["Elev", "ELEV", "elv", "Elvtr", "ELVTR"] },
  rudder: { words: ["Rudder", "rudder", "RUDDER"], short: ["Rud", "RUD", "rdr", "Rddr", "RDDR"] },
  flap: { words: ["Flap", "flap", "FLAP"], short: ["Flp", "FLP", "flp"] },
  spoiler: { words: ["Spoiler", "spoiler", "SPOILER"], short: ["Spl", "SPL", "spl"] },
  slat: { words: ["Slat", "slat", "SLAT"], short: ["Slt", "SLT", "slt"] },
};

/** A language's words for each kind (several spellings: with accents, without, transliterated). */
interface Language {
  readonly label: string;
  readonly words: Readonly<Partial<Record<WildKind, readonly string[]>>>;
  readonly left: readonly string[];
  readonly right: readonly string[];
  /** How the words and side are joined (`_`, ` `, `.`). */
  readonly joins: readonly string[];
}

const LANGUAGES: readonly Language[] = [
  {
    label: "german",
    words: {
      aileron: ["Querruder", "querruder", "QUERRUDER"],
      elevator: ["Höhenruder", "Hoehenruder", "Hohenruder", "hoehenruder"],
      rudder: ["Seitenruder", "seitenruder"],
      flap: ["Landeklappe", "landeklappe", "LANDEKLAPPE"],
      spoiler: ["Störklappe", "Stoerklappe"],
      slat: ["Vorflügel", "Vorfluegel"],
    },
    left: ["links", "Links", "li", "L"],
    right: ["rechts", "Rechts", "re", "R"],
    joins: ["_", " ", "."],
  },
  {
    label: "french",
    words: {
      aileron: ["Aileron", "aileron"],
      elevator: ["Gouverne_de_profondeur", "gouverne_profondeur", "Profondeur"],
      rudder: ["Gouverne_de_direction", "gouverne_direction", "Gouverne_direction"],
      flap: ["Volet", "volet", "Volet_courbure"],
      spoiler: ["Déporteur", "Deporteur", "deporteur"],
      slat: ["Bec", "bec_de_bord_d_attaque"],
    },
    left: ["gauche", "Gauche", "G"],
    right: ["droit", "droite", "Droit", "D"],
    joins: ["_", " "],
  },
  {
    label: "spanish",
    words: {
      aileron: ["Alerón", "Aleron", "aleron", "ALERON"],
      elevator: ["Timón_de_profundidad", "Elevador", "elevador", "Profundor"],
      rudder: ["Timón", "Timon", "timon", "Timón_de_dirección"],
      flap: ["Flap", "flap"],
      spoiler: ["Spoiler", "spoiler"],
      slat: ["Slat"],
    },
    left: ["izquierdo", "Izquierdo", "izq", "Izq", "IZQ"],
    right: ["derecho", "Derecho", "der", "Der", "DER", "dcho"],
    joins: ["_", " "],
  },
  {
    label: "portuguese",
    words: {
      aileron: ["Aileron", "aileron", "Ailerão"],
      elevator: ["Profundor", "profundor", "Leme_de_profundidade"],
      rudder: ["Leme", "leme", "Leme_de_direção", "Leme_de_direcao"],
      flap: ["Flape", "flape", "Flap"],
      spoiler: ["Spoiler"],
      slat: ["Slat"],
    },
    left: ["esquerdo", "Esquerdo", "esq", "Esq"],
    right: ["direito", "Direito", "dir", "Dir"],
    joins: ["_", " "],
  },
  {
    label: "russian transliterated",
    words: {
      aileron: ["eleron", "Eleron", "ELERON"],
      elevator: ["rul_vysoty", "Rul_Vysoty"],
      rudder: ["rul_napravleniya", "Rul_Napravleniya"],
      flap: ["zakrylok", "Zakrylok", "zakrylki"],
      spoiler: ["spoiler", "Spoiler"],
      slat: ["predkrylok", "Predkrylok"],
    },
    left: ["levyy", "levyi", "levyj", "lev", "L"],
    right: ["pravyy", "pravyi", "pravyj", "prav", "R"],
    joins: ["_"],
  },
  {
    label: "japanese romaji",
    words: {
      aileron: ["eruron", "Eruron", "hojoyoku"],
      elevator: ["erebeta", "Erebeeta", "shokoda"],
      rudder: ["hokoda", "Houkouda"],
      flap: ["furappu", "Furappu"],
      spoiler: ["supoira", "Supoiraa"],
      slat: ["suratto"],
    },
    left: ["hidari", "Hidari", "L"],
    right: ["migi", "Migi", "R"],
    joins: ["_"],
  },
  {
    label: "chinese pinyin",
    words: {
      aileron: ["fuyi", "FuYi"],
      elevator: ["shengjiangduo", "ShengJiangDuo"],
      rudder: ["fangxiangduo", "FangXiangDuo"],
      flap: ["jinyi", "JinYi"],
      spoiler: ["raoliuban", "RaoLiuBan"],
      slat: ["fengyi", "FengYi"],
    },
    left: ["zuo", "Zuo", "L"],
    right: ["you", "You", "R"],
    joins: ["_"],
  },
];

/** A side as one letter, a word, or `LH`/`RH`, in the case `upper` says. */
function sideWords(side: "left" | "right") {
  return side === "left"
    ? { letter: "L", word: "Left", hand: "LH", sea: "port", lower: "l", short: "Lft" }
    : { letter: "R", word: "Right", hand: "RH", sea: "stbd", lower: "r", short: "Rgt" };
}

/** One exporter's way of writing a surface and its side; `s` is undefined for a centre surface. */
type Template = (w: string, s: ReturnType<typeof sideWords> | undefined, n: number, pick: Pick) => {
  name: string;
  mesh?: string;
  material?: string;
  /** True when the template can state no side (it writes none). */
  sideless?: boolean;
};

const TEMPLATES: Readonly<Record<string, Template>> = {
  glued_lod: (w, s, n) => ({ name: `${w}${s?.letter ?? ""}LOD${n % 3}` }),
  sep_glued_lod: (w, s, n) => ({ name: `${w}_${s?.letter ?? ""}LOD${n % 3}` }),
  number_side: (w, s, n) => ({ name: `${w}${String(n).padStart(2, "0")}${s?.letter ?? ""}` }),
  side_number: (w, s, n) => ({ name: `${w.toLowerCase()}${s?.letter ?? ""}${n}` }),
  side_first: (w, s) => ({ name: s ? `${s.letter}_${w}_In` : `${w}_In` }),
  hand: (w, s) => ({ name: `${w}Inner${s?.hand ?? ""}` }),
  sea: (w, s) => ({ name: s ? `${s.sea}_${w.toLowerCase()}` : w.toLowerCase() }),
  dash: (w, s) => ({ name: s ? `${w.toUpperCase()}-${s.letter}` : w.toUpperCase() }),
  paren: (w, s) => ({ name: s ? `${w} (${s.word})` : w }),
  bracket: (w, s) => ({ name: s ? `${w} [${s.letter}]` : w }),
  blender_copy: (w, s, n) => ({
    name: `${w.toLowerCase()}${s ? `.${s.lower}` : ""}.${String(n).padStart(3, "0")}`,
  }),
  maya_geo: (w, s, _n, pick) => ({
    name: `${w}${s ? `_${s.letter}` : ""}_${pick(["geo", "GEO", "geoShape"])}`,
  }),
  mesh_suffix: (w, s) => ({ name: `${w}${s ? `_${s.letter}` : ""}_mesh` }),
  low_poly: (w, s, _n, pick) => ({ name: `${w}${s?.word ?? ""}_${pick(["low", "high", "lowpoly"])}` }),
  maya_prefix: (w, s, n) => ({ name: `pCube${n}_${w.toLowerCase()}${s?.letter ?? ""}` }),
  max_prefix: (w, s, n) => ({ name: `Object${String(n).padStart(3, "0")}_${w}${s ? `_${s.letter}` : ""}` }),
  sketchfab_material: (w, s) => ({
    name: `${w}${s ? `_${s.letter}` : ""}_Material_0`,
    material: "Material",
  }),
  sketchfab_counter: (w, s, n) => ({ name: `${w}${s ? `_${s.letter}` : ""}_${n % 4}` }),
  short_side: (w, s, _n, pick) => {
    if (!s) return { name: w };
    const side = w === w.toUpperCase() ? s.short.toUpperCase() : pick([s.short, s.short.toLowerCase()]);
    return { name: `${w}${pick(["_", ""])}${side}` };
  },
  unity_duplicate: (w, s, n) => ({ name: `${w}${s ? `_${s.letter}` : ""} (${n % 3 + 1})` }),
  maya_namespace: (w, s, _n, pick) => ({ name: `${pick(["plane", "F4U", "rig01"])}:${w}${s?.letter ?? ""}` }),
  unreal_prefix: (w, s, _n, pick) => ({
    name: `${pick(["SM_", "SK_", "GEO_"])}${w}${s ? `_${s.letter}` : ""}`,
  }),
  blender_bone_end: (w, s) => ({ name: `${w}${s ? `.${s.letter}` : ""}_end` }),
  blender_mesh_node: (w, s, n) => ({
    name: `Mesh.${String(n).padStart(3, "0")}`,
    mesh: `${w}${s ? `_${s.letter}` : ""}`,
  }),
};

/** The template labels of the `exporter` family. */
export const EXPORTER_STYLES: readonly string[] = Object.keys(TEMPLATES);

/**
 * A name for a surface of `kind` on `side` (undefined: a centre surface, whose name states none) in
 * `family`, drawn from `next`. A file keeps one convention: given `convention` (a number in [0, 1) drawn
 * once per file), every name of the file is written in the same style, language and form.
 */
export function wildName(
  next: () => number,
  kind: WildKind,
  side: "left" | "right" | undefined,
  family: WildFamily,
  convention?: number,
): WildName {
  const pick: Pick = convention === undefined ? picker(next) : (list) => {
    next(); // draw as many numbers either way
    return list[Math.floor(convention * list.length)];
  };
  const n = 1 + Math.floor(next() * 20);
  const s = side && sideWords(side);
  if (family === "exporter") {
    const style = pick(EXPORTER_STYLES);
    const coin = next();
    const short = (convention === undefined ? coin : (convention * 7) % 1) < 0.3;
    const word = pick(ENGLISH[kind].words.slice(0, 1).concat(short ? ENGLISH[kind].short : []));
    return { ...TEMPLATES[style](word, s, n, pick), kind, side, family, style };
  }
  if (family === "tool") {
    const style = pick(TOOL_STYLES);
    const word = ENGLISH[kind].words[Math.floor(next() * 2)];
    return { name: TOOL_TEMPLATES[style](word, s, n, pick), kind, side, family, style };
  }
  if (family === "abbreviation") {
    const short = pick(ENGLISH[kind].short);
    const upper = short === short.toUpperCase();
    const styles: [string, () => string][] = [
      ["separated", () => s ? `${short}_${upper ? s.letter : s.lower}` : short],
      ["dotted", () => s ? `${short}.${s.letter}` : `${short}.${n}`],
      ["glued_after", () => `${short}${s ? (upper ? s.letter : s.lower) : ""}`],
      // Side letter glued in front, as `LAIL`/`RAIL`, `lflap`/`rflap` are written.
      ["glued_before", () => `${s ? (upper ? s.letter : s.lower) : ""}${short}`],
      ["numbered", () => `${short}${n}${s ? `_${s.letter}` : ""}`],
    ];
    const [style, make] = pick(styles);
    return { name: make(), kind, side, family, style };
  }
  const language = pick(LANGUAGES.filter((l) => l.words[kind]));
  const word = pick(language.words[kind]!);
  const join = pick(language.joins);
  const sideWord = side ? pick(side === "left" ? language.left : language.right) : undefined;
  const base = join === "_" ? word : word.replaceAll("_", join);
  const name = sideWord === undefined
    ? (next() < 0.5 ? base : `${base}${join}${n}`)
    : next() < 0.8
    ? `${base}${join}${sideWord}`
    : `${base}${join}${sideWord}${join}${n}`;
  return { name, kind, side, family, style: language.label };
}

/** A decoy name and the kind of scene it comes from. */
export interface Decoy {
  readonly name: string;
  readonly scene: "house" | "car" | "ship" | "furniture" | "person" | "building" | "words";
}

/** Names from scenes that are no aircraft, each holding a word a surface name holds or hides in. */
const DECOYS: readonly Decoy[] = [
  { name: "Volet_G", scene: "house" },
  { name: "Volet_D", scene: "house" },
  { name: "volet_fenetre_1", scene: "house" },
  { name: "Volets_Cuisine", scene: "house" },
  { name: "Bec_Verseur", scene: "house" },
  { name: "Bec_Gaz", scene: "house" },
  { name: "Mud_Flap_L", scene: "car" },
  { name: "MudFlap_R", scene: "car" },
  { name: "Door_Trim_L", scene: "car" },
  { name: "Chrome_Trim", scene: "car" },
  { name: "Roof_Rail_R", scene: "car" },
  { name: "Guard_Rail", scene: "ship" },
  { name: "Handrail_Port", scene: "ship" },
  { name: "Rail_01", scene: "ship" },
  { name: "RAIL_STBD", scene: "ship" },
  { name: "Trail_L", scene: "ship" },
  { name: "Detail_L", scene: "furniture" },
  { name: "detail_r", scene: "furniture" },
  { name: "Drawer_Rail_R", scene: "furniture" },
  { name: "Flipper_L", scene: "furniture" },
  { name: "flipper_right", scene: "furniture" },
  { name: "Curtain_Rail", scene: "furniture" },
  { name: "Drawer_Tab_L", scene: "furniture" },
  { name: "Bed_Slat_01", scene: "furniture" },
  { name: "Blind_Slat_3", scene: "furniture" },
  { name: "Fence_Slat_L", scene: "house" },
  { name: "Tent_Flap", scene: "person" },
  { name: "Bag_Flap_L", scene: "person" },
  { name: "Cat_Flap", scene: "house" },
  { name: "Box_Flap_1", scene: "house" },
  { name: "Roof_Spoiler", scene: "car" },
  { name: "Spoiler_Lip_R", scene: "car" },
  { name: "Trunk_Spoiler", scene: "car" },
  { name: "Elevator_Button_3", scene: "building" },
  { name: "Pull_Tab", scene: "furniture" },
  { name: "Tab_1", scene: "words" },
  { name: "Pocket_Flap_L", scene: "person" },
  { name: "Envelope_Flap", scene: "person" },
  { name: "Elevator_Shaft", scene: "building" },
  { name: "Elevator_Cabin", scene: "building" },
  { name: "Klappe_links", scene: "house" },
  { name: "Rul_L", scene: "car" }, // Russian руль: a steering wheel
  { name: "trail", scene: "words" },
  { name: "rail", scene: "words" },
  { name: "RAIL", scene: "words" },
  { name: "detail", scene: "words" },
  { name: "flipper", scene: "words" },
  { name: "Rudimentary", scene: "words" },
  { name: "Elevation_Map", scene: "words" },
  { name: "Splash", scene: "words" },
  { name: "Slot_1", scene: "words" },
  { name: "Trimmer_L", scene: "furniture" },
  { name: "Bail_R", scene: "words" },
];

/** Every decoy (the test reads all of them; the seed only orders them). */
export function decoyNames(next: () => number): Decoy[] {
  return DECOYS.map((d) => ({ d, key: next() })).sort((a, b) => a.key - b.key).map(({ d }) => d);
}
