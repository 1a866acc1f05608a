/**
 * A fragment holding more than one mesh reference where the game expects one: two `VMeshRef` leaves
 * in a `VMeshPart` (a hand edit that pasted a new reference beside the old one), two `VMeshPart`s,
 * two `MultiLevel`s, or a `VMeshPart` beside a `MultiLevel`. Librelancer refuses such a part
 * (`ModelFile.cs`: "Invalid VMeshPart: More than one child", and a second level 0 is a duplicate
 * key); treewyrm's reader looks entries up by name and takes the first. The file cannot tell which
 * was meant, so the decoder keeps its reading (the first `MultiLevel`, else the first `VMeshPart`,
 * and in it the first `VMeshRef`) and names the part, what it drew and what it left out. Copies with
 * identical bytes (LancerEdit shares identical payloads) draw the same mesh: nothing to say.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { findChild, findChildren, type UtfEntry } from "./utf.ts";

/** Where an entry is, for a message: its payload's byte for a leaf, its tree entry's for a directory. */
function at(entry: UtfEntry): string {
  return `byte ${entry.data?.start ?? entry.offset}`;
}

/** True when every leaf of `entries` holds the same bytes as the first. */
function sameBytes(entries: readonly UtfEntry[]): boolean {
  const [first, ...rest] = entries.map((e) => e.data);
  if (!first) return false;
  const bytes = (d: NonNullable<UtfEntry["data"]>) => d.bytes.subarray(d.start, d.start + d.length);
  const a = bytes(first);
  return rest.every((d) => d !== undefined && d.length === a.length && bytes(d).every((b, i) => b === a[i]));
}

/** A `MultiLevel` child that is a level (`Level0`, `level 2 `). */
const LEVEL_NAME = /^level\s*\d+\s*$/i;

/**
 * Warns of each place in fragment `dir` (part `part`) that holds several mesh references: the
 * fragment itself (VMeshPart/MultiLevel) and each `VMeshPart` the reading uses.
 *
 * @example
 * ```ts
 * warnSeveralRefs(dir, "Root", "", warn); // "part 'Root': VMeshPart holds 2 VMeshRef leaves (…)"
 * ```
 */
export function warnSeveralRefs(dir: UtfEntry, part: string, where: string, warn: WarningSink): void {
  const who = () => `part '${part}'${where ? ` (fragment '${where.slice(0, -1)}')` : ""}`;
  const refused = "Librelancer refuses the part, treewyrm's reader takes the first; the file cannot tell " +
    "which was meant";
  const multis = findChildren(dir, "MultiLevel");
  const parts = findChildren(dir, "VMeshPart");
  const list = (entries: readonly UtfEntry[]) => entries.map((e) => `'${e.name}' at ${at(e)}`).join(", ");
  if (multis.length > 1) {
    warn(
      `${who()} has ${multis.length} MultiLevel directories (${list(multis)}); the first is drawn and the ` +
        `others are not read (${refused})`,
    );
  }
  if (multis.length && parts.length) {
    warn(
      `${who()} has a VMeshPart beside its MultiLevel (${list([...parts, multis[0]])}); the MultiLevel is ` +
        `drawn and the VMeshPart is not read (${refused})`,
    );
  } else if (parts.length > 1 && !sameBytes(parts.flatMap((p) => findChildren(p, "VMeshRef").slice(0, 1)))) {
    warn(
      `${who()} has ${parts.length} VMeshPart directories (${list(parts)}); the first is drawn and the ` +
        `others are not read (${refused})`,
    );
  }
  // The VMeshParts the reading uses: the fragment's own, or each level's of the first MultiLevel
  // (looked at in place: this runs for every part, and few hold a second reference).
  const check = (p: UtfEntry, path: string) => {
    const refs = findChildren(p, "VMeshRef");
    if (refs.length < 2 || sameBytes(refs)) return;
    warn(
      `${who()}: ${path}${p.name} holds ${refs.length} VMeshRef leaves (${list(refs)}); the first is drawn ` +
        `and the others are not read (${refused})`,
    );
  };
  if (!multis.length) {
    if (parts.length) check(parts[0], "");
    return;
  }
  for (const level of multis[0].children ?? []) {
    if (!LEVEL_NAME.test(level.name)) continue;
    const p = findChild(level, "VMeshPart");
    if (p) check(p, `${multis[0].name}/${level.name}/`);
  }
}
