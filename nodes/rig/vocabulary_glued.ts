/**
 * Side words glued onto a kind word as old 8-character, 8.3 and `.3ds` (10-character) name fields
 * leave them (`LEFTAILR`, `AILRNLEF`, `FLAPLINN`, `RUDDERTRIM`): the part of name reading
 * `vocabulary.ts`'s tokenizer hands tokens it cannot split otherwise.
 *
 * @module
 */
import { KIND_TOKENS, TRIMMED_KINDS, WEAK_STABILATOR_TOKENS } from "./vocabulary_words.ts";
import { GLUED_PREFIXES, GLUED_SUFFIXES, LEFT_TOKENS } from "./vocabulary_sides.ts";

/** A kind word's singular (`flaps` → `flap`); any other token as it is. */
export function singular(token: string): string {
  if (token.length > 3 && token.endsWith("s")) {
    const stem = token.slice(0, -1);
    if (KIND_TOKENS[stem] || WEAK_STABILATOR_TOKENS.has(stem)) return stem;
  }
  return token;
}

/** The ends of side words a cut name field leaves glued after a kind word (`AILRNLEF`, `AILRNPOR`). */
const CUT_SIDES: Readonly<Record<string, string>> = {
  le: "left",
  lf: "left",
  lef: "left",
  ri: "right",
  rg: "right",
  stb: "stbd",
  st: "stbd",
  po: "port",
  rig: "right",
  righ: "right",
  rgh: "right",
  por: "port",
  star: "starboard",
  starb: "starboard",
};
/** Qualifiers glued after a side, whole or cut (`FLAPLINN`, `LTFLAPOU`: inner, outer). */
const QUALIFIERS = ["inner", "outer", "inboard", "outboard", "inbd", "outbd", "upper", "lower"];
/**
 * A tab glued after its surface's word, whole or cut by a `.3ds` name's 10 characters (`RUDDERTRIM`,
 * `ELEVTAB_L`, `ELEVATORTA`): read as the words `trim` and `tab`.
 */
const GLUED_TABS: Readonly<Record<string, readonly string[]>> = {
  tab: ["tab"],
  ta: ["tab"],
  trim: ["trim"],
  tri: ["trim"],
  trimtab: ["trim", "tab"],
  trimta: ["trim", "tab"],
  trimt: ["trim", "tab"],
  tr: ["trim"],
  t: ["tab"],
};

/**
 * A token that glues a side onto a kind word as old 8-character and 8.3 names do, beyond what
 * {@link unglueSide} reads: a side before and after (`LEFTAILR`: the `R` of `AILRN` contradicts `LEFT`,
 * so it belongs to the word), a side cut part-way (`AILRNLEF`), a cut qualifier after the side
 * (`FLAPLINN`, `LTFLAPOU`); any other token is kept whole. `tab` is left out: it begins `table`, `tablo`.
 */
export function cutGlued(token: string, isKind: (t: string) => boolean): string[] {
  for (const prefix of ["", ...GLUED_PREFIXES]) {
    if (!token.startsWith(prefix)) continue;
    const rest = token.slice(prefix.length);
    for (let end = rest.length; end >= 3; end--) {
      const kind = rest.slice(0, end);
      // The word as written (`ELEVATORST` is no plural `elevators` and a `T`).
      if (!isKind(kind) || !KIND_TOKENS[kind] || kind === "tab") continue;
      const tail = rest.slice(end);
      // `RUDDERTRIM`, `ELEVTAB`, `LELEVTAB`: a surface's tab, its side before it if any.
      if (GLUED_TABS[tail] && kind.length >= 4 && TRIMMED_KINDS.includes(KIND_TOKENS[singular(kind)])) {
        return [...(prefix ? [prefix] : []), kind, ...GLUED_TABS[tail]];
      }
      const after = readGluedTail(tail, prefix !== "", kind.length >= 4);
      if (!after) continue;
      const side = after[0];
      const tokens = prefix ? [prefix, kind] : [kind];
      // `LEFTAILR`: a letter against the side before it is the word's own (`AILRN` cut), no side.
      const against = prefix && side && LEFT_TOKENS.has(prefix) !== LEFT_TOKENS.has(side) &&
        side.length === 1;
      if (side && !against) tokens.push(side);
      return [...tokens, ...after.slice(1)];
    }
  }
  return [token];
}

/**
 * What follows a kind word in a glued token: a side (whole or cut) and a cut qualifier, as
 * `[side, qualifier]` (either may be empty); undefined when it is anything else, or nothing or a
 * one-letter qualifier without a side before the word.
 */
function readGluedTail(tail: string, sided: boolean, longKind: boolean): string[] | undefined {
  if (tail === "") return sided ? [""] : undefined;
  for (const side of [...GLUED_SUFFIXES, ...Object.keys(CUT_SIDES)]) {
    if (!tail.startsWith(side)) continue;
    const rest = tail.slice(side.length);
    // A cut side ends the name field; a one-letter qualifier follows only a side of two letters or more.
    const least = side.length >= 2 ? 1 : 2;
    const cut = CUT_SIDES[side] !== undefined && !GLUED_SUFFIXES.includes(side);
    if (rest !== "" && (cut || !(rest.length >= least && QUALIFIERS.some((q) => q.startsWith(rest))))) {
      continue;
    }
    return [CUT_SIDES[side] ?? side, ...(rest ? [rest] : [])];
  }
  // `FLAPINBD`: a qualifier alone after a word of four letters or more (`SPLIN` is no spoiler).
  const least = sided ? 1 : longKind ? 2 : Infinity;
  if (tail.length >= least && QUALIFIERS.some((q) => q.startsWith(tail))) return ["", tail];
  return undefined;
}
