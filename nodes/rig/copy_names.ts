/**
 * The mark a name carries telling one copy of the aircraft from another (`copies.ts`): a level of
 * detail by number (`_LOD1`, `-lod1`, `.LOD1`, `LOD_1`, Sketchfab's `Aileron_L_LOD0_0`) or by word
 * (`_High`/`_Low`, `_hi`/`_lo`, `_lowpoly`, `_Mid`), a damage state (`_dmg`, `_damaged`, `_destroyed`,
 * `_broken`, `_intact`), a variant (`_VarA`, `Variant B`), or Blender's duplicate suffix (`.001`). A name
 * without one is the unmarked copy (`""`).
 *
 * @module
 */
import { type FileWords, sideFromName, tokenize } from "./vocabulary.ts";
import { wordsKey } from "./file_words.ts";

/**
 * A level-of-detail number in a name: `_LOD1`, `.lod2`, `LOD 0`, `lod_3`, not glued to a word before
 * unless in camel case (`RudderLOD1`, `RudderLod1`, `AileronLLOD0`: a capital after a small letter, a
 * digit or another capital).
 */
const LOD_NUMBER = /(?:(?<![A-Za-z])[Ll][Oo][Dd]|(?<=[a-z\d])L(?:OD|od)|(?<=[A-Z])LOD)[\s_.-]?(\d+)(?!\d)/;

/** Blender's suffix for a duplicate: `.001`, `.002`. */
const DUPLICATE = /\.(\d{3})$/;

/** A Sketchfab or game-rip mesh index after the mark (`Aileron_L_Low_0`): read past. */
const MESH_INDEX = /[_.]\d+$/;

/**
 * Words a copy's names end in, each with the mark it stands for. Spellings of one level share a
 * mark only where files mix them (`_hi` and `_high` never name two copies of one model).
 */
const WORD_MARK =
  /[\s_.-](high|hi|highpoly|hipoly|hp|mid|medium|low|lo|lowpoly|lopoly|lp|verylow|dmg|damaged|damage|destroyed|broken|wreck|wrecked|intact|var[\s_]?[a-z\d]|variant[\s_]?[a-z\d])$/i;

/** A copy's mark: its kind (which kinds name level-of-detail copies) and the mark as a key. */
export interface CopyMark {
  /** `lod`: a level-of-detail number; `word`: a word or variant; `duplicate`: Blender's `.001`. */
  readonly by: "lod" | "word" | "duplicate";
  /** The mark, one spelling per copy: `lod1`, `low`, `var a`, `.001`. */
  readonly key: string;
  /** The level number, for a level of detail or a duplicate; undefined for a word. */
  readonly level?: number;
}

/**
 * The copy mark `name` holds (a level number anywhere, else a duplicate suffix or word at its end, read
 * past a mesh index), or undefined when it carries none.
 *
 * @example
 * ```ts
 * copyMark("Aileron_L_LOD1_0"); // { by: "lod", key: "lod1", level: 1 }
 * copyMark("Aileron_L_lowpoly"); // { by: "word", key: "lowpoly" }
 * copyMark("Aileron_L.001"); // { by: "duplicate", key: ".001", level: 1 }
 * copyMark("Aileron_L"); // undefined
 * ```
 */
export function copyMark(name: string): CopyMark | undefined {
  const lod = LOD_NUMBER.exec(name);
  if (lod) return { by: "lod", key: `lod${Number(lod[1])}`, level: Number(lod[1]) };
  const duplicate = DUPLICATE.exec(name);
  if (duplicate) return { by: "duplicate", key: `.${duplicate[1]}`, level: Number(duplicate[1]) };
  const word = WORD_MARK.exec(name) ?? WORD_MARK.exec(name.replace(MESH_INDEX, ""));
  if (word) return { by: "word", key: word[1].toLowerCase().replace(/[\s_]/g, " ") };
  return undefined;
}

/** A name's words: `Spitfire_Aileron_L` → `Spitfire`, `Aileron`, `L`. */
const WORDS = /[\s_.:|-]+/;

/**
 * The aircraft a name's first word may name, in a file holding several (`Spitfire_Aileron_L` beside
 * `Bf109_Aileron_L`, or in camel case `F16AileronLeft` beside `mig29AileronLeft`): its first word (or
 * camel-case part), lower-cased, when more follow and it is neither a panel nor a side (`L_Aileron`,
 * `Aileron_L`, `AileronLeft`); undefined otherwise. Whether the word names an aircraft is for the
 * caller to judge (`copies.ts`: it must head a whole aircraft named left and right).
 *
 * @example
 * ```ts
 * namePrefix("Spitfire_Aileron_L", isWord); // "spitfire"
 * namePrefix("F16AileronLeft", isWord); // "f16"
 * namePrefix("Aileron_L", isWord); // undefined
 * ```
 */
export function namePrefix(name: string, isPanelOrSide: (word: string) => boolean): string | undefined {
  const words = name.split(WORDS).filter((w) => w.length);
  // Run together in camel case (`F16AileronLeft`, `spitfireElevatorR`, `Mig29RudderLOD1`): its first
  // part, when more follow.
  const parts = words[0]?.split(CAMEL) ?? [];
  if (parts.length > 1 && !isPanelOrSide(parts[0])) return parts[0].toLowerCase();
  if (words.length < 2 || isPanelOrSide(words[0])) return undefined;
  return words[0].toLowerCase();
}

/** Where camel case starts a word: `F16|Aileron`, `spitfire|Elevator`, `H|Stab`. */
const CAMEL = /(?<=[a-z\d])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/**
 * `name` without its level-of-detail mark (`mig29AileronLLOD0` → `mig29AileronL`): a mark glued to a
 * side letter hides the side from the vocabulary.
 */
export function withoutLevel(name: string): string {
  return name.replace(LOD_NUMBER, "");
}

/**
 * A name read past its spelling of a side: its letter and digit runs, lower-cased, side words dropped,
 * then the side it states (`Aileron_L_Low`, `aileron.l.low` and `L_Aileron_Low` are `aileron low|left`);
 * undefined when it states none.
 */
export const sidedName: (name: string) => string | undefined = rememberedReading((name) => {
  const side = sideFromName(name, reading.words) ?? sideFromName(withoutLevel(name), reading.words);
  if (!side) return undefined;
  const words = name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").match(/\p{L}+|\p{N}+/gu) ?? [];
  // Read as the vocabulary reads it, so a side glued to its word (`aill`, `aileronl`, `左副翼`) leaves the
  // word (`ail`, `aileron`, `副翼`): dropped whole, every left panel so named was one `|left`.
  const read = words.flatMap((w) => /^\p{N}+$/u.test(w) ? [w] : tokenize(w, reading.words));
  return `${read.filter((w) => !sideWord(w)).join(" ")}|${side}`;
});

/**
 * Whether a word is read as a side (`l`, `left`, `port`; a digit run never is one), or is a letter some
 * kind's names pair (a kit-bashed file's `P`, port in its ailerons and prawy in its elevators).
 */
const sideWord = rememberedReading((word) =>
  !/^\d+$/.test(word) &&
  (!!sideFromName(word, reading.words) ||
    [...reading.words?.kindLetters?.values() ?? []].some((l) => l.has(word)))
);

/** The file whose names are being read (see {@link readingFile}): its words and their key. */
const reading: { words?: FileWords; key: string } = { key: "" };

/**
 * `look()` with every name read (by {@link sidedName}, and the readings of {@link rememberedReading})
 * beside the file's `words` (`file_words.ts`): `Lotka_P` beside `Lotka_L` is right, so a Polish file's
 * copies hold aircraft named left and right. The look is synchronous: the words hold until it returns.
 */
export function readingFile<T>(words: FileWords, look: () => T): T {
  const was = { ...reading };
  reading.words = words;
  reading.key = wordsKey(words);
  try {
    return look();
  } finally {
    Object.assign(reading, was);
  }
}

/** The words of the file being read ({@link readingFile}), or none. */
export function fileReading(): FileWords | undefined {
  return reading.words;
}

/**
 * `read`, remembered per string and the words of the file it is read in ({@link readingFile}): a name's
 * reading there never changes, and a look reads every name several times over, in three nodes. Forgotten
 * all at once past `max` strings, so a long batch cannot grow it without bound.
 */
export function rememberedReading<T>(read: (s: string) => T, max = 200_000): (s: string) => T {
  const seen = new Map<string, T>();
  return (s) => {
    const key = reading.key ? `${reading.key}\u0000${s}` : s;
    if (seen.has(key)) return seen.get(key)!;
    const value = read(s);
    if (seen.size >= max) seen.clear();
    seen.set(key, value);
    return value;
  };
}
