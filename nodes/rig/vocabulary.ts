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
import type { PanelKind } from "./panel_kind.ts";
import {
  AIRCRAFT_TOKENS,
  CONTEXT_TOKENS,
  KIND_COMPOUNDS,
  KIND_PRIORITY,
  KIND_TOKENS,
  TRIMMED_KINDS,
  WEAK_STABILATOR_TOKENS,
} from "./vocabulary_words.ts";
import { STRUCTURE_TOKENS } from "./vocabulary_structure.ts";
import { cutGlued, singular } from "./vocabulary_glued.ts";
import { kindPairedLetters, pairedLetters } from "./vocabulary_pairs.ts";
import { unmangled } from "./vocabulary_mojibake.ts";
import { plainTokens, splitCjk, withoutAccents } from "./vocabulary_tokens.ts";
import {
  CENTRE_TOKENS,
  FRENCH_SURFACE_TOKENS,
  GLUED_PREFIXES,
  GLUED_SUFFIXES,
  GLUED_WORDS,
  LANGUAGE_SIDES,
  LEFT_TOKENS,
  RIGHT_TOKENS,
} from "./vocabulary_sides.ts";

// The kinds live in a leaf module the word tables can name without importing this one.
export { PANEL_KINDS, type PanelKind } from "./panel_kind.ts";

/** Which side of the aircraft a part is on. */
export type Side = "left" | "right" | "centre";

/**
 * Splits a name into lower-case tokens without accents (`Alerón` → `aleron`): on `_ . - space` and any
 * other non-letter, on digits, at camelCase boundaries (`HStab` → `h`, `stab`; `AileronL` → `aileron`,
 * `l`), and, in Chinese, Japanese and Korean, which write no separators, around the words of
 * `CJK_WORDS` (`左副翼` → `左`, `副翼`).
 */
export function tokenize(name: string, partnered?: FileWords): string[] {
  // Without a file's words a name's tokens are its own: each distinct name is read once (vocabulary_tokens.ts).
  return partnered === undefined ? plainTokens(name, tokensOf) : tokensOf(name, partnered);
}

/** {@link tokenize}, read afresh. */
function tokensOf(name: string, partnered?: FileWords): string[] {
  const spaced = unmangled(name)
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2");
  return spaced.split(/[^\p{L}\p{M}]+/u).filter((t) => t.length > 0)
    .map(withoutAccents).flatMap(splitCjk).flatMap((t) => unglueSide(t, partnered));
}

/**
 * What a file's names tell about reading each of them: the ordinary words read as a side glued to a kind
 * word there (see {@link partneredWords}), and the side letters the file pairs (`letters`, see
 * `vocabulary_pairs.ts`: `P` is port beside `S`, prawy beside `L`).
 */
export type FileWords = ReadonlySet<string> & {
  readonly letters?: ReadonlyMap<string, "left" | "right">;
  /**
   * The side letters each kind of surface's names pair on their own (`vocabulary_pairs.ts`
   * `kindPairedLetters`): a kit-bashed file's wings in port and starboard, its tail in lewy and prawy.
   */
  readonly kindLetters?: ReadonlyMap<string, ReadonlyMap<string, "left" | "right">>;
};

/**
 * The side a file's `partnered` words give `letter` in a name of surface `kind`: the kind's own pairing
 * first (a kit-bashed file's parts each in their author's habit), else the file's.
 */
export function letterSide(
  partnered: FileWords | undefined,
  letter: string,
  kind: string | undefined,
): "left" | "right" | undefined {
  const own = kind === undefined ? undefined : partnered?.kindLetters?.get(kind);
  const side = own?.get(letter) ?? partnered?.letters?.get(letter);
  if (side || own) return side;
  // A name of no kind pairing it (`Wing_P`, a letter read alone) takes the side every kind gives it, if one.
  const sides = new Set([...partnered?.kindLetters?.values() ?? []].map((l) => l.get(letter)));
  sides.delete(undefined);
  return sides.size === 1 ? [...sides][0] : undefined;
}

/**
 * The ordinary words of {@link GLUED_WORDS} to read as a side glued to a kind word in a scene of `names`:
 * those whose mirror is there too (`RAIL` beside `LAIL`, as a file abbreviating a left aileron `LAIL`
 * names its right one), and no other; with the side letters the names pair (`Aileron_P` beside
 * `Aileron_S`).
 */
export function partneredWords(names: Iterable<string>): FileWords {
  // Which names there are tells, not how often each is written (sets, or sorted): 30,000 unnamed nodes are one "".
  const list = [...new Set(names)];
  const tokens = new Set<string>();
  // Words as written, before a glued side is read off them (`LAIL` is `lail` here, not `l`, `ail`).
  for (const name of list) for (const t of name.toLowerCase().split(/[^\p{L}]+/u)) tokens.add(t);
  const mirror = (word: string) => (word[0] === "r" ? "l" : "r") + word.slice(1);
  const words = new Set([...GLUED_WORDS].filter((word) => tokens.has(mirror(word))));
  // A plural (`AILERONS`) is a starboard one only beside its port one (`AILERONP`).
  for (const t of tokens) if (t.endsWith("s") && tokens.has(`${t.slice(0, -1)}p`)) words.add(t);
  return Object.assign(words, { letters: pairedLetters(list), kindLetters: kindPairedLetters(list) });
}

/** A side letter glued to a level mark (`AileronLLOD1`, `Rudder_RLOD0`: `llod` → `l`, `lod`). */
const SIDE_LEVEL = /^([lr])(lod)$/;

/**
 * Splits a token that is a kind word with a side word glued before or after it (`aileronleft` →
 * `aileron`, `left`; `lflap` → `l`, `flap`), or a side letter glued to a level mark (`llod` → `l`,
 * `lod`); any other token is kept whole, so `upright`, `copyright` and `rail` stay words.
 */
function unglueSide(token: string, partnered?: FileWords): string[] {
  // A side letter the file pairs, glued on (`AILERONP` beside `AILERONS`; `flape` is a word).
  // French `aile` (a wing) is no `AIL` with an E glued on, beside a Portuguese tail's E and D.
  if (
    (partnered?.letters || partnered?.kindLetters) && token.length > 3 && !KIND_TOKENS[token] &&
    !AIRCRAFT_TOKENS.has(token)
  ) {
    const last = token.at(-1)!, after = KIND_TOKENS[token.slice(0, -1)], before = KIND_TOKENS[token.slice(1)];
    if (after && letterSide(partnered, last, after) && (last !== "s" || partnered!.has(token))) {
      return [token.slice(0, -1), last];
    }
    if (token.length > 4 && before && letterSide(partnered, token[0], before)) {
      return [token[0], token.slice(1)];
    }
  }
  // A `P` glued on is a side either way (port, or prawy: vocabulary_pairs.ts), which the file may tell.
  if (token.length > 4 && token.endsWith("p") && !KIND_TOKENS[token] && KIND_TOKENS[token.slice(0, -1)]) {
    return [token.slice(0, -1), "p"];
  }
  if (KIND_TOKENS[singular(token)] || WEAK_STABILATOR_TOKENS.has(singular(token))) return [token];
  if (GLUED_WORDS.has(token) && !partnered?.has(token)) return [token];
  const level = SIDE_LEVEL.exec(token);
  if (level) return [level[1], level[2]];
  // A level mark glued on in capitals (`RUDLOD1`, `AILRNLLOD0`): the kind word, its side, the mark.
  if (token.length > 3 && token.endsWith("lod")) {
    const before = unglueSide(token.slice(0, -3));
    if (before.some((t) => KIND_TOKENS[singular(t)] !== undefined)) return [...before, "lod"];
  }
  const isKind = (t: string) => t.length >= 3 && (KIND_TOKENS[singular(t)] !== undefined);
  for (const side of GLUED_SUFFIXES) {
    if (token.endsWith(side) && isKind(token.slice(0, -side.length))) {
      return [token.slice(0, -side.length), side];
    }
  }
  for (const side of GLUED_PREFIXES) {
    if (token.startsWith(side) && isKind(token.slice(side.length))) return [side, token.slice(side.length)];
  }
  // A side word of a language glued to its surface word (`QUERRUDERLI`, `DIRAILERAO`, `DCHOALERON`).
  for (const { surfaces, left, right } of LANGUAGE_SIDES) {
    for (const side of [...left, ...right]) {
      if (token.endsWith(side) && surfaces.has(token.slice(0, -side.length))) {
        return [token.slice(0, -side.length), side];
      }
      if (token.startsWith(side) && surfaces.has(token.slice(side.length))) {
        return [side, token.slice(side.length)];
      }
    }
  }
  return cutGlued(token, isKind);
}

/** Words naming the right side, whole (for readers of cut names: `vocabulary_cuts.ts`). */
export const RIGHT_SIDE_WORDS: ReadonlySet<string> = RIGHT_TOKENS;

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
  /**
   * True when the match rests on a word that names something else outside an aircraft (`Volet_G`, a
   * shutter in a house): accept it only in a scene that is an aircraft by another name.
   */
  readonly contextual?: boolean;
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
  for (const kind of KIND_PRIORITY) {
    if (!found.has(kind)) continue;
    // Only the ambiguous word names the kind: no other word of the name does.
    const contextual = [...set].some((t) => CONTEXT_TOKENS.has(t)) &&
      ![...set].some((t) => KIND_TOKENS[t] && !CONTEXT_TOKENS.has(t)) &&
      !KIND_COMPOUNDS.some(([parts]) => parts.every((p) => set.has(p)));
    return contextual ? { kind, weak: false, plural, contextual } : { kind, weak: false, plural };
  }
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

/** True when a name holds a word that tells the scene is an aircraft (`Wing_L`, `Fuselage`, `Aile`). */
export function namesAircraft(name: string): boolean {
  return tokenize(name).some((t) => AIRCRAFT_TOKENS.has(t));
}

/**
 * Like {@link classifyPanelName}, telling also whether the match is weak. `partnered` words (see
 * {@link partneredWords}) are read as a side glued to a kind word.
 */
export function matchPanelName(name: string, partnered?: FileWords): NameMatch | undefined {
  if (isRigHelperName(name)) return undefined;
  const tokens = tokenize(name, partnered);
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

/** Kind words cut to end in a side letter (`AILR` of `AILRN`, `AIL` + `R`). */
const CUT_ENDS: ReadonlySet<string> = new Set(
  Object.keys(KIND_TOKENS).flatMap((word) =>
    Array.from({ length: word.length - 4 }, (_, i) => word.slice(0, i + 4))
      .filter((cut) => /[lr]$/.test(cut) && KIND_TOKENS[cut.slice(0, -1)] && !KIND_TOKENS[cut])
  ),
);

/**
 * The side a name states (`_L`, `.L`, `Left`, `Port`, `lh`, `l_` prefix; `_R`, `Right`,
 * `Starboard`, `stbd`, `rh`; `_C`, `Centre`; French `G`/`D`, German `li`/`re`, Spanish `der` beside a
 * surface word of their language; with the file's words, `partnered`, its paired letters and glued
 * words: `Aileron_P` beside `Aileron_S`, `RAIL` beside `LAIL`), or undefined when it states none or
 * contradicts itself.
 */
export function sideFromName(name: string, partnered?: FileWords): Side | undefined {
  const sides = new Set<Side>();
  const tokens = tokenize(name, partnered);
  // The surface the name is of, whose own pairing reads its letters first (`letterSide`).
  const kind = partnered?.kindLetters?.size
    ? tokens.map((t) => KIND_TOKENS[singular(t)]).find((k) => k)
    : undefined;
  for (const [at, token] of tokens.entries()) {
    // A leading `c_` is FS modellers' control prefix (`c_aileron_left`), no centre: `Rudder_C` is one.
    if (at === 0 && token === "c" && tokens.length > 1 && /^c[_\s.-]/i.test(name.trim())) continue;
    if (LEFT_TOKENS.has(token)) sides.add("left");
    else if (RIGHT_TOKENS.has(token)) sides.add("right");
    else if (CENTRE_TOKENS.has(token)) sides.add("centre");
    else if (letterSide(partnered, token, kind)) sides.add(letterSide(partnered, token, kind)!);
  }
  // `LFT_AILR`: the R of a cut `AILRN` against a side word is the word's own, no side.
  const cut = sides.size === 2
    ? name.toLowerCase().split(/[^\p{L}]+/u).find((w) => CUT_ENDS.has(w))
    : undefined;
  if (cut) return sideFromName(name.replace(new RegExp(cut, "i"), cut.slice(0, -1)), partnered);
  if (sides.size === 0 && tokens.some((t) => FRENCH_SURFACE_TOKENS.has(t))) {
    for (const letter of frenchSideLetters(name)) sides.add(letter === "g" ? "left" : "right");
  }
  for (const language of sides.size === 0 ? LANGUAGE_SIDES : []) {
    // Pinyin in camel case (`FuYi_you`) splits into syllables: its word is read across them.
    const joined = tokens.join("");
    if (
      !tokens.some((t) => language.surfaces.has(t)) && ![...language.surfaces].some((w) => joined.includes(w))
    ) {
      continue;
    }
    for (const token of tokens) {
      if (language.left.has(token)) sides.add("left");
      else if (language.right.has(token)) sides.add("right");
    }
  }
  return sides.size === 1 ? [...sides][0] : undefined;
}

/**
 * The letters `g` and `d` standing alone in a name: between separators, or a capital after a
 * lower-case word (`VoletG`), never glued to a digit or a word (`D0`, `Gouverne`).
 */
function frenchSideLetters(name: string): string[] {
  // The `d` of `bord d'attaque` (`Bec_de_bord_d_attaque_G`) is elided `de`, no side.
  const alone = /(?:(?<![\p{L}\p{N}])[GgDd]|(?<=\p{Ll})[GD])(?![\p{L}\p{N}])(?![\W_]+attaque)/gu;
  return [...name.matchAll(alone)].map((m) => m[0].toLowerCase());
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
