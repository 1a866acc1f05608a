/**
 * Flight Simulator's clear coat (`ASOBO_material_clear_coat`, MSFS 2020's car-paint layer) as
 * `KHR_materials_clearcoat`. The extension holds one texture, `dirtTexture`; Asobo's own Blender
 * add-on (glTF-Blender-IO-MSFS, `MSFS_Clearcoat`) reads it as non-colour data, its red channel the
 * coat's amount and its green the coat's roughness — where `KHR_materials_clearcoat` reads its
 * `clearcoatTexture` (red) and `clearcoatRoughnessTexture` (green). So the texture becomes both, with
 * factors of 1. Without a `dirtTexture` the add-on draws no coat, and neither does this.
 * `ASOBO_material_clear_coat_v2` (MSFS 2024) is read the same way: Asobo's MSFS 2024 Blender add-on
 * (glTF-Blender-IO-MSFS2024, `MSFS2024_Clearcoat.set_clearcoat_tex`) splits its
 * `clearcoatColorRoughnessTexture` as it splits the `dirtTexture`, red the coat and green its
 * roughness. Its other settings (a coat normal texture, the textures' own tilings, "uniform base
 * roughness") are named as left out.
 *
 * @module
 */
import type { Document, Material, TextureInfo } from "@gltf-transform/core";
import { type Clearcoat, KHRMaterialsClearcoat } from "@gltf-transform/extensions";
import type { Json } from "./checker.ts";
import { SAMPLER_ENUMS, type SamplerEnum } from "./check_scene.ts";

/** The extension this module reads (MSFS 2020's). */
export const CLEAR_COAT = "ASOBO_material_clear_coat";
/** MSFS 2024's clear coat, read the same way. */
export const CLEAR_COAT_V2 = "ASOBO_material_clear_coat_v2";

/** Each clear-coat extension's texture, and the settings of it left out when set. */
const COATS = [
  { extension: CLEAR_COAT, texture: "dirtTexture", unread: {} as Json },
  {
    extension: CLEAR_COAT_V2,
    texture: "clearcoatColorRoughnessTexture",
    // Each setting with its default: one at its default changes nothing.
    unread: {
      clearcoatNormalTexture: undefined,
      clearcoatColorRoughnessTiling: 1,
      clearcoatNormalTiling: 1,
      clearcoatInverseRoughness: false,
    } as Json,
  },
];

/** A clear coat's texture, as the file's JSON gives it: its image, UV set and sampler settings. */
export interface MsfsClearCoat {
  /** Which extension gave it. */
  readonly extension: string;
  /** Its texture's key in that extension (`dirtTexture`, `clearcoatColorRoughnessTexture`). */
  readonly textureKey: string;
  /** Settings of the extension that are set and left out. */
  readonly unread: readonly string[];
  /** Index of the image (glTF-Transform's texture) the `dirtTexture` draws; undefined when it names none. */
  readonly image?: number;
  readonly texCoord: number;
  readonly sampler: { [K in SamplerEnum]?: number };
}

/**
 * A material's clear coat, read from the file's JSON (before glTF-Transform drops the extension);
 * undefined when it has none. A `dirtTexture` naming no texture with an image gives no `image`.
 */
export function readClearCoat(json: Json, extensions: Json): MsfsClearCoat | undefined {
  const kind = COATS.find(({ extension }) =>
    extensions[extension] !== undefined && extensions[extension] !== null
  );
  if (!kind) return undefined;
  const coat = extensions[kind.extension] as Json;
  const info = typeof coat === "object" ? coat[kind.texture] as Json | undefined : undefined;
  const unread = Object.entries(kind.unread)
    .filter(([key, byDefault]) => coat?.[key] !== undefined && coat[key] !== null && coat[key] !== byDefault)
    .map(([key]) => key);
  const textures = Array.isArray(json.textures) ? json.textures as Json[] : [];
  const index = info?.index;
  const texture = typeof index === "number" && Number.isInteger(index) ? textures[index] : undefined;
  const source = texture?.source;
  const images = Array.isArray(json.images) ? json.images.length : 0;
  const image = typeof source === "number" && Number.isInteger(source) && source >= 0 && source < images
    ? source
    : undefined;
  const texCoord = typeof info?.texCoord === "number" && Number.isInteger(info.texCoord) && info.texCoord >= 0
    ? info.texCoord
    : 0;
  // Read before the structure check repairs samplers: an enum glTF does not define is left at its default.
  const samplers = Array.isArray(json.samplers) ? json.samplers as Json[] : [];
  const given = typeof texture?.sampler === "number" ? samplers[texture.sampler] ?? {} : {};
  const sampler: MsfsClearCoat["sampler"] = {};
  for (const [key, known] of SAMPLER_ENUMS) {
    const value = given?.[key];
    if (typeof value === "number" && known.includes(value)) sampler[key] = value;
  }
  return { extension: kind.extension, textureKey: kind.texture, unread, image, texCoord, sampler };
}

/**
 * Gives `material` the clear coat: its texture as `KHR_materials_clearcoat`'s coat (red) and coat
 * roughness (green) textures. "set" when it did; "none" when the coat names no texture (no coat is
 * drawn); "existing" when the material already has a `KHR_materials_clearcoat`, which is left.
 */
export function setClearCoat(
  doc: Document,
  material: Material,
  coat: MsfsClearCoat,
): "set" | "none" | "existing" {
  if (material.getExtension(KHRMaterialsClearcoat.EXTENSION_NAME)) return "existing";
  const texture = coat.image === undefined ? undefined : doc.getRoot().listTextures()[coat.image];
  if (!texture) return "none";
  const clearcoat: Clearcoat = doc.createExtension(KHRMaterialsClearcoat).createClearcoat()
    .setClearcoatFactor(1)
    .setClearcoatTexture(texture)
    .setClearcoatRoughnessFactor(1)
    .setClearcoatRoughnessTexture(texture);
  for (const info of [clearcoat.getClearcoatTextureInfo()!, clearcoat.getClearcoatRoughnessTextureInfo()!]) {
    applySampler(info, coat);
  }
  material.setExtension(KHRMaterialsClearcoat.EXTENSION_NAME, clearcoat);
  return "set";
}

function applySampler(info: TextureInfo, coat: MsfsClearCoat): void {
  info.setTexCoord(coat.texCoord);
  const { wrapS, wrapT, magFilter, minFilter } = coat.sampler;
  type Wrap = Parameters<TextureInfo["setWrapS"]>[0];
  if (wrapS !== undefined) info.setWrapS(wrapS as Wrap);
  if (wrapT !== undefined) info.setWrapT(wrapT as Wrap);
  if (magFilter !== undefined) info.setMagFilter(magFilter as Parameters<TextureInfo["setMagFilter"]>[0]);
  if (minFilter !== undefined) info.setMinFilter(minFilter as Parameters<TextureInfo["setMinFilter"]>[0]);
}

/** The clear-coat texture infos of `material`, for transforms that apply to all its textures. */
export function clearCoatTextureInfos(material: Material): TextureInfo[] {
  const clearcoat = material.getExtension<Clearcoat>(KHRMaterialsClearcoat.EXTENSION_NAME);
  if (!clearcoat) return [];
  return [
    clearcoat.getClearcoatTextureInfo(),
    clearcoat.getClearcoatRoughnessTextureInfo(),
    clearcoat.getClearcoatNormalTextureInfo(),
  ].filter((info): info is TextureInfo => info !== null);
}
