/**
 * Whole scenes renamed into the side habits whose letters only the file's other names explain: a
 * ship-minded modeller's port and starboard `P`/`S` (`Aileron_P`, `AileronS`), Polish, Czech and Russian
 * `L`/`P` (lewy/prawy, levý/pravý, левый/правый), Spanish `I`/`D` (izquierdo, derecho), Portuguese `E`/`D`
 * (esquerdo, direito) and French `G`/`D` beside English kind words, half the files with their own kind
 * words too (`Lotka_P`, `Aleron_I`, `Ailerao_E`, `Profondeur_G`). A side letter is written apart, glued on
 * after the kind word (`AileronP`, what `AileronLeft` becomes) or before it (`PAileron`), in the scene's
 * case. Every node and mesh of an English scene (`Aileron_L`, `aileron.l`, `AileronLeft`, `L_Aileron`,
 * `Spitfire_Aileron_L_LOD1`, `Wing_R`) is renamed so; what the scene's truth says of each panel holds.
 * Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";

/** A side habit: its left and right letters and, for its own language, kind words. */
export interface SideHabit {
  readonly label: string;
  readonly left: string;
  readonly right: string;
  /** English kind words (lower case) to the habit's own. */
  readonly words: Readonly<Record<string, string>>;
}

/** Every habit. */
export const SIDE_HABITS: readonly SideHabit[] = [
  { label: "port/starboard", left: "P", right: "S", words: {} },
  {
    label: "polish",
    left: "L",
    right: "P",
    words: { aileron: "Lotka", flap: "Klapa", wing: "Skrzydlo" },
  },
  {
    label: "czech",
    left: "L",
    right: "P",
    words: { aileron: "Kridelko", elevator: "Vyskovka", rudder: "Smerovka", flap: "Klapka", wing: "Kridlo" },
  },
  { label: "russian", left: "L", right: "P", words: { aileron: "Eleron", flap: "Zakrylok" } },
  {
    label: "spanish",
    left: "I",
    right: "D",
    words: { aileron: "Aleron", elevator: "Elevador", rudder: "Timon", wing: "Ala" },
  },
  {
    label: "portuguese",
    left: "E",
    right: "D",
    words: { aileron: "Ailerao", elevator: "Profundor", rudder: "Leme", flap: "Flape", wing: "Asa" },
  },
  { label: "french", left: "G", right: "D", words: { elevator: "Profondeur", flap: "Volet", wing: "Aile" } },
];

/** How a file writes a side letter: apart as the English one was, glued after, or first. */
export type LetterPlace = "apart" | "glued" | "first";

/** A file's renaming: its habit, where its letters go, whether it uses its own kind words. */
export interface Renaming {
  readonly habit: SideHabit;
  readonly place: LetterPlace;
  readonly ownWords: boolean;
}

/** The renaming of file `seed`. */
export function renamingOf(seed: number): Renaming {
  const next = prng(seed * 29 + 17);
  const habit = SIDE_HABITS[Math.floor(next() * SIDE_HABITS.length)];
  const place = (["apart", "apart", "glued", "first"] as const)[Math.floor(next() * 4)];
  return { habit, place, ownWords: next() < 0.5 };
}

/** A label for a renaming. */
export function renamingLabel(r: Renaming): string {
  const own = r.ownWords && Object.keys(r.habit.words).length > 0;
  return `${r.habit.label} ${r.habit.left}/${r.habit.right} ${r.place}${own ? ", own words" : ""}`;
}

/** `word` in the case of `like` (all lower, all upper, or as written). */
function cased(word: string, like: string): string {
  if (like === like.toLowerCase()) return word.toLowerCase();
  if (like === like.toUpperCase() && like.length > 1) return word.toUpperCase();
  return word;
}

const SIDE = /^(l|r|left|right)$/i;

/**
 * An English name renamed (see the module doc): `Aileron_R` → `Aileron_P` (Polish), `AileronP`
 * (glued), `PAileron` (first); names with no side word keep theirs, their kind word translated.
 */
export function resided(name: string, r: Renaming): string {
  // Segments and the separators between them; a camel-case side (`AileronLeft`) is a segment of its own.
  const parts = name.split(/([_.\s-])/).flatMap((s) => {
    const camel = /^(.*[a-z\d])(Left|Right|L|R)$/.exec(s);
    return camel && !SIDE.test(s) ? [camel[1], "", camel[2]] : [s];
  });
  let sideAt = -1, side = "";
  for (let i = 0; i < parts.length; i += 2) {
    if (!SIDE.test(parts[i])) continue;
    const left = parts[i].toLowerCase().startsWith("l");
    const letter = left ? r.habit.left : r.habit.right;
    side = parts[i] === parts[i].toLowerCase() ? letter.toLowerCase() : letter;
    sideAt = i;
    break;
  }
  const out = [...parts];
  for (let i = 0; i < out.length; i += 2) {
    const own = r.ownWords ? r.habit.words[out[i].toLowerCase()] : undefined;
    if (own) out[i] = cased(own, out[i]);
  }
  // The word the side belongs to: the one before it (`Aileron_L`), else after it (`L_Aileron`).
  const kindAt = sideAt > 0 ? sideAt - 2 : sideAt + 2;
  if (sideAt < 0) return out.join("");
  if (r.place === "apart" || !/\p{L}{3}/u.test(out[kindAt] ?? "")) {
    out[sideAt] = side;
    return out.join("");
  }
  // Glued to the kind word, after it or before: the side's segment and its separator taken out. A
  // camel-case word with a type before it (`F16Aileron`) takes the side after it.
  const first = r.place === "first" && /^\p{L}(\p{Ll}+|\p{Lu}+)$/u.test(out[kindAt]);
  out.splice(sideAt === 0 ? 0 : sideAt - 1, 2);
  const kind = sideAt < kindAt ? kindAt - 2 : kindAt;
  out[kind] = first ? `${side}${out[kind]}` : `${out[kind]}${side}`;
  return out.join("");
}

/** Every node and mesh of `doc` renamed by `r` (in place); returns `doc`. */
export function residedScene(doc: Document, r: Renaming): Document {
  for (const node of doc.getRoot().listNodes()) node.setName(resided(node.getName(), r));
  for (const mesh of doc.getRoot().listMeshes()) mesh.setName(resided(mesh.getName(), r));
  return doc;
}

/**
 * A kit-bashed file's renaming: the wings (`Aileron`, `Wing`, `Flap`) from one author and the tail
 * (`Elevator`, `Stabilizer`, `Rudder`, `Fin`) from another, each in its own habit; `undefined` keeps the
 * English `L`/`R` (`Aileron_L` beside `Elevator_P`/`Elevator_S`).
 */
export interface MixedRenaming {
  readonly wing?: Renaming;
  readonly tail?: Renaming;
}

/** The mixed renaming of file `seed`: two different habits, English for one of them a third of the time. */
export function mixedRenamingOf(seed: number): MixedRenaming {
  const next = prng(seed * 31 + 5);
  const habits = [undefined, ...SIDE_HABITS];
  const a = Math.floor(next() * habits.length);
  let b = Math.floor(next() * (habits.length - 1));
  if (b >= a) b++;
  const renaming = (k: number) => {
    const habit = habits[k];
    if (!habit) return undefined;
    return {
      habit,
      place: (["apart", "apart", "glued", "first"] as const)[Math.floor(next() * 4)],
      ownWords: next() < 0.5,
    };
  };
  return { wing: renaming(a), tail: renaming(b) };
}

const TAIL = /elev|stab|rudder|fin|tail/i;

/** `name` renamed by its part of the aircraft's habit. */
export function mixedResided(name: string, m: MixedRenaming): string {
  const r = TAIL.test(name) ? m.tail : m.wing;
  return r ? resided(name, r) : name;
}

/** A label for a mixed renaming. */
export function mixedLabel(m: MixedRenaming): string {
  const label = (r?: Renaming) => r ? renamingLabel(r) : "english L/R";
  return `wings ${label(m.wing)}, tail ${label(m.tail)}`;
}
