/**
 * Surface names from more places and as exporters mangle them, beside `wild_names.ts`:
 *
 * - `language`: Italian (`Alettone_sx`, `Equilibratore`, `Timone_di_profondità`), Polish (`Lotka_lewa`,
 *   `Ster_wysokości`), Czech with and without diacritics (`Křidélko_levé`, `Smerovka`);
 * - `mojibake`: a name with letters beyond ASCII (Spanish `Alerón_izq`, German `Höhenruder_links`, the
 *   languages above) whose UTF-8 bytes an old exporter or a script read as Windows-1252
 *   (`AlerÃ³n_izq`, `KÅ™idÃ©lko_levÃ©`);
 * - `duplicate`: Blender's stacked copy suffixes (`Aileron_L.001.002`) and Sketchfab's name repeated
 *   before its material index (`Aileron_L_Aileron_L_0`);
 * - `truncated`: a name cut to 8 or 16 characters, upper-cased, by an old format's name field
 *   (`AILERON_`, `L_AILERO`, `ELEVATOR_RIGHT_I`). A cut that leaves the side word part-written states
 *   no side; a cut that leaves less than `AILER`/`ELEVAT` of the kind word is not drawn (no reader
 *   could tell it). Whole files cut at one width (8, 10 for `.3ds`, 8.3, 15, 16, 31) are `cut_names.ts`.
 *
 * Deterministic from a seed.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import type { WildKind, WildName } from "./wild_names.ts";

/** How a name was mangled. */
export type MangledFamily = "language" | "mojibake" | "duplicate" | "truncated";
/** Every way. */
export const MANGLED_FAMILIES: readonly MangledFamily[] = ["language", "mojibake", "duplicate", "truncated"];

type Pick = <T>(list: readonly T[]) => T;

interface Language {
  readonly words: Readonly<Partial<Record<WildKind, readonly string[]>>>;
  readonly left: readonly string[];
  readonly right: readonly string[];
}

const LANGUAGES: Readonly<Record<string, Language>> = {
  italian: {
    words: {
      aileron: ["Alettone", "alettone", "ALETTONE"],
      elevator: ["Equilibratore", "equilibratore", "Timone_di_profondità", "timone_di_profondita"],
      rudder: ["Timone", "timone", "Timone_di_direzione"],
      flap: ["Flap", "flap"],
    },
    left: ["sinistro", "sinistra", "sx", "SX", "Sx"],
    right: ["destro", "destra", "dx", "DX", "Dx"],
  },
  polish: {
    words: {
      aileron: ["Lotka", "lotka", "LOTKA"],
      elevator: ["Ster_wysokości", "ster_wysokosci"],
      rudder: ["Ster_kierunku", "ster_kierunku"],
      flap: ["Klapa", "klapa"],
    },
    left: ["lewa", "lewy", "L"],
    right: ["prawa", "prawy", "R"],
  },
  czech: {
    words: {
      aileron: ["Křidélko", "křidélko", "Kridelko", "kridelko"],
      elevator: ["Výškovka", "vyskovka"],
      rudder: ["Směrovka", "smerovka"],
      flap: ["Klapka", "klapka"],
    },
    left: ["levé", "leve", "levá", "L"],
    right: ["pravé", "prave", "pravá", "R"],
  },
  spanish: {
    words: {
      aileron: ["Alerón", "alerón"],
      elevator: ["Timón_de_profundidad"],
      rudder: ["Timón", "timón", "Timón_de_dirección"],
    },
    left: ["izquierdo", "izq"],
    right: ["derecho", "der"],
  },
  german: {
    words: { elevator: ["Höhenruder"], spoiler: ["Störklappe"], slat: ["Vorflügel"] },
    left: ["links", "li"],
    right: ["rechts", "re"],
  },
  french: {
    words: { spoiler: ["Déporteur", "déporteur"], aileron: ["Aileron"] },
    left: ["gauche"],
    right: ["droit", "droite"],
  },
};

const ENGLISH: Readonly<Record<WildKind, string>> = {
  aileron: "Aileron",
  elevator: "Elevator",
  rudder: "Rudder",
  flap: "Flap",
  spoiler: "Spoiler",
  slat: "Slat",
};

/** Windows-1252's letters for the bytes 0x80–0x9F. */
const CP1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** A name's UTF-8 bytes read as Windows-1252, as an exporter that assumed it writes them. */
export function asWindows1252(name: string): string {
  return [...new TextEncoder().encode(name)]
    .map((b) => b >= 0x80 && b < 0xa0 ? CP1252[b - 0x80] : String.fromCharCode(b)).join("");
}

/** A name in a language of {@link LANGUAGES}: its word, and its side word where it states one. */
function inLanguage(pick: Pick, kind: WildKind, side: "left" | "right" | undefined, only?: RegExp) {
  const languages = Object.entries(LANGUAGES).filter(([, l]) => l.words[kind]);
  const [label, language] = pick(languages);
  const words = language.words[kind]!.filter((w) => !only || only.test(w));
  const word = pick(words.length > 0 ? words : language.words[kind]!);
  const sideWord = side ? pick(side === "left" ? language.left : language.right) : undefined;
  return { label, name: sideWord ? `${word}_${sideWord}` : word };
}

/** A name of `kind` on `side` mangled as `family` says, drawn from `next`. */
export function mangledName(
  next: () => number,
  kind: WildKind,
  side: "left" | "right" | undefined,
  family: MangledFamily,
): WildName {
  const pick: Pick = (list) => list[Math.floor(next() * list.length)];
  const letter = side === "left" ? "L" : side === "right" ? "R" : undefined;
  const base = { kind, side, family: "language" as const };
  if (family === "language") {
    const { label, name } = inLanguage(pick, kind, side);
    return { ...base, name, style: label };
  }
  if (family === "mojibake") {
    const { label, name } = inLanguage(pick, kind, side, /[^ -~]/);
    return { ...base, name: asWindows1252(name), style: `mojibake ${label}` };
  }
  if (family === "duplicate") {
    const plain = letter ? `${ENGLISH[kind]}_${letter}` : ENGLISH[kind];
    const copies = Array.from(
      { length: 1 + Math.floor(next() * 3) },
      () => `.00${1 + Math.floor(next() * 9)}`,
    );
    return next() < 0.5
      ? { ...base, name: `${plain}${copies.join("")}`, style: "blender copies" }
      : { ...base, name: `${plain}_${plain}_${Math.floor(next() * 3)}`, style: "sketchfab repeat" };
  }
  // Truncated: side word before or after the kind word, cut to 8 or 16 characters.
  const word = ENGLISH[kind].toUpperCase();
  const sideWord = side ? pick(side === "left" ? ["LEFT", "L", "LT"] : ["RIGHT", "R", "RT"]) : undefined;
  const parts = sideWord ? (next() < 0.5 ? [sideWord, word] : [word, sideWord]) : [word];
  const full = `${parts.join("_")}${next() < 0.5 ? "_OUTER" : "_INBOARD"}`;
  const width = pick([8, 16]);
  const name = full.slice(0, width);
  const at = sideWord ? full.indexOf(sideWord, parts[0] === sideWord ? 0 : word.length) : -1;
  const sideKept = sideWord !== undefined && at + sideWord.length <= name.length;
  return {
    ...base,
    name,
    side: sideKept ? side : undefined,
    style: `truncated ${width}`,
  };
}

/** Shortest cut of each kind word a reader can still tell (`AILER`, `ELEVAT`, `RUD`, …). */
const LEAST: Readonly<Record<WildKind, number>> = {
  aileron: 5,
  elevator: 6,
  rudder: 3,
  flap: 4,
  spoiler: 7,
  slat: 4,
};

/** `count` mangled names of `family` from `seed`; a truncation that leaves too little of its word is drawn again. */
export function mangledNames(seed: number, family: MangledFamily, count: number): WildName[] {
  const next = prng(seed);
  const kinds: WildKind[] = family === "mojibake" ? ["aileron", "elevator", "rudder", "spoiler", "slat"] : [
    "aileron",
    "elevator",
    "rudder",
    "flap",
  ];
  const out: WildName[] = [];
  while (out.length < count) {
    const kind = kinds[Math.floor(next() * kinds.length)];
    const side = kind === "rudder" ? undefined : next() < 0.5 ? "left" : "right";
    const name = mangledName(next, kind, side, family);
    const word = ENGLISH[kind].toUpperCase();
    if (family === "truncated") {
      const kept = name.name.split("_").find((t) => word.startsWith(t) && t.length > 0) ?? "";
      if (kept.length < LEAST[kind]) continue;
    }
    out.push(name);
  }
  return out;
}
