/**
 * Texture names spelt alike. The game keys a texture library entry by the FLCRC32 of its name, which
 * folds `A`–`Z` to lower case and nothing else (Treewyrm's reader resolves names the same way;
 * Librelancer by the exact string): a material's `Dt_name` of `Hull.DDS` finds the entry `hull.dds`,
 * but `textures\hull.dds` does not find `textures/hull.dds`, nor `.\hull.dds` find `hull.dds`. Such
 * a name stays unmatched here too (the game draws the material untextured), and the warning names the
 * entry it was probably meant to be and how the two differ.
 *
 * @module
 */
import { normalizeGamePath } from "./ini.ts";

/** The key a texture is looked up by: its name in lower case (as FLCRC32 folds it), nothing else. */
export function textureKey(name: string): string {
  return name.toLowerCase();
}

/**
 * The first of `names` (texture library entries, fragment directories) that differs from `name` only
 * by path separators, a leading `.\`/`./`/`\`, or surrounding spaces, with that difference said;
 * undefined when none does. A name equal to `name` but for case is no near miss: the game takes it as
 * the same.
 *
 * @example
 * ```ts
 * spelledAlike("textures\\hull.dds", ["textures/hull.dds"]);
 * // → "'textures/hull.dds', the same name with the other path separator"
 * ```
 */
export function spelledAlike(name: string, names: Iterable<string>): string | undefined {
  const wanted = normalizeGamePath(name);
  if (!wanted) return undefined;
  for (const entry of names) {
    if (textureKey(entry) === textureKey(name) || normalizeGamePath(entry) !== wanted) continue;
    return `'${entry}', the same name ${spellingDifference(name, entry)}`;
  }
  return undefined;
}

/** How `a` and `b`, equal as normalized game paths, are spelt differently. */
function spellingDifference(a: string, b: string): string {
  const differences: string[] = [];
  const lead = (s: string) => /^(\.?[\\/])+/.exec(s.trim())?.[0] ?? "";
  const [leadA, leadB] = [lead(a), lead(b)];
  if (leadA !== leadB) {
    differences.push(leadA ? `without the leading '${leadA}'` : `with a leading '${leadB}'`);
  }
  const body = (s: string) => s.trim().slice(lead(s).length).toLowerCase();
  if (body(a).replaceAll("\\", "/") === body(b).replaceAll("\\", "/") && body(a) !== body(b)) {
    differences.push("with the other path separator");
  }
  if (a.trim() !== a || b.trim() !== b) differences.push("with spaces around it");
  return differences.join(" and ") || "in another spelling";
}
