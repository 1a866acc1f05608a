/**
 * The side words name search knows — left, right and centre, in English and the languages models are
 * named in, and those glued to a kind word without a separator (each commented with its language).
 * Read by `vocabulary.ts`, which holds the rules; the kind and structure words are in
 * `vocabulary_words.ts`. Also the words that put an airbrake in a wing's upper or lower skin, read by
 * `slide_blades.ts`.
 *
 * @module
 */

/** Side words names glue after a kind word without a separator (`aileronleft`, `AILERONL`, `flaplb`). */
export const GLUED_SUFFIXES = [
  "left",
  "right",
  "links",
  "rechts",
  "port",
  "stbd",
  "lh",
  "rh",
  "lft",
  "rgt",
  "rght",
  "lt",
  "rt",
  "lb",
  "rb",
  "starboard",
  // Other languages' whole words, as capitals lose where one word ends (`VOLETGAUCHE`, `LOTKAPRAWA`).
  "gauche",
  "droite",
  "droit",
  "izquierdo",
  "izquierda",
  "derecho",
  "derecha",
  "esquerdo",
  "esquerda",
  "direito",
  "direita",
  "sinistra",
  "destra",
  "lewa",
  "prawa",
  "lewy",
  "prawy",
  "levyy",
  "pravyy",
  "leva",
  "prava",
  "levy",
  "pravy",
  "prav",
  "lev",
  "izq",
  "esq",
  "l",
  "r",
];
/**
 * Side words glued before one (`leftaileron`, and the letters in `LFLAP`, `rElev`, `LAIL`). The letters
 * are not read before a kind word where the whole is an ordinary word: {@link GLUED_WORDS}.
 */
export const GLUED_PREFIXES = [
  "left",
  "right",
  "rght",
  "links",
  "rechts",
  "port",
  "stbd",
  "starboard",
  "gauche",
  "droite",
  "izquierdo",
  "derecho",
  "esquerdo",
  "direito",
  "lewy",
  "prawy",
  "levyy",
  "pravyy",
  "izq",
  "esq",
  "lft", // 8-character names glue these on (`LFTAILER`, `LTFLAP_I`)
  "rgt",
  "lt",
  "rt",
  "l",
  "r",
];
/** Ordinary words that read as a side letter glued to a kind word (`rail` is no right aileron). */
export const GLUED_WORDS: ReadonlySet<string> = new Set(["rail"]);

/**
 * Tokens naming the left side. Other languages' words for left and right (`izquierdo`, `sinistra`,
 * `левый`, `左`) are listed in short forms only where they name nothing else (`izq`, `esq`, `лев`), never
 * as one letter (`d` is a damage level in `VatorL_D0`).
 */
export const LEFT_TOKENS: ReadonlySet<string> = new Set([
  "l",
  "left",
  "port",
  "lh",
  "lt",
  "lft",
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
  "leve", // Czech levé
  "levyy", // Russian левый, transliterated
  "levyi",
  "levyj",
  "lev",
  "hidari", // Japanese 左, romaji
  "левыи",
  "левая",
  "лев",
  "左",
  "왼쪽",
  "좌",
]);
/** Tokens naming the right side (see {@link LEFT_TOKENS}). */
export const RIGHT_TOKENS: ReadonlySet<string> = new Set([
  "r",
  "right",
  "starboard",
  "stbd",
  "stb",
  "rh",
  "rt",
  "rgt",
  "rght",
  "rb",
  "rechts",
  "droite",
  "droit", // masculine, as in aileron droit, volet droit
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
  "prave", // Czech pravé
  "pravyy",
  "pravyi",
  "pravyj",
  "prav",
  "migi", // Japanese 右, romaji
  "правыи",
  "правая",
  "прав",
  "右",
  "오른쪽",
  "우",
]);
/**
 * French surface words (accents dropped, as tokens are). Beside one, a lone `G` or `D` names a side
 * (`Volet_G`, `AileronD`, gauche and droite), as French modellers shorten them; elsewhere the letters
 * are no side (`D0` is a damage level, `Flap_D` the fourth of four).
 */
export const FRENCH_SURFACE_TOKENS: ReadonlySet<string> = new Set([
  "aileron",
  "volet",
  "gouverne",
  "gouvernail",
  "profondeur",
  "direction",
  "bec",
  "aerofrein",
  "deporteur",
  "compensateur",
]);
/** Tokens naming the centre. */
export const CENTRE_TOKENS: ReadonlySet<string> = new Set(["c", "centre", "center", "ctr"]);

/**
 * Short side words that name a side only beside a surface word of their language, as French `G`/`D`
 * do (see `FRENCH_SURFACE_TOKENS`): German `li`/`re` (links, rechts), Spanish `der`/`dcho` (derecho)
 * and Portuguese `dir` (direito), pinyin `zuo`/`you` (左, 右). Elsewhere they are other words (`re`,
 * `der`, `you`, `dir` for direction).
 */
export const LANGUAGE_SIDES: readonly {
  readonly surfaces: ReadonlySet<string>;
  readonly left: ReadonlySet<string>;
  readonly right: ReadonlySet<string>;
}[] = [
  {
    surfaces: new Set([
      "querruder",
      "hohenruder",
      "hoehenruder",
      "seitenruder",
      "landeklappe",
      "storklappe",
      "stoerklappe",
      "vorflugel",
      "vorfluegel",
      "bremsklappe",
      "krugerklappe",
      "kruegerklappe",
    ]),
    left: new Set(["li"]),
    right: new Set(["re"]),
  },
  {
    surfaces: new Set([
      "aleron",
      "ailerao",
      "aileron",
      "elevador",
      "profundor",
      "timon",
      "leme",
      "flap",
      "flape",
      "spoiler",
      "slat",
    ]),
    left: new Set(),
    right: new Set(["der", "dcho", "dcha", "dir"]),
  },
  {
    // Italian modellers shorten sinistra/destra to `sx`/`dx` (`alettone_sx`).
    surfaces: new Set(["alettone", "equilibratore", "timone", "flap", "ipersostentatore"]),
    left: new Set(["sx"]),
    right: new Set(["dx"]),
  },
  {
    surfaces: new Set(["fuyi", "shengjiangduo", "fangxiangduo", "jinyi", "fengyi", "raoliuban"]),
    left: new Set(["zuo"]),
    right: new Set(["you"]),
  },
];

/**
 * Tokens that put a brake in the upper skin of a wing (English, German, Polish, Czech; accents dropped),
 * as `slide_blades.ts` skinFromName reads a brake's name.
 */
export const UPPER_SKIN_WORDS = new Set([
  "upper",
  "top",
  "dorsal",
  "up",
  "oben",
  "obere",
  "oberseite",
  "gorny",
  "gorne",
  "horni",
]);

/** Tokens that put a brake in the lower skin (as {@link UPPER_SKIN_WORDS}). */
export const LOWER_SKIN_WORDS = new Set([
  "lower",
  "bottom",
  "under",
  "ventral",
  "down",
  "unten",
  "untere",
  "unterseite",
  "dolny",
  "dolne",
  "dolni",
]);
