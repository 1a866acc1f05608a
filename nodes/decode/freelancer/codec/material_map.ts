/**
 * Freelancer's `[MaterialMap]` (in `EXE/dacom.ini`): the game rewrites a material's `Type` by its
 * name (`name = ^tlr_material$ = NebulaTwo` draws the trade-lane rings additive,
 * `name = ^nomad.*$ = NomadMaterialNoBendy` the nomad hulls with their own shader) and by its type
 * (`DcDtEcEt = DcDtEt`). Read as Librelancer reads it (`LibreLancer.Data/DacomIni.cs`,
 * `MaterialMap.cs`, applied in `Utf/Mat/Material.cs` `FromNode`):
 *
 * - `name = <regex> = <type>` lines are patterns, every other key an exact type rewrite;
 * - a lookup tries the patterns from the **last** listed to the first (the file's own comment:
 *   "evaluation of material map happens in reverse order listed, so put more specific last"), the
 *   first that matches anywhere in the text wins (.NET `Regex.IsMatch`: unanchored, case-sensitive),
 *   and only then the exact keys (case-sensitive);
 * - the stored type is looked up first, then the material's name in lower case, each result
 *   replacing the type when there is one — so patterns see the type string too, and exact keys the
 *   name, as in Librelancer (no retail entry matches across).
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { readIni } from "./ini.ts";

/** One `name = <regex> = <type>` line. */
export interface MaterialMapPattern {
  /** The regex as written. */
  readonly pattern: string;
  readonly regex: RegExp;
  readonly type: string;
}

/** A `[MaterialMap]`: where it came from, its exact type rewrites and its name patterns in file order. */
export interface MaterialMap {
  /** `EXE/dacom.ini` (as found), or {@link RETAIL_SOURCE} for the built-in table. */
  readonly source: string;
  readonly exact: ReadonlyMap<string, string>;
  readonly patterns: readonly MaterialMapPattern[];
}

/** What rewrote a material's type: the rule (`name = ^nomad.*$` or `DcDtEcEt`) and the type it gave. */
export interface MaterialMapHit {
  readonly type: string;
  readonly rule: string;
}

/** How reports name the built-in table. */
export const RETAIL_SOURCE = "built-in retail [MaterialMap]";

/**
 * Retail Freelancer's `[MaterialMap]`, in file order, used when no `EXE/dacom.ini` is found. No
 * copy of the retail file is at hand; its entries and order come from three readers that agree:
 * LancerEdit's stand-in for a missing `dacom.ini` (Librelancer `src/Editor/LancerEdit/
 * DefaultMaterialMap.cs`: the two type rewrites, then `^nomad.*$` … `^null$` in this order),
 * treewyrm's `freelancer` docs/MATERIAL.md (quoting the section's head: the two rewrites,
 * `^detailmap_.*`, `^tlr_material$`, `^nomad.*$ = NomadMaterialNoBendy` with `NomadMaterial`
 * commented out, `^ui_.*`) and treewyrm's `fllib` `src/utf/material/library.ts` (every pattern,
 * listed last to first as it evaluates them, adding `^alpha_mask.*`, `^alpha_mask.*2side` and
 * `^tlr_energy$`). LancerEdit maps `^null$` to `" NullMaterial"` (a stray space); the others'
 * `NullMaterial` is used.
 */
const RETAIL_ENTRIES: readonly (readonly [string, string, string])[] = [
  ["EcEtOcOt", "", "DcDtOcOt"],
  ["DcDtEcEt", "", "DcDtEt"],
  ["name", "^alpha_mask.*", "DcDt"],
  ["name", "^alpha_mask.*2side", "DcDtTwo"],
  ["name", "^detailmap_.*", "BtDetailMapMaterial"],
  ["name", "^tlr_material$", "NebulaTwo"],
  ["name", "^tlr_energy$", "NebulaTwo"],
  ["name", "^nomad.*$", "NomadMaterialNoBendy"],
  ["name", "^n-texture.*$", "NomadMaterialNoBendy"],
  ["name", "^ui_.*", "HUDIconMaterial"],
  ["name", "^exclusion_.*", "ExclusionZoneMaterial"],
  ["name", "^c_glass$", "HighGlassMaterial"],
  ["name", "^cv_glass$", "HighGlassMaterial"],
  ["name", "^b_glass$", "HighGlassMaterial"],
  ["name", "^k_glass$", "HighGlassMaterial"],
  ["name", "^l_glass$", "HighGlassMaterial"],
  ["name", "^r_glass$", "HighGlassMaterial"],
  ["name", "^planet.*_glass$", "GFGlassMaterial"],
  ["name", "^bw_glass$", "HighGlassMaterial"],
  ["name", "^o_glass$", "HighGlassMaterial"],
  ["name", "^anim_hud.*$", "HUDAnimMaterial"],
  ["name", "^sea_anim.*$", "PlanetWaterMaterial"],
  ["name", "^null$", "NullMaterial"],
];

/** The built-in retail table ({@link RETAIL_ENTRIES}). */
export const RETAIL_MATERIAL_MAP: MaterialMap = {
  source: RETAIL_SOURCE,
  exact: new Map(RETAIL_ENTRIES.filter(([key]) => key !== "name").map(([key, , type]) => [key, type])),
  patterns: RETAIL_ENTRIES.filter(([key]) => key === "name").map(([, pattern, type]) => ({
    pattern,
    regex: new RegExp(pattern),
    type,
  })),
};

/**
 * A map that rewrites nothing (`decode.cmp`'s `material_map: "none"`): every material is drawn by
 * its stored `Type`.
 */
export const NO_MATERIAL_MAP: MaterialMap = {
  source: "no [MaterialMap] (material_map: none)",
  exact: new Map(),
  patterns: [],
};

/**
 * Reads the `[MaterialMap]` of a `dacom.ini` (text, or BINI). Several sections: the last counts, as
 * each replaces the one before in Librelancer. A pattern JavaScript cannot compile (a .NET-only
 * construct), a line without a type, or a repeated exact key (Librelancer's `Dictionary.Add` throws
 * there; the first is kept) is skipped with a warning naming the file and line's key. A file without
 * the section rewrites nothing, with a warning.
 *
 * @example
 * ```ts
 * const map = readMaterialMap(bytes, "EXE/dacom.ini", warn);
 * materialMapType(map, "DcDtOcOt", "tlr_material")?.type; // "NebulaTwo"
 * ```
 */
export function readMaterialMap(bytes: Uint8Array, file: string, warn: WarningSink): MaterialMap {
  const section = readIni(bytes, file).findLast((s) => s.name.toLowerCase() === "materialmap");
  const exact = new Map<string, string>();
  const patterns: MaterialMapPattern[] = [];
  if (!section) {
    warn(`${file} has no [MaterialMap] section; no material type is rewritten`);
    return { source: file, exact, patterns };
  }
  for (const { key, values } of section.entries) {
    // Values were split at commas; a regex may hold one (`{1,3}`), so the line is put back together.
    const value = values.join(",");
    if (key.toLowerCase() === "name") {
      // `<regex> = <type>`: a type name never holds `=`, so the last one separates them.
      const equals = value.lastIndexOf("=");
      const pattern = value.slice(0, Math.max(equals, 0)).trim();
      const type = value.slice(equals + 1).trim();
      if (equals < 0 || !pattern || !type) {
        warn(`${file} [MaterialMap]: 'name = ${value}' is not '<regex> = <type>'; skipped`);
        continue;
      }
      try {
        patterns.push({ pattern, regex: new RegExp(pattern), type });
      } catch (error) {
        warn(
          `${file} [MaterialMap]: the pattern '${pattern}' does not compile (${
            (error as Error).message
          }); skipped`,
        );
      }
    } else if (!value.trim()) {
      warn(`${file} [MaterialMap]: '${key}' names no type; skipped`);
    } else if (exact.has(key)) {
      warn(`${file} [MaterialMap]: '${key}' is listed again; the first, '${exact.get(key)}', is kept`);
    } else {
      exact.set(key, value.trim());
    }
  }
  return { source: file, exact, patterns };
}

/**
 * The type the game draws a material with, when the map rewrites it (undefined when it does not):
 * the stored type looked up, then the name in lower case, as Librelancer's `Material.FromNode`.
 */
export function materialMapType(
  map: MaterialMap,
  storedType: string,
  name: string,
): MaterialMapHit | undefined {
  const byType = lookup(map, storedType);
  const byName = lookup(map, name.toLowerCase());
  const hit = byName ?? byType;
  return hit && hit.type !== storedType ? hit : undefined;
}

/** Patterns from the last to the first, then the exact keys (`MaterialMap.Get`). */
function lookup(map: MaterialMap, value: string): MaterialMapHit | undefined {
  for (let i = map.patterns.length - 1; i >= 0; i--) {
    const { regex, pattern, type } = map.patterns[i];
    if (regex.test(value)) return { type, rule: `name = ${pattern}` };
  }
  const type = map.exact.get(value);
  return type === undefined ? undefined : { type, rule: value };
}
