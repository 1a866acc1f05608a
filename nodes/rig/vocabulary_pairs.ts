/**
 * Side letters a file's names pair: one letter is a side in one habit and another in the next, so the
 * file's other letter tells. `P` is port (left) beside `S` (starboard), but prawy/pravý/правый (right)
 * beside `L` (Polish, Czech, Russian transliterated); `D` is right (droite, derecho, direito) beside `G`,
 * `I` or `E` (gauche, izquierdo, esquerdo). A letter no partner pairs states no side.
 *
 * @example
 * ```ts
 * pairedLetters(["Aileron_P", "Aileron_S"]).get("p"); // "left"
 * pairedLetters(["Lotka_L", "Lotka_P"]).get("p");     // "right"
 * pairedLetters(["Aileron_P", "Rudder"]).get("p");    // undefined: port, or prawy
 * ```
 *
 * @module
 */
import { AIRCRAFT_TOKENS, KIND_COMPOUNDS, KIND_TOKENS } from "./vocabulary_words.ts";

/** Letters that are a side only where the file pairs them. */
export const PAIR_LETTERS: ReadonlySet<string> = new Set(["p", "s", "i", "d", "e", "g"]);

/** The letters read glued onto a kind word: these and the plain side letters. */
const GLUED: ReadonlySet<string> = new Set([...PAIR_LETTERS, "l", "r"]);

/** Letters that may name a side: these, `L`, `R` and `C` (centre). */
const SIDE_LETTERS: ReadonlySet<string> = new Set([...GLUED, "c"]);

/** A word of a name in lower case without accents, split at case changes (`AileronP` → `aileron`, `p`). */
function words(name: string): string[] {
  return name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/[^\p{L}]+/u).filter((w) => w);
}

/** A kind word, singular or plural (`aileron`, `flaps`). */
function isKindWord(word: string): boolean {
  return KIND_TOKENS[word] !== undefined ||
    (word.endsWith("s") && KIND_TOKENS[word.slice(0, -1)] !== undefined);
}

/**
 * Whether a name's words name a kind: one kind word, or every word of a compound (`ster wysokosci`,
 * Polish for elevator, whose `Ster_wysokosci_P` beside `Ster_wysokosci_L` is the right one).
 */
function namesKind(list: readonly string[]): boolean {
  return list.some(isKindWord) || KIND_COMPOUNDS.some(([parts]) => parts.every((p) => list.includes(p)));
}

/**
 * The side letters of {@link PAIR_LETTERS} written beside or glued onto a kind word in `names`
 * (`Aileron_P`, `AILERONP`, `P_Flap`), each with the side its partner in the file gives it.
 */
export function pairedLetters(names: Iterable<string>): ReadonlyMap<string, "left" | "right"> {
  const seen = new Set<string>();
  for (const name of names) {
    const list = words(name);
    const kinded = namesKind(list);
    for (const word of list) {
      if (word.length === 1 && kinded) seen.add(word);
      // Glued after a kind word (`aileronp`, `flaps` beside `flapp`), or before one of 4 letters or more.
      const last = word.at(-1)!;
      // `flape` is Portuguese for flap; French `aile` (a wing) is no `AIL` with an E glued on.
      if (word.length < 4 || KIND_TOKENS[word] || AIRCRAFT_TOKENS.has(word)) continue;
      // `KLAPAL` beside `KLAPAP`: the L pairs the P as a letter written apart would.
      if (GLUED.has(last) && KIND_TOKENS[word.slice(0, -1)]) seen.add(last);
      if (word.length > 4 && GLUED.has(word[0]) && KIND_TOKENS[word.slice(1)]) seen.add(word[0]);
    }
  }
  const out = new Map<string, "left" | "right">();
  // Letters beside kind words that are no side (`Flap_A` … `Flap_E`, `Spoiler_F`): a series, not sides.
  if ([...seen].some((l) => l.length === 1 && !SIDE_LETTERS.has(l))) return out;
  // Port and starboard, where no L says P is prawy.
  if (seen.has("p") && seen.has("s") && !seen.has("l") && !seen.has("r")) {
    out.set("p", "left").set("s", "right");
  } // Lewy and prawy, where no S says P is port and no R names the right otherwise.
  else if (seen.has("l") && seen.has("p") && !seen.has("s") && !seen.has("r")) out.set("p", "right");
  // Gauche, izquierdo, esquerdo and their right, D.
  const lefts = ["g", "i", "e"].filter((l) => seen.has(l));
  if (seen.has("d") && lefts.length > 0) {
    out.set("d", "right");
    for (const l of lefts) out.set(l, "left");
  }
  return out;
}

/** The kind of surface a word of a name names, its side letter glued on or not (`aileronp`, `flaps`). */
function kindOfWord(word: string): string | undefined {
  if (isKindWord(word)) return KIND_TOKENS[word] ?? KIND_TOKENS[word.slice(0, -1)];
  if (word.length < 4 || AIRCRAFT_TOKENS.has(word)) return undefined;
  if (GLUED.has(word.at(-1)!) && KIND_TOKENS[word.slice(0, -1)]) return KIND_TOKENS[word.slice(0, -1)];
  if (word.length > 4 && GLUED.has(word[0])) return KIND_TOKENS[word.slice(1)];
  return undefined;
}

/**
 * The side letters each kind of surface's names pair on their own (see {@link pairedLetters}), for a
 * kit-bashed file whose parts come from authors of different habits: the wings' `AileronP`/`AileronS`
 * (port and starboard) beside the tail's `Elevator_L`/`Elevator_P` (lewy, prawy). The file's letters
 * pair neither (L, P and S together); each kind's do. Kinds pairing no letter are left out.
 */
export function kindPairedLetters(
  names: Iterable<string>,
): ReadonlyMap<string, ReadonlyMap<string, "left" | "right">> {
  const byKind = new Map<string, string[]>();
  for (const name of names) {
    const kinds = new Set(words(name).map(kindOfWord).filter((k) => k !== undefined));
    // A name of two kinds (`Aileron_Trim_Tab_L`) is no one kind's.
    if (kinds.size !== 1) continue;
    const [kind] = kinds;
    // Pushed in place: copying the list per name was quadratic in one kind's names.
    const list = byKind.get(kind);
    if (list) list.push(name);
    else byKind.set(kind, [name]);
  }
  const out = new Map<string, ReadonlyMap<string, "left" | "right">>();
  for (const [kind, list] of [...byKind].sort(([a], [b]) => a < b ? -1 : 1)) {
    const letters = pairedLetters(list);
    if (letters.size > 0) out.set(kind, letters);
  }
  return out;
}

/**
 * True when `name` writes a `P` beside or glued onto a kind word (`Aileron_P`, `AILERONP`) that the
 * file's names (`letters`, from {@link pairedLetters}) do not pair: port (left) in English, prawy, pravý,
 * правый (right) in Polish, Czech and Russian — its side is for the geometry to tell, and to say.
 */
export function unpairedP(name: string, letters: ReadonlyMap<string, string> | undefined): boolean {
  if (letters?.has("p")) return false;
  const list = words(name);
  return list.some((w) => w === "p") && namesKind(list) ||
    list.some((w) => w.length > 4 && w.endsWith("p") && !KIND_TOKENS[w] && KIND_TOKENS[w.slice(0, -1)]);
}
