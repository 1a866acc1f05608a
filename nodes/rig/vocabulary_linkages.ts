/**
 * How names tell control linkages from hinge brackets, in the words files use: a control horn
 * (`ElevatorHorn`, `Horn.001`, German `Ruderhorn`, French `guignol`, Italian `squadretta`), a pushrod or
 * linkage (`Pushrod_L`, `ctrl_rod`, German `Anlenkung`, `Schubstange`, French `tringlerie`, `bielle`),
 * and a bracket, hinge fitting or fairing that hangs a surface (`HingeBracket`, `Hinge_Fairing`,
 * `FlapTrack`, `Canoe`, German `Scharnier`, `Beschlag`, French `charnière`, `ferrure`, `carénage`).
 * Read by `linkages.ts` as a word that corroborates a shape, never as one that overrides it.
 *
 * @module
 */
import { tokenize } from "./vocabulary.ts";

/** What a part's name says it is: a control horn, a pushrod (or linkage), or a bracket or fairing. */
export type LinkageWord = "horn" | "rod" | "bracket";

const WORDS: ReadonlyMap<string, LinkageWord> = new Map([
  ...[
    "horn",
    "horns",
    "ruderhorn",
    "steuerhorn",
    // German writes the surface into one word: a rudder's, an elevator's, an aileron's horn.
    "seitenruderhorn",
    "hohenruderhorn",
    "hoehenruderhorn",
    "querruderhorn",
    "guignol",
    "guignols",
    "squadretta",
  ].map(
    (w) => [w, "horn"] as const,
  ),
  ...[
    "rod",
    "rods",
    "pushrod",
    "pushrods",
    "pullrod",
    "linkage",
    "anlenkung",
    "gestange",
    "schubstange",
    "stosstange",
    "tringlerie",
    "tringle",
    "bielle",
    "biellette",
    "clevis",
    "varilla",
  ].map((w) => [w, "rod"] as const),
  ...[
    "bracket",
    "brackets",
    "hinge",
    "hinges",
    "fairing",
    "fairings",
    "track",
    "tracks",
    "canoe",
    "scharnier",
    "beschlag",
    "verkleidung",
    "charniere",
    "ferrure",
    "carenage",
    "fitting",
  ].map((w) => [w, "bracket"] as const),
]);

/**
 * Words that, beside "horn", make it a horn balance — the surface's own aerodynamic balance reaching
 * ahead of its hinge at the tip (`Rudder_HornBalance`, `Aileron_HornBal`) — and no control horn.
 */
const BALANCE = new Set(["balance", "bal", "balanced", "ausgleich", "compensation", "equilibrage"]);

/**
 * What `name` says a part is ({@link LinkageWord}), or undefined when it says nothing — or both a
 * linkage and a bracket (`HornBracket`), or a horn balance (`HornBalance`): then the shape alone decides.
 *
 * @example
 * ```ts
 * linkageWord("Pushrod_L"); // "rod"
 * linkageWord("Hinge_Fairing.001"); // "bracket"
 * linkageWord("Cube.004"); // undefined
 * ```
 */
export function linkageWord(name: string): LinkageWord | undefined {
  let linkage: LinkageWord | undefined, bracket = false, balance = false;
  for (const token of tokenize(name)) {
    const word = WORDS.get(token);
    if (word === "bracket") bracket = true;
    else if (word) linkage ??= word;
    if (BALANCE.has(token)) balance = true;
  }
  if (bracket) return linkage ? undefined : "bracket";
  return linkage === "horn" && balance ? undefined : linkage;
}
