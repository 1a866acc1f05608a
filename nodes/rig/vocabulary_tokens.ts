/**
 * Pieces of `vocabulary.ts` `tokenize`: accents taken off, Chinese, Japanese and Korean split around
 * their words, and its memo of names read without a file's words: such a name's tokens are the
 * name's alone, so each distinct name is read once — a scene's 30,000 unnamed nodes asked for `""` at
 * every step of the rig. Bounded (cleared when full), so it holds no more than some tens of thousands of names
 * whatever the process reads.
 *
 * @module
 */
import { CJK, CJK_WORDS } from "./vocabulary_words.ts";

const KNOWN = new Map<string, readonly string[]>();
// Past the names of a file of tens of thousands of parts: cleared when full, a memo smaller than the
// names a pass asks for in turn is emptied before any is asked again (20,000 small panels and their
// pivots read every name afresh at every step of the rig with 8,192). A few MB at most.
const KEPT = 65_536;

/**
 * `read(name)`, remembered: a copy of the tokens each time, since callers may change the array they get.
 *
 * @example
 * ```ts ignore
 * plainTokens("AileronL", (n) => n.toLowerCase().split(/(?=l$)/)); // ["aileron", "l"]
 * ```
 */
export function plainTokens(name: string, read: (name: string) => string[]): string[] {
  let known = KNOWN.get(name);
  if (!known) {
    if (KNOWN.size >= KEPT) KNOWN.clear();
    KNOWN.set(name, known = read(name));
  }
  return known.slice();
}

/**
 * A token in lower case without accents (`alerón` → `aleron`, `höhenruder` → `hohenruder`). Kana and
 * Hangul keep theirs: their voicing marks make other letters (`プ` is not `フ`).
 */
export function withoutAccents(token: string): string {
  const lower = token.toLowerCase();
  return CJK.test(lower)
    ? lower.normalize("NFC")
    : lower.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

/** A token split around the {@link CJK_WORDS} it holds; any other token is kept whole. */
export function splitCjk(token: string): string[] {
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
