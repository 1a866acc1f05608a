/**
 * The words name search knows: surface kinds and what tells an aircraft, in English and the languages
 * models are named in (each commented with its language). The side words are in `vocabulary_sides.ts`,
 * the structure words that veto a panel in `vocabulary_structure.ts`. Read by `vocabulary.ts`, which
 * holds the rules.
 *
 * @module
 */
import type { PanelKind } from "./panel_kind.ts";

/**
 * Surface and side words of languages written without spaces, looked for inside a token (longest
 * first), each becoming a token of its own; the kind tables below and the side tables of
 * `vocabulary_sides.ts` list them.
 */
export const CJK_WORDS: readonly string[] = [
  "补助翼",
  "補助翼",
  "副翼",
  "エルロン",
  "昇降舵",
  "升降舵",
  "エレベーター",
  "エレベータ",
  "方向舵",
  "ラダー",
  "フラップ",
  "襟翼",
  "スラット",
  "缝翼",
  "スポイラー",
  "扰流板",
  "減速板",
  "减速板",
  "エアブレーキ",
  "カナード",
  "鸭翼",
  "에일러론",
  "보조익",
  "승강타",
  "엘리베이터",
  "방향타",
  "러더",
  "플랩",
  "스포일러",
  "카나드",
  "左",
  "右",
  "왼쪽",
  "오른쪽",
  "좌",
  "우",
].sort((a, b) => b.length - a.length);

/** A letter of the scripts written without spaces between words (Chinese, Japanese, Korean). */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Single tokens that name a kind outright. Plurals are folded to these before lookup. */
export const KIND_TOKENS: Readonly<Record<string, PanelKind>> = {
  aileron: "aileron",
  ail: "aileron",
  ailrn: "aileron",
  // Names cut to 8 characters by old formats (3DS, early FBX/OBJ tools): `L_AILERO`, `LT_AILER`,
  // `ELEVATO`. (`AILR` is not one: it is `AIL` with its side glued on, `R`.)
  ailer: "aileron",
  ailero: "aileron",
  eleva: "elevator", // `LEFT_ELEVA`: a .3ds name's 10 characters
  elevat: "elevator",
  elevato: "elevator",
  ailerao: "aileron", // Portuguese ailerão
  eruron: "aileron", // Japanese romaji of エルロン
  hojoyoku: "aileron", // romaji of 補助翼
  fuyi: "aileron", // pinyin of 副翼
  arone: "aileron", // IL-2 1946
  eleron: "aileron", // DCS damage cells, RC firmware
  querruder: "aileron",
  flaperon: "aileron",
  aleron: "aileron", // Spanish alerón
  alettone: "aileron", // Italian
  lotka: "aileron", // Polish
  kridelko: "aileron", // Czech křidélko
  rolroer: "aileron", // Dutch
  skevroder: "aileron", // Swedish
  элерон: "aileron",
  副翼: "aileron",
  補助翼: "aileron",
  补助翼: "aileron",
  エルロン: "aileron",
  에일러론: "aileron",
  보조익: "aileron",
  elevator: "elevator",
  elev: "elevator",
  elv: "elevator",
  elvtr: "elevator",
  erebeta: "elevator", // romaji of エレベータ
  erebeeta: "elevator",
  shokoda: "elevator", // romaji of 昇降舵
  shengjiangduo: "elevator", // pinyin of 升降舵
  vator: "elevator", // IL-2 1946 `VatorL_D0`
  hohenruder: "elevator", // German Höhenruder
  hoehenruder: "elevator",
  profondeur: "elevator", // French gouverne (or gouvernail) de profondeur: wins over gouvernail
  elevador: "elevator", // Spanish
  equilibratore: "elevator", // Italian
  profundor: "elevator", // Portuguese
  vyskovka: "elevator", // Czech výškovka
  hoogteroer: "elevator", // Dutch
  hojdroder: "elevator", // Swedish höjdroder
  昇降舵: "elevator",
  升降舵: "elevator",
  エレベーター: "elevator",
  エレベータ: "elevator",
  승강타: "elevator",
  엘리베이터: "elevator",
  elevon: "elevon",
  ailevon: "elevon", // an elevon by its other name (3ds Max `ailevon L`)
  stabilator: "stabilator",
  taileron: "stabilator",
  canard: "canard",
  foreplane: "canard",
  カナード: "canard",
  鸭翼: "canard",
  카나드: "canard",
  rudder: "rudder",
  rud: "rudder",
  rdr: "rudder",
  rddr: "rudder",
  hokoda: "rudder", // romaji of 方向舵
  houkouda: "rudder",
  fangxiangduo: "rudder", // pinyin of 方向舵
  seitenruder: "rudder",
  timon: "rudder", // Spanish timón (de dirección); timón de profundidad is an elevator
  gouvernail: "rudder", // French, alone or de direction (a boat's too: scene_setting.ts); de profondeur is an elevator
  timone: "rudder", // Italian (di direzione); timone di profondità is an elevator
  leme: "rudder", // Portuguese (de direção); leme de profundidade is an elevator
  smerovka: "rudder", // Czech směrovka
  richtingsroer: "rudder", // Dutch
  sidroder: "rudder", // Swedish
  方向舵: "rudder",
  ラダー: "rudder",
  방향타: "rudder",
  러더: "rudder",
  ruddervator: "ruddervator",
  flap: "flap",
  flp: "flap",
  zakrylok: "flap", // Russian закрылок, transliterated
  zakrylki: "flap",
  furappu: "flap", // romaji of フラップ
  jinyi: "flap", // pinyin of 襟翼
  fowler: "flap",
  landeklappe: "flap",
  volet: "flap", // French
  flape: "flap", // Portuguese
  klapa: "flap", // Polish
  klapka: "flap", // Czech
  klaff: "flap", // Swedish
  закрылок: "flap",
  フラップ: "flap",
  襟翼: "flap",
  플랩: "flap",
  lef: "leading_edge_flap",
  tef: "flap", // trailing-edge flap, as an F/A-18's LEF/TEF pair names them
  leflap: "leading_edge_flap",
  krueger: "leading_edge_flap",
  kruger: "leading_edge_flap",
  krugerklappe: "leading_edge_flap", // German Krügerklappe
  kruegerklappe: "leading_edge_flap",
  droop: "leading_edge_flap",
  slat: "slat",
  slt: "slat",
  vorflugel: "slat", // German Vorflügel
  vorfluegel: "slat",
  predkrylok: "slat", // Russian предкрылок, transliterated
  suratto: "slat", // romaji of スラット
  fengyi: "slat", // pinyin of 缝翼
  bec: "slat", // French bec de bord d'attaque
  предкрылок: "slat",
  スラット: "slat",
  缝翼: "slat",
  airbrake: "air_brake",
  speedbrake: "air_brake",
  divebrake: "air_brake",
  bremsklappe: "air_brake",
  bremsklappen: "air_brake", // German plural: a glider's pair of Schempp-Hirth blades
  luftbremse: "air_brake", // German
  sturzflugbremse: "air_brake", // German dive brake (a Ju 87's)
  sturzflugbremsen: "air_brake",
  aerofrein: "air_brake", // French aérofrein
  aerofreno: "air_brake", // Spanish, Italian
  減速板: "air_brake",
  减速板: "air_brake",
  エアブレーキ: "air_brake",
  spoiler: "spoiler",
  spl: "spoiler",
  stoerklappe: "spoiler", // German Störklappe without its umlaut
  supoira: "spoiler", // romaji of スポイラー
  supoiraa: "spoiler",
  raoliuban: "spoiler", // pinyin of 扰流板
  spoileron: "spoiler",
  deporteur: "spoiler", // French déporteur
  storklappe: "spoiler", // German Störklappe
  интерцептор: "spoiler",
  スポイラー: "spoiler",
  扰流板: "spoiler",
  스포일러: "spoiler",
  dspoiler: "drag_rudder", // ArduPilot differential spoilers: split elevons used as drag rudders
  deceleron: "drag_rudder",
  clamshell: "drag_rudder",
  trimtab: "trim_tab",
  tab: "trim_tab",
  compensateur: "trim_tab", // French
};

/**
 * Token combinations that name a kind together (checked before single tokens, so `drag` + `rudder`
 * is a drag rudder, not a rudder). Every token of a combination must be present.
 */
export const KIND_COMPOUNDS: readonly (readonly [readonly string[], PanelKind])[] = [
  [["trim", "tab"], "trim_tab"],
  [["servo", "tab"], "trim_tab"],
  [["drag", "rudder"], "drag_rudder"],
  [["split", "rudder"], "drag_rudder"],
  [["aileron", "brake"], "drag_rudder"], // Arma `aileron_l_brake`: split-aileron brake half
  [["split", "aileron"], "drag_rudder"],
  [["rudder", "vator"], "ruddervator"],
  [["leading", "edge", "flap"], "leading_edge_flap"],
  [["le", "flap"], "leading_edge_flap"],
  [["air", "brake"], "air_brake"],
  [["speed", "brake"], "air_brake"],
  [["dive", "brake"], "air_brake"],
  // A glider's Schempp-Hirth airbrake, by its maker's name or initials beside a brake word (a bare
  // `Schempp_Hirth` names the maker, as a model's root does: `Schempp_Hirth_Discus`).
  [["schempp", "hirth", "l"], "air_brake"],
  [["schempp", "hirth", "r"], "air_brake"],
  [["schempp", "hirth", "left"], "air_brake"],
  [["schempp", "hirth", "right"], "air_brake"],
  [["schempp", "hirth", "brake"], "air_brake"],
  [["sh", "brake"], "air_brake"],
  [["hamulec", "aerodynamiczny"], "air_brake"], // Polish
  [["hamulce", "aerodynamiczne"], "air_brake"],
  [["hamulec", "aero"], "air_brake"],
  [["aerodynamicka", "brzda"], "air_brake"], // Czech aerodynamická brzda
  [["brzdici", "klapka"], "air_brake"], // Czech brzdicí klapka (a flap word alone is a flap)
  [["brzdici", "klapky"], "air_brake"],
  [["all", "moving", "tail"], "stabilator"],
  [["all", "flying", "tail"], "stabilator"],
  [["gouverne", "direction"], "rudder"], // French gouverne de direction
  [["gouvernail", "profondeur"], "elevator"], // French gouvernail de profondeur
  [["timon", "profundidad"], "elevator"], // Spanish
  [["timone", "profondita"], "elevator"], // Italian
  [["leme", "profundidade"], "elevator"], // Portuguese
  [["ster", "wysokosci"], "elevator"], // Polish ster wysokości
  [["ster", "kierunku"], "rudder"], // Polish
  [["руль", "высоты"], "elevator"],
  [["rul", "vysoty"], "elevator"], // руль высоты, transliterated
  [["rul", "napravleniya"], "rudder"],
  [["rul", "napravlenija"], "rudder"],
  // Pinyin written in camel case (`ShengJiangDuo`) splits into its syllables.
  [["fu", "yi"], "aileron"],
  [["sheng", "jiang", "duo"], "elevator"],
  [["fang", "xiang", "duo"], "rudder"],
  [["jin", "yi"], "flap"],
  [["feng", "yi"], "slat"],
  [["rao", "liu", "ban"], "spoiler"],
  [["руль", "направления"], "rudder"],
  [["воздушныи", "тормоз"], "air_brake"], // воздушный, its breve dropped as accents are
  [["тормознои", "щиток"], "air_brake"],
];

/** Surfaces whose trim (`Elevator_Trim`) is a tab on them. */
export const TRIMMED_KINDS: readonly PanelKind[] = ["aileron", "elevator", "rudder", "elevon", "ruddervator"];

/**
 * The order kinds win in when a name holds several (`Elevon_Flap` is an elevon): the more specific
 * surface first.
 */
export const KIND_PRIORITY: readonly PanelKind[] = [
  "trim_tab",
  "drag_rudder",
  "ruddervator",
  "leading_edge_flap",
  "slat",
  "air_brake",
  "spoiler",
  "elevon",
  "stabilator",
  "canard",
  "aileron",
  "elevator",
  "rudder",
  "flap",
];

/**
 * Tokens that hint at an all-moving tail but usually name fixed structure (`Stab_L`, `Tailplane_R`
 * with a separate elevator). They count as a stabilator only when nothing else in the model pitches.
 */
export const WEAK_STABILATOR_TOKENS: ReadonlySet<string> = new Set([
  "stab",
  "hstab",
  "tailplane",
  "stabilizer",
  "stabiliser",
  "slab",
]);

/**
 * Kind words that name something else outside an aircraft (French `volet` is a window's shutter, `bec`
 * a spout or a burner; a `Tab` a drawer's pull or a can's): alone they name a panel only in a scene that
 * is an aircraft by another name (`Elevator_Tab` names its surface, and is no such word alone).
 */
export const CONTEXT_TOKENS: ReadonlySet<string> = new Set(["volet", "bec", "tab"]);

/** Words that tell a scene is an aircraft (its structure), in English and the languages above. */
export const AIRCRAFT_TOKENS: ReadonlySet<string> = new Set([
  "wing",
  "fuselage",
  "aile", // French wing
  "rumpf", // German
  "flugel",
  "tragflugel",
  "fuselaje", // Spanish
  "ala",
  "asa", // Portuguese
  "cockpit",
  "canopy",
  "verriere",
  "empennage",
  "derive", // French fin
  "tailplane",
  "stabilizer",
  "stabiliser",
  "nacelle",
  "propeller",
  "helice",
  "aircraft",
  "airplane",
  "aeroplane",
  "avion",
]);
