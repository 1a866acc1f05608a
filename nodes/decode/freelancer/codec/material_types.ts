/**
 * The material types Freelancer knows, to tell a mod's shader or a misspelt type from the game's.
 *
 * @module
 */

/**
 * Every type the game knows: the 23 retail assets select (treewyrm's `freelancer`
 * `docs/MATERIAL.md`, counted over the retail data), the 14 more only `[MaterialMap]` selects
 * (its `mappedMaterialTypes`; the Starport's material table lists the same), and `Dc`, which
 * Librelancer's basic list also takes.
 */
export const KNOWN_MATERIAL_TYPES: ReadonlySet<string> = new Set([
  // Retail assets.
  "DcDt",
  "DcDtEc",
  "DcDtOcOt",
  "DcDtEt",
  "DcDtBt",
  "Nebula",
  "DcDtBtEc",
  "DcDtEcOcOt",
  "DcDtTwo",
  "DcDtEcOcOtTwo",
  "DcDtEcEt",
  "AtmosphereMaterial",
  "DetailMapMaterial",
  "Masked2DetailMapMaterial",
  "DcDtOcOtTwo",
  "DetailMap2Dm1Msk2PassMaterial",
  "DcDtBtOcOtTwo",
  "DcDtEcTwo",
  "IllumDetailMapMaterial",
  "DcDtBtOcOt",
  "DcDtBtEcEt",
  "DcDtBtTwo",
  "DcDtEtTwo",
  // Selected only through [MaterialMap].
  "NebulaTwo",
  "EcEt",
  "BtDetailMapMaterial",
  "BtDetailMapMaterialTwo",
  "NomadMaterial",
  "NomadMaterialNoBendy",
  "GlassMaterial",
  "GFGlassMaterial",
  "HighGlassMaterial",
  "PlanetWaterMaterial",
  "ExclusionZoneMaterial",
  "HUDIconMaterial",
  "HUDAnimMaterial",
  "NullMaterial",
  // Librelancer's basic list.
  "Dc",
]);

const KNOWN_BY_LOWER_CASE = new Map([...KNOWN_MATERIAL_TYPES].map((t) => [t.toLowerCase(), t]));

/**
 * The known type a material's type spells in another case (`dcdtocot` → `DcDtOcOt`), or undefined
 * when it is known as written or not at all.
 */
export function knownTypeInOtherCase(type: string): string | undefined {
  return KNOWN_MATERIAL_TYPES.has(type) ? undefined : KNOWN_BY_LOWER_CASE.get(type.toLowerCase());
}
