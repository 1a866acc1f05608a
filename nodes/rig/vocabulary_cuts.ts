/**
 * Names an old format's name field cut mid-word, read with the rest of the file: `FLAP_LEF` is a flap
 * whose `LEFT` was cut at 8 characters, or a flap named for a leading-edge flap (`LEF`). The file
 * decides where it can — its other names cut at the same length (the field was full), or a mirror
 * partner (`FLAP_RIG`, `FLAP_RIGHT`, `FLAP_R`) — and says where it cannot.
 *
 * @example
 * ```ts
 * cutReadings(["FLAP_LEF", "FLAP_RIG", "AILERON_"]).get("FLAP_LEF"); // { match: flap, decided: true }
 * ```
 *
 * @module
 */
import { kindFromTokens, type NameMatch, RIGHT_SIDE_WORDS, tokenize } from "./vocabulary.ts";
import { TRIMMED_KINDS } from "./vocabulary_words.ts";

/** How a name with two readings was read. */
export interface CutReading {
  /** The reading taken. */
  readonly match: NameMatch;
  /** True when the file decided it; false when both readings stand (the name's own is kept). */
  readonly decided: boolean;
  /** The kind of the reading not taken. */
  readonly other: string;
}

/** Right-side words and the cuts of them a name field leaves (`RIG`, `RIGH`). */
const RIGHT_CUTS: ReadonlySet<string> = new Set([...RIGHT_SIDE_WORDS, "rig", "righ", "rgh", "ri"]);

/** The ends of `tab` and `trim` a full name field leaves as a word of their own. */
const CUT_TABS: ReadonlySet<string> = new Set(["t", "ta", "tr", "tri", "trimt", "trimta"]);

/** A converter's counter for names the cut made equal (`FLAP_LEF.001`), and an 8.3 extension. */
const SUFFIX = /(\.\d{3})+$/;

/**
 * The names of a file (`names`, as name search reads them) that end in `LEF` after another kind word,
 * each with the reading taken: that kind with its side cut where the file shows its names were cut at
 * that length or a right-hand partner exists, else the leading-edge flap its name says, undecided.
 */
export function cutReadings(
  names: readonly string[],
  partnered?: ReadonlySet<string>,
): Map<string, CutReading> {
  const out = new Map<string, CutReading>();
  const full = fieldFull(names);
  const tokenLists = new Set(names.map((n) => tokenize(n, partnered).join(" ")));
  for (const name of new Set(names)) {
    const tokens = tokenize(name, partnered);
    const surface = kindFromTokens(tokens.slice(0, -1));
    // `ELEV_LH_TA`, `Rudder_Tri`, `Left_ElevT`: a tab's word cut where the field is full.
    if (full(name) && CUT_TABS.has(tokens.at(-1)!) && surface && TRIMMED_KINDS.includes(surface.kind)) {
      const tab: NameMatch = { kind: "trim_tab", weak: false, plural: false };
      out.set(name, { match: tab, decided: true, other: surface.kind });
      continue;
    }
    if (tokens.at(-1) !== "lef" || tokens.length < 2) continue;
    const rest = tokens.slice(0, -1);
    const cutKind = kindFromTokens(rest);
    if (!cutKind || cutKind.kind === "leading_edge_flap") continue;
    const own = kindFromTokens(tokens)!;
    const cut = full(name);
    const partner = [...RIGHT_CUTS].some((r) => tokenLists.has([...rest, r].join(" ")));
    out.set(
      name,
      cut || partner
        ? { match: cutKind, decided: true, other: own.kind }
        : { match: own, decided: false, other: cutKind.kind },
    );
  }
  return out;
}

/**
 * Tells whether a name of `names` fills its file's name field: three or more names (a converter's
 * `.001` aside) as long as the longest, none longer, at most 31 characters — the field was full, so its
 * last word may be cut.
 */
export function fieldFull(names: readonly string[]): (name: string) => boolean {
  // A loop, not Math.max(...lengths): a file of a million names would overflow the call stack.
  let longest = 0, atLongest = 0;
  for (const name of names) {
    const length = name.replace(SUFFIX, "").length;
    if (length > longest) {
      longest = length;
      atLongest = 0;
    }
    if (length === longest) atLongest++;
  }
  return (name) => atLongest >= 3 && longest <= 31 && name.replace(SUFFIX, "").length === longest;
}

/** True when a name ends in what a name field leaves of `tab` or `trim` (`Rudder_Tri`, `ELEV_LH_TA`). */
export function endsInCutTab(name: string): boolean {
  return CUT_TABS.has(tokenize(name).at(-1) ?? "");
}
