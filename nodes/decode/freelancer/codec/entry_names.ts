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
    const written = foldedName(child.name);
    if (!written) continue;
    for (const name of expected) {
      const how = nearMiss(child.name, written, folded(name));
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

/** A name folded as {@link nearMiss} compares it: lower case, trimmed, without spaces or underscores. */
interface Folded {
  /** The name as given. */
  readonly name: string;
  readonly lower: string;
  readonly trimmed: string;
  readonly squeezed: string;
}

function fold(name: string): Folded {
  const lower = name.toLowerCase();
  const squeezed = /[\s_]/.test(lower) ? lower.replace(/[\s_]+/g, "") : lower;
  return { name, lower, trimmed: lower.trim(), squeezed };
}

/**
 * An entry name folded, or null when its lower case is in {@link KNOWN}, remembered per name: a
 * file's reader shares one string per distinct name ("VMeshData", "Position", …), so most entries
 * ask again for a name seen before, and an unknown one (a hardpoint, a mesh) is folded once, not once
 * per name it is compared with. Forgotten past 4,096 names, so a hostile file of unique names costs
 * no more than without.
 */
function foldedName(name: string): Folded | null {
  let known = foldedNames.get(name);
  if (known === undefined) {
    if (foldedNames.size >= 4096) foldedNames.clear();
    const folding = fold(name);
    foldedNames.set(name, known = KNOWN.has(folding.lower) ? null : folding);
  }
  return known;
}
const foldedNames = new Map<string, Folded | null>();

/** The names entries are expected to have, folded once. */
function folded(name: string): Folded {
  let out = expectedNames.get(name);
  if (!out) expectedNames.set(name, out = fold(name));
  return out;
}
const expectedNames = new Map<string, Folded>();

/** How `written` (folded as `a`) is a near miss of the name folded as `b`, or undefined when it is not one. */
function nearMiss(written: string, a: Folded, b: Folded): string | undefined {
  if (a.lower === b.lower) return undefined;
  if (a.trimmed === b.lower) return written.trimStart() === written ? "a trailing space" : "spaces around it";
  if (a.squeezed === b.squeezed) return "spaces or underscores inside it";
  if (a.lower.length >= 5 && b.lower.startsWith(a.lower)) return `'${b.name}' cut short`;
  if (a.lower.length >= 6 && oneEditApart(a.lower, b.lower)) return "one letter off";
  return undefined;
}

/** True when one insertion, deletion, substitution or swap of neighbours turns `a` into `b`. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // The tails compared in place: this runs for every unknown entry (hardpoints, meshes) and name.
  const rest = (x: number, y: number) => sameTail(a, i + x, b, i + y);
  if (a.length === b.length) {
    return rest(1, 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(2, 2));
  }
  return a.length > b.length ? rest(1, 0) : rest(0, 1);
}

/** `a.slice(from) === b.slice(bFrom)`, without the slices. */
function sameTail(a: string, from: number, b: string, bFrom: number): boolean {
  const aFrom = Math.min(from, a.length), bStart = Math.min(bFrom, b.length);
  if (a.length - aFrom !== b.length - bStart) return false;
  for (let i = aFrom, k = bStart; i < a.length; i++, k++) {
    if (a.charCodeAt(i) !== b.charCodeAt(k)) return false;
  }
  return true;
}
