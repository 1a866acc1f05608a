/**
 * Control-surface vocabulary: names are split into tokens and matched as whole tokens, never as
 * substrings — `LeftAileron` is an aileron (not a "taileron"), `Flight_Aileron_L` is not "light"
 * structure, `Gear_Translation` holds no "slat".
 *
 * @example
 * ```ts
 * tokenize("LEF1_L");            // ["lef", "l"]
 * classifyPanelName("AileronL"); // "aileron"
 * sideFromName("aileron_lh");    // "left"
 * ```
 *
 * @module
 */

/** The panel kinds name search can find. */
export type PanelKind =
  | "aileron"
  | "elevator"
  | "elevon"
  | "stabilator"
  | "canard"
  | "rudder"
  | "flap"
  | "leading_edge_flap"
  | "air_brake"
  | "spoiler"
  | "drag_rudder"
  | "ruddervator"
  | "trim_tab"
  | "slat";

/** Every panel kind, in a stable order. */
export const PANEL_KINDS: readonly PanelKind[] = [
  "aileron",
  "elevator",
  "elevon",
  "stabilator",
  "canard",
  "rudder",
  "flap",
  "leading_edge_flap",
  "air_brake",
  "spoiler",
  "drag_rudder",
  "ruddervator",
  "trim_tab",
  "slat",
];

/** Which side of the aircraft a part is on. */
export type Side = "left" | "right" | "centre";

/**
 * Splits a name into lower-case tokens without accents (`Alerón` → `aleron`): on `_ . - space` and any
 * other non-letter, on digits, at camelCase boundaries (`HStab` → `h`, `stab`; `AileronL` → `aileron`,
 * `l`), and, in Chinese, Japanese and Korean, which write no separators, around the words of
 * {@link CJK_WORDS} (`左副翼` → `左`, `副翼`).
 */
export function tokenize(name: string): string[] {
  const spaced = name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2");
  return spaced.split(/[^\p{L}\p{M}]+/u).filter((t) => t.length > 0)
    .map(withoutAccents).flatMap(splitCjk).flatMap(unglueSide);
}

/**
 * A token in lower case without accents (`alerón` → `aleron`, `höhenruder` → `hohenruder`). Kana and
 * Hangul keep theirs: their voicing marks make other letters (`プ` is not `フ`).
 */
function withoutAccents(token: string): string {
  const lower = token.toLowerCase();
  return CJK.test(lower)
    ? lower.normalize("NFC")
    : lower.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

/**
 * Surface and side words of languages written without spaces, looked for inside a token (longest
 * first), each becoming a token of its own; the kind and side tables below list them.
 */
const CJK_WORDS: readonly string[] = [
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

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A token split around the {@link CJK_WORDS} it holds; any other token is kept whole. */
function splitCjk(token: string): string[] {
  if (!CJK.test(token)) return [token];
  const out: string[] = [];
  let rest = "";
  for (let at = 0; at < token.length;) {
    const word = CJK_WORDS.find((w) => token.startsWith(w, at));
    if (!word) {
      rest += token[at++];
      continue;
    }
    if (rest) out.push(rest);
    rest = "";
    out.push(word);
    at += word.length;
  }
  if (rest) out.push(rest);
  return out;
}

/** Side words names glue after a kind word without a separator (`aileronleft`, `AILERONL`, `flaplb`). */
const GLUED_SUFFIXES = [
  "left",
  "right",
  "links",
  "rechts",
  "port",
  "stbd",
  "lh",
  "rh",
  "lt",
  "rt",
  "lb",
  "rb",
  "l",
  "r",
];
/** Side words glued before one (`leftaileron`); short ones are not, or `rail` would be a right aileron. */
const GLUED_PREFIXES = ["left", "right", "links", "rechts", "port", "stbd"];

/**
 * Splits a token that is a kind word with a side word glued before or after it (`aileronleft` →
 * `aileron`, `left`); any other token is kept whole, so `upright` or `copyright` stay words.
 */
function unglueSide(token: string): string[] {
  if (KIND_TOKENS[singular(token)] || WEAK_STABILATOR_TOKENS.has(singular(token))) return [token];
  const isKind = (t: string) => t.length >= 3 && (KIND_TOKENS[singular(t)] !== undefined);
  for (const side of GLUED_SUFFIXES) {
    if (token.endsWith(side) && isKind(token.slice(0, -side.length))) {
      return [token.slice(0, -side.length), side];
    }
  }
  for (const side of GLUED_PREFIXES) {
    if (token.startsWith(side) && isKind(token.slice(side.length))) return [side, token.slice(side.length)];
  }
  return [token];
}

/** Single tokens that name a kind outright. Plurals are folded to these before lookup. */
const KIND_TOKENS: Readonly<Record<string, PanelKind>> = {
  aileron: "aileron",
  ail: "aileron",
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
  vator: "elevator", // IL-2 1946 `VatorL_D0`
  hohenruder: "elevator", // German Höhenruder
  hoehenruder: "elevator",
  profondeur: "elevator", // French gouverne de profondeur
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
  seitenruder: "rudder",
  timon: "rudder", // Spanish timón (de dirección); timón de profundidad is an elevator
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
  leflap: "leading_edge_flap",
  krueger: "leading_edge_flap",
  kruger: "leading_edge_flap",
  droop: "leading_edge_flap",
  slat: "slat",
  vorflugel: "slat", // German Vorflügel
  bec: "slat", // French bec de bord d'attaque
  предкрылок: "slat",
  スラット: "slat",
  缝翼: "slat",
  airbrake: "air_brake",
  speedbrake: "air_brake",
  divebrake: "air_brake",
  bremsklappe: "air_brake",
  aerofrein: "air_brake", // French aérofrein
  aerofreno: "air_brake", // Spanish, Italian
  減速板: "air_brake",
  减速板: "air_brake",
  エアブレーキ: "air_brake",
  spoiler: "spoiler",
  spoileron: "spoiler",
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
};

/**
 * Token combinations that name a kind together (checked before single tokens, so `drag` + `rudder`
 * is a drag rudder, not a rudder). Every token of a combination must be present.
 */
const KIND_COMPOUNDS: readonly (readonly [readonly string[], PanelKind])[] = [
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
  [["all", "moving", "tail"], "stabilator"],
  [["all", "flying", "tail"], "stabilator"],
  [["gouverne", "direction"], "rudder"], // French gouverne de direction
  [["timon", "profundidad"], "elevator"], // Spanish
  [["timone", "profondita"], "elevator"], // Italian
  [["leme", "profundidade"], "elevator"], // Portuguese
  [["ster", "wysokosci"], "elevator"], // Polish ster wysokości
  [["ster", "kierunku"], "rudder"], // Polish
  [["руль", "высоты"], "elevator"],
  [["руль", "направления"], "rudder"],
  [["воздушныи", "тормоз"], "air_brake"], // воздушный, its breve dropped as accents are
  [["тормознои", "щиток"], "air_brake"],
];

/** Surfaces whose trim (`Elevator_Trim`) is a tab on them. */
const TRIMMED_KINDS: readonly PanelKind[] = ["aileron", "elevator", "rudder", "elevon", "ruddervator"];

/**
 * The order kinds win in when a name holds several (`Elevon_Flap` is an elevon): the more specific
 * surface first.
 */
const KIND_PRIORITY: readonly PanelKind[] = [
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
const WEAK_STABILATOR_TOKENS: ReadonlySet<string> = new Set([
  "stab",
  "hstab",
  "tailplane",
  "stabilizer",
  "stabiliser",
  "slab",
]);

/**
 * Tokens of fixed structure named after what moves in it, and of cockpit or engine parts that share
 * a surface's name (`Aileron_Bay`, `Flap_Track`, `RudderPedal_L`, `Flap_Lever`, `CowlFlap_1`).
 */
const STRUCTURE_TOKENS: ReadonlySet<string> = new Set([
  "well",
  "bay",
  "recess",
  "cavity",
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
]);

/** Name prefixes of rig helper nodes (an authored rig's `HINGE_`/`CTRL_`, our `HINGE_auto_`). */
const RIG_HELPER_PREFIX = /^(hinge|ctrl)_/i;

/** The result of reading a node's name. */
export interface NameMatch {
  /** The kind the name suggests. */
  readonly kind: PanelKind;
  /**
   * True when the match rests on a weak hint (`stab`, `tailplane`): accept it only when no other
   * pitch surface is found.
   */
  readonly weak: boolean;
  /** True when the kind word is plural (`Canards`, `Flaps`): likely a group of panels. */
  readonly plural: boolean;
}

/** True when the name is a rig helper (`HINGE_…`, `CTRL_…`), which name search leaves alone. */
export function isRigHelperName(name: string): boolean {
  return RIG_HELPER_PREFIX.test(name);
}

/**
 * True when a token names fixed structure or a cockpit/engine part rather than a panel, in the
 * singular or plural (`Flap_Brackets`, `AileronHinges`: an empty of brackets is no flap).
 */
export function isStructureToken(token: string): boolean {
  // German `links` (left) reads as the plural of `link`: `Querruder_links` is a left aileron.
  if (token === "links") return false;
  return STRUCTURE_TOKENS.has(token) ||
    (token.length > 3 && token.endsWith("s") && STRUCTURE_TOKENS.has(token.slice(0, -1)));
}

function singular(token: string): string {
  if (token.length > 3 && token.endsWith("s")) {
    const stem = token.slice(0, -1);
    if (KIND_TOKENS[stem] || WEAK_STABILATOR_TOKENS.has(stem)) return stem;
  }
  return token;
}

/**
 * The kind a list of tokens names, ignoring structure tokens (callers decide about those), or
 * undefined. Compounds are checked before single tokens.
 */
export function kindFromTokens(tokens: readonly string[]): NameMatch | undefined {
  const set = new Set(tokens.map(singular));
  const plural = tokens.some((t) => singular(t) !== t);
  const found = new Set<PanelKind>();
  for (const [parts, kind] of KIND_COMPOUNDS) {
    if (parts.every((p) => set.has(p))) found.add(kind);
  }
  for (const token of set) {
    const kind = KIND_TOKENS[token];
    if (kind) found.add(kind);
  }
  // "Trim" beside a control surface names its trim tab (`ElevatorTrim`, `TrimElevator`, `Rudder_Trim`,
  // as the MSFS SDK's elevator page names the trim's mesh and helper), not the surface.
  if ((set.has("trim") || set.has("trimmer")) && TRIMMED_KINDS.some((kind) => found.has(kind))) {
    found.add("trim_tab");
  }
  for (const kind of KIND_PRIORITY) if (found.has(kind)) return { kind, weak: false, plural };
  // A vertical stabiliser is a fin, never a stabilator.
  if (set.has("vertical") || set.has("fin") || set.has("vert")) return undefined;
  for (const token of set) {
    if (WEAK_STABILATOR_TOKENS.has(token)) return { kind: "stabilator", weak: true, plural };
  }
  return undefined;
}

/**
 * The panel kind a node name suggests, or undefined for names that suggest none, name fixed
 * structure (`Flap_Track`), a cockpit part (`RudderPedal_L`) or a rig helper (`HINGE_…`).
 *
 * @example
 * ```ts
 * classifyPanelName("Flight_Aileron_L"); // "aileron"
 * classifyPanelName("CowlFlap_1");       // undefined
 * ```
 */
export function classifyPanelName(name: string): PanelKind | undefined {
  return matchPanelName(name)?.kind;
}

/** Like {@link classifyPanelName}, telling also whether the match is weak. */
export function matchPanelName(name: string): NameMatch | undefined {
  if (isRigHelperName(name)) return undefined;
  const tokens = tokenize(name);
  if (tokens.some(isStructureToken)) return undefined;
  return kindFromTokens(tokens);
}

/**
 * The kind of an author-declared part, from its name and `group` extra (`CTRL_Elevon_L`, group
 * `elevons`). Rig prefixes are dropped; structure words still veto (a rigged `RudderPedal` is no
 * rudder).
 */
export function classifyPartName(name: string, group?: string): PanelKind | undefined {
  const tokens = tokenize(`${name} ${group ?? ""}`).filter((t) => t !== "ctrl" && t !== "auto");
  const withoutLeadingHinge = tokens[0] === "hinge" ? tokens.slice(1) : tokens;
  if (withoutLeadingHinge.some(isStructureToken)) return undefined;
  return kindFromTokens(withoutLeadingHinge)?.kind;
}

// Other languages' words for left and right (`izquierdo`, `sinistra`, `левый`, `左`); short forms only
// where they name nothing else (`izq`, `esq`, `лев`), never one letter (`d` is a damage level in
// `VatorL_D0`).
const LEFT_TOKENS: ReadonlySet<string> = new Set([
  "l",
  "left",
  "port",
  "lh",
  "lt",
  "lb",
  "links",
  "gauche",
  "izquierdo",
  "izquierda",
  "izq",
  "sinistro",
  "sinistra",
  "esquerdo",
  "esquerda",
  "esq",
  "lewy",
  "lewa",
  "levy",
  "leva",
  "vanster",
  "левыи",
  "левая",
  "лев",
  "左",
  "왼쪽",
  "좌",
]);
const RIGHT_TOKENS: ReadonlySet<string> = new Set([
  "r",
  "right",
  "starboard",
  "stbd",
  "stb",
  "rh",
  "rt",
  "rb",
  "rechts",
  "droite",
  "derecho",
  "derecha",
  "destro",
  "destra",
  "direito",
  "direita",
  "prawy",
  "prawa",
  "pravy",
  "prava",
  "hoger",
  "правыи",
  "правая",
  "прав",
  "右",
  "오른쪽",
  "우",
]);
const CENTRE_TOKENS: ReadonlySet<string> = new Set(["c", "centre", "center", "ctr"]);

/**
 * The side a name states (`_L`, `.L`, `Left`, `Port`, `lh`, `l_` prefix; `_R`, `Right`,
 * `Starboard`, `stbd`, `rh`; `_C`, `Centre`), or undefined when it states none or contradicts itself.
 */
export function sideFromName(name: string): Side | undefined {
  const sides = new Set<Side>();
  for (const token of tokenize(name)) {
    if (LEFT_TOKENS.has(token)) sides.add("left");
    else if (RIGHT_TOKENS.has(token)) sides.add("right");
    else if (CENTRE_TOKENS.has(token)) sides.add("centre");
  }
  return sides.size === 1 ? [...sides][0] : undefined;
}

/**
 * Which way a split or two-sided surface opens, if its name says (`Upper`, `Top`, `Dorsal` → up;
 * `Lower`, `Bottom`, `Under`, `Ventral` → down).
 */
export function openingFromName(name: string): "up" | "down" | undefined {
  const tokens = tokenize(name);
  if (tokens.some((t) => t === "upper" || t === "top" || t === "dorsal" || t === "up")) return "up";
  if (
    tokens.some((t) => t === "lower" || t === "bottom" || t === "under" || t === "ventral" || t === "down")
  ) {
    return "down";
  }
  return undefined;
}
