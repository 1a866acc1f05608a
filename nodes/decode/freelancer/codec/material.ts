/**
 * Material libraries (`Material library/`, embedded or in a `.mat` file): one directory per
 * material, keyed by the FLCRC32 of its name. Only what maps to glTF PBR is read.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { flCrc32 } from "./crc.ts";
import { type MaterialMap, materialMapType } from "./material_map.ts";
import { knownTypeInOtherCase } from "./material_types.ts";
import { findChild, leafString, requireLeaf, type UtfEntry } from "./utf.ts";

/** A texture slot: texture library name and sampler flags. */
export interface TextureSlot {
  readonly name: string;
  /** Bit 1 clamp U, bit 3 clamp V, 0x10 second UV set. */
  readonly flags: number;
}

/** The glTF-relevant properties of one Freelancer material. */
export interface MaterialDef {
  readonly name: string;
  /**
   * Shader name, e.g. `DcDt`, `DcDtOcOt`, `DcDtTwo`: the type the game draws with, after
   * `[MaterialMap]` ({@link mapMaterial}).
   */
  readonly type: string;
  /** The `Type` leaf as stored, when `[MaterialMap]` rewrote it. */
  readonly storedType?: string;
  /** The `[MaterialMap]` rule that rewrote the type (`name = ^nomad.*$`, `DcDtEcEt`). */
  readonly mapRule?: string;
  /**
   * The type as written, when it is a known type spelt in another case (`dcdtocot`): `type` is then
   * the known type ({@link mapMaterial}).
   */
  readonly writtenType?: string;
  /** Diffuse colour (sRGB-ish RGB). */
  readonly dc?: readonly number[];
  /** Emissive colour. */
  readonly ec?: readonly number[];
  /** Opacity. */
  readonly oc?: number;
  /** `Alpha`: an `AtmosphereMaterial`'s opacity (set only when present). */
  readonly alpha?: number;
  /**
   * `Scale`: how much larger than its planet an `AtmosphereMaterial`'s shell is drawn (set only
   * when present; `sphere.ts`).
   */
  readonly scale?: number;
  readonly diffuseTexture?: TextureSlot;
  readonly emissiveTexture?: TextureSlot;
  /**
   * `Nt_name`/`Nt_flags`: a nomad material's view-angle ramp (read on every material, used only by
   * the nomad types; {@link textureSlots} gives the default when it is absent).
   */
  readonly nomadTexture?: TextureSlot;
  /** LancerEdit's extension properties (never in retail files), as Librelancer reads them. */
  readonly normalTexture?: TextureSlot;
  /** Single-channel metallic map (`Mt_name`); Librelancer samples its red channel. */
  readonly metallicTexture?: TextureSlot;
  /** Single-channel roughness map (`Rt_name`); Librelancer samples its red channel. */
  readonly roughnessTexture?: TextureSlot;
  /** `M_factor`. */
  readonly metallic?: number;
  /** `R_factor`. */
  readonly roughness?: number;
  /**
   * `flip u` / `flip v` (u32, non-zero = on), read only for the types whose shader flips with them
   * ({@link FLIPPING_TYPES}); set only when on.
   */
  readonly flipU?: boolean;
  readonly flipV?: boolean;
  /**
   * The detail maps (`Dm_name`, `Dm0_name`, `Dm1_name`) and their tile rates (`TileRate`,
   * `TileRate0`, `TileRate1`), set only when one is present; drawn by the detail-map types
   * ({@link detailLayers}).
   */
  readonly detailMaps?: DetailMaps;
  /** `Bt_name`/`Bt_flags`: a detail texture on the second UV set that Librelancer does not draw. */
  readonly btTexture?: TextureSlot;
  /**
   * Set when a leaf of the material is damaged (short, not finite, a directory where a leaf
   * belongs): its entry path and the reason. The material then stands in as a placeholder.
   */
  readonly damage?: { readonly entry: string; readonly reason: string };
}

/** A material's detail-map leaves (each optional, as retail stores them). */
export interface DetailMaps {
  readonly dm?: TextureSlot;
  readonly dm0?: TextureSlot;
  readonly dm1?: TextureSlot;
  readonly tileRate?: number;
  readonly tileRate0?: number;
  readonly tileRate1?: number;
}

/** A detail map as a detail-map shader reads it: its slot and the rate its UVs are scaled by. */
export interface DetailLayerSlot {
  readonly slot: TextureSlot;
  readonly rate: number;
}

/**
 * The detail maps the material's type draws (Librelancer `Material.Initialize`): `Dm` at `TileRate`
 * (`DetailMapMaterial`), `Dm0` at `TileRate0` and `Dm1` at `TileRate1` (`Masked2DetailMapMaterial`,
 * `IllumDetailMapMaterial`), `Dm1` at `TileRate` (`DetailMap2Dm1Msk2PassMaterial`); an absent rate is
 * 0, as there. `undefined` for any other type.
 */
export function detailLayers(
  material: MaterialDef,
): { detail?: DetailLayerSlot; detail1?: DetailLayerSlot } | undefined {
  const m = material.detailMaps ?? {};
  const layer = (slot: TextureSlot | undefined, rate: number | undefined) =>
    slot ? { slot, rate: rate ?? 0 } : undefined;
  switch (material.type) {
    case "DetailMapMaterial":
      return { detail: layer(m.dm, m.tileRate) };
    case "Masked2DetailMapMaterial":
    case "IllumDetailMapMaterial":
      return { detail: layer(m.dm0, m.tileRate0), detail1: layer(m.dm1, m.tileRate1) };
    case "DetailMap2Dm1Msk2PassMaterial":
      return { detail1: layer(m.dm1, m.tileRate) };
    default:
      return undefined;
  }
}

/**
 * The texture a nomad material reads when it names none (Librelancer `NomadMaterial.Use`:
 * `NtSampler ?? "NomadRGB1_NomadAlpha1"`; treewyrm's `fllib` `nomad.ts` has the same default).
 */
export const DEFAULT_NOMAD_TEXTURE = "NomadRGB1_NomadAlpha1";

/** The nomad shaders (`NomadMaterial`, `NomadMaterialNoBendy`; case-sensitive, as `Material.cs`). */
export function isNomad(material: MaterialDef): boolean {
  return material.type === "NomadMaterial" || material.type === "NomadMaterialNoBendy";
}

/** A nomad material's ramp texture: its own `Nt_name`, else {@link DEFAULT_NOMAD_TEXTURE}. */
export function nomadSlot(material: MaterialDef): TextureSlot {
  return material.nomadTexture ?? { name: DEFAULT_NOMAD_TEXTURE, flags: 0 };
}

/**
 * `Et` in the type: the shader samples the emissive texture (Librelancer `Material.Initialize`:
 * `EtEnabled` only when the type contains `Et`; `Basic_Fragment.inc` adds it under `ET_ENABLED`). An
 * `Et_name` on another type (`DcDtEc`, `DcDtOcOt`) is not drawn.
 */
export function drawsEt(material: MaterialDef): boolean {
  return material.type.includes("Et");
}

/**
 * The game's `NullMaterial` (retail's map gives it to a material named `null`): "plain transparent",
 * the material the game falls back on (Librelancer's wiki, `utf:mat:material_library`; the Starport's
 * `file-structures/utf/mat`: "Fallback material", no alpha), so what it covers is not drawn.
 * Compared case-sensitively, as every type is.
 */
export function isNullMaterial(material: MaterialDef | undefined): boolean {
  return material?.type === "NullMaterial" && !material.damage;
}

/** Every texture slot the material draws, diffuse first (none for a `NullMaterial`). */
export function textureSlots(material: MaterialDef): TextureSlot[] {
  if (isNullMaterial(material)) return [];
  return [
    material.diffuseTexture,
    drawsEt(material) ? material.emissiveTexture : undefined,
    isNomad(material) ? nomadSlot(material) : undefined,
    detailLayers(material)?.detail?.slot,
    detailLayers(material)?.detail1?.slot,
    material.normalTexture,
    material.metallicTexture,
    material.roughnessTexture,
  ].filter((slot) => slot !== undefined);
}

/**
 * Librelancer's PBR path (`BasicMaterial.Use`): on when a metallic or roughness map or factor is
 * present; an absent factor is then 1.
 */
export function isPbr(material: MaterialDef): boolean {
  return material.metallicTexture !== undefined || material.roughnessTexture !== undefined ||
    material.metallic !== undefined || material.roughness !== undefined;
}

/** Sampler flag: clamp U. */
export const FLAG_CLAMP_U = 0x2;
/** Sampler flag: clamp V. */
export const FLAG_CLAMP_V = 0x8;
/** Sampler flag: the slot reads the second UV set. */
export const FLAG_SECOND_UV = 0x10;

/** Reads every material of a `Material library` directory into `into` (first of a duplicate id wins). */
export function readMaterialLibrary(library: UtfEntry, into: Map<number, MaterialDef>): void {
  for (const dir of library.children ?? []) {
    if (!dir.children) continue; // `Material count` and other leaves
    const id = flCrc32(dir.name);
    if (!into.has(id)) into.set(id, readMaterial(dir));
  }
}

function readMaterial(dir: UtfEntry): MaterialDef {
  let type = "DcDt";
  let reading = "Type";
  try {
    const typeLeaf = findChild(dir, "Type");
    if (typeLeaf) type = leafString(typeLeaf);
    return readProperties(dir, type, (leaf) => reading = leaf);
  } catch (error) {
    // One damaged material should not cost the model: it becomes a named placeholder (built with
    // a warning only when a mesh uses it, so libraries searched but not needed stay quiet).
    if (!(error instanceof DecodeError)) throw error;
    return { name: dir.name, type, damage: { entry: `${dir.name}/${reading}`, reason: error.message } };
  }
}

function readProperties(dir: UtfEntry, type: string, reading: (leaf: string) => void): MaterialDef {
  const find = (name: string) => {
    const leaf = findChild(dir, name);
    if (leaf) reading(leaf.name);
    return leaf;
  };
  const color = (name: string) => {
    const leaf = find(name);
    return leaf ? requireLeaf(leaf, `a ${name} leaf`).floats(0, 3, `material ${name}`) : undefined;
  };
  const scalar = (name: string) => {
    const leaf = find(name);
    return leaf ? requireLeaf(leaf, `a ${name} leaf`).floats(0, 1, `material ${name}`)[0] : undefined;
  };
  const slot = (prefix: string): TextureSlot | undefined => {
    const nameLeaf = find(`${prefix}_name`);
    if (!nameLeaf) return undefined;
    const name = leafString(nameLeaf);
    const flagsLeaf = find(`${prefix}_flags`);
    const flags = flagsLeaf
      ? requireLeaf(flagsLeaf, `a ${prefix}_flags leaf`).u32(0, `${prefix}_flags`)
      : 0x40;
    return { name, flags };
  };
  const def: MaterialDef = {
    name: dir.name,
    type,
    dc: color("Dc"),
    ec: color("Ec"),
    oc: scalar("Oc"),
    diffuseTexture: slot("Dt"),
    emissiveTexture: slot("Et"),
  };
  const nomad = slot("Nt");
  if (nomad) (def as { nomadTexture?: TextureSlot }).nomadTexture = nomad;
  const alpha = scalar("Alpha");
  if (alpha !== undefined) (def as { alpha?: number }).alpha = alpha;
  const scale = scalar("Scale");
  if (scale !== undefined) (def as { scale?: number }).scale = scale;
  const bt = slot("Bt");
  if (bt) (def as { btTexture?: TextureSlot }).btTexture = bt;
  const detail: Record<string, TextureSlot | number | undefined> = {
    dm: slot("Dm"),
    dm0: slot("Dm0"),
    dm1: slot("Dm1"),
    tileRate: scalar("TileRate"),
    tileRate0: scalar("TileRate0"),
    tileRate1: scalar("TileRate1"),
  };
  for (const key of Object.keys(detail)) if (detail[key] === undefined) delete detail[key];
  if (Object.keys(detail).length) (def as { detailMaps?: DetailMaps }).detailMaps = detail as DetailMaps;
  // LancerEdit's extensions (Librelancer `Material.cs`): set only when present, so a retail
  // material's definition, and everything built from it, stays as it was.
  const extension = {
    normalTexture: slot("Nm"),
    metallicTexture: slot("Mt"),
    roughnessTexture: slot("Rt"),
    metallic: scalar("M_factor"),
    roughness: scalar("R_factor"),
  };
  for (const [key, value] of Object.entries(extension)) {
    if (value !== undefined) (def as unknown as Record<string, unknown>)[key] = value;
  }
  if (FLIPPING_TYPES.has(type)) {
    const flag = (name: string) => {
      const leaf = find(name);
      return leaf ? requireLeaf(leaf, `a ${name} leaf`).u32(0, name) !== 0 : false;
    };
    if (flag("flip u")) (def as { flipU?: boolean }).flipU = true;
    if (flag("flip v")) (def as { flipV?: boolean }).flipV = true;
  }
  return def;
}

/**
 * The material as the game draws it: its type rewritten by `[MaterialMap]` when a rule matches
 * (the stored type and the rule kept beside it), else the same definition; then a known type spelt
 * in another case (`dcdtocot`) is read as that type (the written one kept beside it), since it is
 * plainly meant and no reader takes it as written. A damaged material stays the placeholder it is.
 */
export function mapMaterial(def: MaterialDef, map: MaterialMap): MaterialDef {
  if (def.damage) return def;
  const hit = materialMapType(map, def.type, def.name);
  const mapped = hit ? { ...def, type: hit.type, storedType: def.type, mapRule: hit.rule } : def;
  const known = knownTypeInOtherCase(mapped.type);
  return known ? { ...mapped, type: known, writtenType: mapped.type } : mapped;
}

/**
 * The types whose shader mirrors the texture coordinates by `flip u` / `flip v` (`1 − u`, `1 − v`):
 * only Librelancer's `IllumDetailMapMaterial.glsl`. Its other detail-map shaders
 * (`DetailMapMaterial`, `Masked2DetailMapMaterial`, `DetailMap2Dm1Msk2PassMaterial`) receive the
 * flags and ignore them (they flipped in earlier versions), and no other type reads them.
 * Compared case-sensitively, as `Material.cs` does.
 */
export const FLIPPING_TYPES: ReadonlySet<string> = new Set(["IllumDetailMapMaterial"]);

/**
 * Librelancer alpha-tests (at 0.5) a basic material whose name starts with `alpha_mask` or whose
 * type is `BtDetailMapMaterial` (`Material.Initialize`, both compared ignoring case), whatever its
 * texture's format; retail's `[MaterialMap]` gives those names `DcDt` / `DcDtTwo`.
 */
export function isAlphaTested(material: MaterialDef): boolean {
  return material.name.toLowerCase().startsWith("alpha_mask") ||
    material.type.toLowerCase() === "btdetailmapmaterial";
}

/** `Two` in the shader name: the material is double-sided. */
export function isDoubleSided(material: MaterialDef): boolean {
  return /Two/.test(material.type);
}

/**
 * Retail types Librelancer draws as `DcDtOcOt` (alpha-blended, lit, opacity from `Oc` and the
 * diffuse alpha), where the game used an environment map (`Material.cs` `FromNode`: "HACK: Should
 * do env mapping"). Compared case-sensitively, as there.
 */
const DRAWN_AS_DCDTOCOT = new Set([
  "HighGlassMaterial",
  "GlassMaterial",
  // Retail's map gives `planet*_glass` this type. Librelancer's `FromNode` knows no such type (it
  // throws); treewyrm's reader draws these names with its glass class, blended, as here.
  "GFGlassMaterial",
  "HUDAnimMaterial",
  "HUDIconMaterial",
  "PlanetWaterMaterial",
]);

/**
 * `Oc` or `Ot` in the shader name, a glass-like type Librelancer draws as `DcDtOcOt`, or an
 * `ExclusionZoneMaterial` (whose shell the game's nebula renderer draws blended: Librelancer's
 * `NebulaRenderer.RenderExclusionZone` sets `Oc`, `OcEnabled` and `AlphaEnabled` on it):
 * alpha-blended, opacity from `Oc` and the diffuse alpha.
 */
export function isBlended(material: MaterialDef): boolean {
  return /O[ct]/.test(material.type) || DRAWN_AS_DCDTOCOT.has(material.type) ||
    material.type === "ExclusionZoneMaterial";
}
