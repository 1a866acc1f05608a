/**
 * Misspelt UTF entry names. The game finds an entry by its name folded to lower case and nothing else
 * (Treewyrm's reader by the FLCRC32 of the folded name, Librelancer by the lower-cased string): a
 * `VmeshPart` is read as `VMeshPart`, but a `VMeshPart ` with a trailing space, a `VMeshLib` or a
 * `VMeshPrat` is an entry nobody reads, and what it holds is lost without a word. Such names are
 * left unread here too, with a warning naming the entry as written and the entry it probably meant.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { findChild, type UtfEntry } from "./utf.ts";

/** The library directories the game reads (directly under a file's root or a fragment's). */
export const LIBRARY_ENTRIES = ["VMeshLibrary", "Material library", "Texture library"];

/** Every entry name some reader of ours looks up, in lower case: none of them is a near miss. */
const KNOWN = new Set(
  [
    ...LIBRARY_ENTRIES,
    ...["Cmpnd", "Cons", "Root", "Sphere", "Animation", "MaterialAnim", "Exporter Version"],
    ...["VMeshPart", "VMeshRef", "MultiLevel", "Switch2", "VMeshWire", "VWireData", "VMeshData"],
    ...["Hardpoints", "Fixed", "Revolute", "Camera", "Object name", "File name", "Index"],
    ...["Material count", "Type", "Dt_name", "Dt_flags", "MIPS", "MIP0", "CUBE"],
  ].map((name) => name.toLowerCase()),
);

/**
 * Warns about each child of `dir` whose name is none the game reads but near one of `expected` that
 * `dir` lacks (spaces or underscores around or inside it, cut short, or one letter off). `place`
 * names `dir` in the warning (`fragment 'x.3db'`, `the root`); a function is called only to warn.
 *
 * @example
 * ```ts
 * warnMisspeltEntries(fragmentDir, ["VMeshPart", "MultiLevel"], `fragment '${fragmentDir.name}'`, warn);
 * ```
 */
export function warnMisspeltEntries(
  dir: UtfEntry | undefined,
  expected: readonly string[],
  place: string | (() => string),
  warn: WarningSink,
): void {
  for (const child of dir?.children ?? []) {
    if (isKnown(child.name)) continue;
    for (const name of expected) {
      const how = nearMiss(child.name, name);
      if (!how || findChild(dir, name)) continue;
      warn(
        `${
          typeof place === "string" ? place : place()
        }: entry '${child.name}' is not read; it is probably '${name}' (${how}), but the game ` +
          "matches entry names exactly but for case, so what it holds is not used",
      );
      break;
    }
  }
}

/**
 * Whether a name folded to lower case is in {@link KNOWN}, remembered per name: a file's reader shares
 * one string per distinct name ("VMeshData", "Position", …), so most entries ask again for a name seen
 * before. Forgotten past 4,096 names, so a hostile file of unique names costs no more than without.
 */
function isKnown(name: string): boolean {
  let known = knownNames.get(name);
  if (known === undefined) {
    if (knownNames.size >= 4096) knownNames.clear();
    knownNames.set(name, known = KNOWN.has(name.toLowerCase()));
  }
  return known;
}
const knownNames = new Map<string, boolean>();

/** How `written` is a near miss of `name`, or undefined when it is not one. */
function nearMiss(written: string, name: string): string | undefined {
  const [a, b] = [written.toLowerCase(), name.toLowerCase()];
  if (a === b) return undefined;
  if (a.trim() === b) return written.trimStart() === written ? "a trailing space" : "spaces around it";
  const squeeze = (s: string) => s.replace(/[\s_]+/g, "");
  if (squeeze(a) === squeeze(b)) return "spaces or underscores inside it";
  if (a.length >= 5 && b.startsWith(a)) return `'${name}' cut short`;
  if (a.length >= 6 && oneEditApart(a, b)) return "one letter off";
  return undefined;
}

/** True when one insertion, deletion, substitution or swap of neighbours turns `a` into `b`. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: number, y: number) => a.slice(i + x) === b.slice(i + y);
  if (a.length === b.length) {
    return rest(1, 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(2, 2));
  }
  return a.length > b.length ? rest(1, 0) : rest(0, 1);
}
