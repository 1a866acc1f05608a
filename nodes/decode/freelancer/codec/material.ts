/**
 * Material libraries (`Material library/`, embedded or in a `.mat` file): one directory per
 * material, keyed by the FLCRC32 of its name. Only what maps to glTF PBR is read.
 *
 * @module
 */
import { flCrc32 } from "./crc.ts";
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
  /** Shader name, e.g. `DcDt`, `DcDtOcOt`, `DcDtTwo`. */
  readonly type: string;
  /** Diffuse colour (sRGB-ish RGB). */
  readonly dc?: readonly number[];
  /** Emissive colour. */
  readonly ec?: readonly number[];
  /** Opacity. */
  readonly oc?: number;
  readonly diffuseTexture?: TextureSlot;
  readonly emissiveTexture?: TextureSlot;
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
  const color = (name: string) => {
    const leaf = findChild(dir, name);
    return leaf ? requireLeaf(leaf, `a ${name} leaf`).floats(0, 3, `material ${name}`) : undefined;
  };
  const slot = (prefix: string): TextureSlot | undefined => {
    const nameLeaf = findChild(dir, `${prefix}_name`);
    if (!nameLeaf) return undefined;
    const flagsLeaf = findChild(dir, `${prefix}_flags`);
    const flags = flagsLeaf
      ? requireLeaf(flagsLeaf, `a ${prefix}_flags leaf`).u32(0, `${prefix}_flags`)
      : 0x40;
    return { name: leafString(nameLeaf), flags };
  };
  const typeLeaf = findChild(dir, "Type");
  const ocLeaf = findChild(dir, "Oc");
  return {
    name: dir.name,
    type: typeLeaf ? leafString(typeLeaf) : "DcDt",
    dc: color("Dc"),
    ec: color("Ec"),
    oc: ocLeaf ? requireLeaf(ocLeaf, "an Oc leaf").floats(0, 1, "material Oc")[0] : undefined,
    diffuseTexture: slot("Dt"),
    emissiveTexture: slot("Et"),
  };
}

/** `Two` in the shader name: the material is double-sided. */
export function isDoubleSided(material: MaterialDef): boolean {
  return /Two/.test(material.type);
}

/** `Oc` or `Ot` in the shader name: alpha-blended, opacity from `Oc` and the diffuse alpha. */
export function isBlended(material: MaterialDef): boolean {
  return /O[ct]/.test(material.type);
}
