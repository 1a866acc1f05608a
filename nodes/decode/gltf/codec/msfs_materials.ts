/**
 * What Microsoft Flight Simulator's material extensions say about how a material looks, kept where
 * glTF can say it. glTF-Transform does not read the `ASOBO_material_*` extensions, so without this
 * their meaning is lost with them:
 *
 * - `ASOBO_material_invisible` (cockpit click spots, collision shells) and
 *   `ASOBO_material_environment_occluder` (shells that keep rain and sky light out of the cockpit)
 *   are never drawn by the sim; drawn here they would wall the windscreen off in grey. Their
 *   primitives are left out.
 * - `ASOBO_material_UV_options` repeats and shifts the material's textures (`UVTilingU/V`,
 *   `UVOffsetU/V`: uv × tiling + offset); that is `KHR_texture_transform`'s scale and offset.
 * - Decals (`ASOBO_material_geometry_decal`, `ASOBO_material_blend_gbuffer`: panel lettering, rivet
 *   and grime ribbons) blend their texture over the surface below by its alpha, and by
 *   `baseColorBlendFactor` (1 when absent); exporters often leave them `OPAQUE`, which draws the
 *   lettering's transparent surround as a solid box. A textured decal is blended, its factor taken
 *   into its base colour's alpha; one blending no colour (factor 0) only changes the shading below,
 *   and drawn it would show as stray patches: left out.
 * - Glass and windshields (`ASOBO_material_glass`, `…_glass_v2`, `…_kitty_glass`,
 *   `…_windshield`, `…_v2`, `…_v3`) are drawn in the sim's translucent layer, their opacity the base
 *   colour's alpha (the SDK has authors set it to 0.01) or their texture's; exporters leave many of
 *   them `OPAQUE`, which draws the canopy as a solid pane over the cockpit. Such a one is blended.
 * - Clear coat (`ASOBO_material_clear_coat`, `…_clear_coat_v2`) becomes `KHR_materials_clearcoat`
 *   (`msfs_clearcoat.ts`).
 * - Emission by time of day (`ASOBO_material_day_night_switch`, `ASOBO_material_emissive`'s
 *   multipliers) becomes `KHR_materials_variants` `day` and `night` (`msfs_day_night.ts`).
 * - A detail layer (`ASOBO_material_detail_map`: colour, normal and occlusion-roughness-metal
 *   textures tiled `UVScale` times over the base, through a blend mask or vertex alpha) has no glTF
 *   counterpart (a material has one texture per slot): the base is drawn alone, the materials named.
 * - Dithered transparency (`ASOBO_material_alphamode_dither`, whatever `alphaMode` says) is drawn
 *   blended where the file left the material `OPAQUE` with an alpha below 1 or a texture, as glass is.
 *
 * @module
 */
import type { Document, Material, TextureInfo } from "@gltf-transform/core";
import { KHRTextureTransform } from "@gltf-transform/extensions";
import type { Json } from "./checker.ts";
import {
  CLEAR_COAT,
  CLEAR_COAT_V2,
  clearCoatTextureInfos,
  type MsfsClearCoat,
  readClearCoat,
  setClearCoat,
} from "./msfs_clearcoat.ts";
import {
  DAY_NIGHT_SWITCH,
  type DayNight,
  EMISSIVE_MULTIPLIERS,
  readDayNight,
  setDayNightVariants,
} from "./msfs_day_night.ts";

/** One material's MSFS look, by its index in the file. */
export interface MsfsLook {
  /** The extension that keeps the sim from drawing it, when one does. */
  readonly hiddenBy?: string;
  /** Texture scale and offset from `ASOBO_material_UV_options`, when not identity. */
  readonly uv?: { readonly scale: [number, number]; readonly offset: [number, number] };
  /** For a decal, the share of its colour it blends over the surface below (0–1). */
  readonly decalBlend?: number;
  /** For glass or a windshield, the extension that says so. */
  readonly glass?: string;
  /** The clear coat's texture, from `ASOBO_material_clear_coat`. */
  readonly clearcoat?: MsfsClearCoat;
  /** Emission multipliers by day and by night, when they differ from 1. */
  readonly dayNight?: DayNight;
  /** Whether its transparency is dithered (`ASOBO_material_alphamode_dither`). */
  readonly dither?: boolean;
  /** The detail layer's textures (`ASOBO_material_detail_map`), by key, and its tiling. */
  readonly detail?: { readonly textures: readonly string[]; readonly scale: number };
}

const DETAIL = "ASOBO_material_detail_map";
/** A detail layer's textures, by key, and the word a note names each by. */
const DETAIL_TEXTURES: readonly [string, string][] = [
  ["detailColorTexture", "colour"],
  ["detailNormalTexture", "normal"],
  ["detailMetalRoughAOTexture", "occlusion-roughness-metal"],
  ["blendMaskTexture", "blend mask"],
];

const DITHER = "ASOBO_material_alphamode_dither";

const HIDING = ["ASOBO_material_invisible", "ASOBO_material_environment_occluder"];
const DECALS = ["ASOBO_material_geometry_decal", "ASOBO_material_blend_gbuffer"];
const GLASS = [
  "ASOBO_material_glass",
  "ASOBO_material_glass_v2",
  "ASOBO_material_kitty_glass",
  "ASOBO_material_windshield",
  "ASOBO_material_windshield_v2",
  "ASOBO_material_windshield_v3",
];

/** The `ASOBO_` material extensions whose meaning this module keeps. */
export const MSFS_MATERIAL_EXTENSIONS: ReadonlySet<string> = new Set([
  ...HIDING,
  ...DECALS,
  ...GLASS,
  "ASOBO_material_UV_options",
  CLEAR_COAT,
  CLEAR_COAT_V2,
  DAY_NIGHT_SWITCH,
  EMISSIVE_MULTIPLIERS,
  DITHER,
  DETAIL,
]);

/** Reads each material's MSFS look from the file's JSON (before glTF-Transform drops the extensions). */
export function readMsfsLooks(file: object): Map<number, MsfsLook> {
  const json = file as Json;
  const looks = new Map<number, MsfsLook>();
  const materials = Array.isArray(json.materials) ? json.materials as Json[] : [];
  materials.forEach((material, i) => {
    const extensions = material?.extensions as Json | undefined;
    if (!extensions || typeof extensions !== "object") return;
    const present = (name: string) => extensions[name] !== undefined && extensions[name] !== null;
    const decal = DECALS.find(present);
    const blendFactor = decal && (extensions[decal] as Json)?.baseColorBlendFactor;
    const decalBlend = decal === undefined
      ? undefined
      : typeof blendFactor === "number" && Number.isFinite(blendFactor)
      ? Math.min(1, Math.max(0, blendFactor))
      : 1;
    const hiddenBy = HIDING.find(present) ?? (decalBlend === 0 ? `${decal}, blending no colour` : undefined);
    const options = extensions.ASOBO_material_UV_options as Json | undefined;
    const number = (key: string, fallback: number) => {
      const value = options?.[key];
      return typeof value === "number" && Number.isFinite(value) ? value : fallback;
    };
    const scale: [number, number] = [number("UVTilingU", 1), number("UVTilingV", 1)];
    const offset: [number, number] = [number("UVOffsetU", 0), number("UVOffsetV", 0)];
    const identity = scale[0] === 1 && scale[1] === 1 && offset[0] === 0 && offset[1] === 0;
    const glass = GLASS.find(present);
    const clearcoat = readClearCoat(json, extensions);
    const dayNight = readDayNight(extensions);
    const dither = present(DITHER);
    const detail = readDetail(extensions[DETAIL]);
    if (hiddenBy || !identity || decal || glass || clearcoat || dayNight || dither || detail) {
      const uv = identity ? undefined : { scale, offset };
      looks.set(i, { hiddenBy, uv, decalBlend, glass, clearcoat, dayNight, dither, detail });
    }
  });
  return looks;
}

/** A detail layer's textures and tiling, or undefined when it names no texture (it then changes nothing). */
function readDetail(detail: unknown): MsfsLook["detail"] {
  if (!detail || typeof detail !== "object") return undefined;
  const given = detail as Json;
  const textures = DETAIL_TEXTURES.filter(([key]) => given[key] && typeof given[key] === "object")
    .map(([, word]) => word);
  if (!textures.length) return undefined;
  const scale = typeof given.UVScale === "number" && Number.isFinite(given.UVScale) ? given.UVScale : 1;
  return { textures, scale };
}

/**
 * Applies the looks to the decoded scene (materials in the file's order): primitives of hidden
 * materials are left out, UV options become texture transforms. Returns what it did, one line per
 * kind, naming the materials.
 */
export function applyMsfsLooks(
  doc: Document,
  looks: ReadonlyMap<number, MsfsLook>,
  label: (material: Material) => string,
): string[] {
  if (!looks.size) return [];
  const notes: string[] = [];
  const materials = doc.getRoot().listMaterials();
  const hidden = new Map<Material, string>();
  const tiled: string[] = [];
  const kept: string[] = [];
  const blended: string[] = [];
  const glazed: string[] = [];
  const dithered: string[] = [];
  const detailed: string[] = [];
  const dayNight = new Map<Material, DayNight>();
  const coats = new Map<string, { set: string[]; none: string[]; existing: string[]; unread: string[] }>();
  for (const [i, look] of looks) {
    const material = materials[i];
    if (!material) continue;
    if (look.hiddenBy) hidden.set(material, look.hiddenBy);
    else if (look.decalBlend !== undefined && drawnAsDecal(material, look.decalBlend)) {
      blended.push(label(material));
    } else if (look.glass && drawnAsGlass(material)) glazed.push(label(material));
    else if (look.dither && drawnAsGlass(material)) dithered.push(label(material));
    if (look.dayNight && !look.hiddenBy) dayNight.set(material, look.dayNight);
    if (look.detail && !look.hiddenBy) {
      detailed.push(`${label(material)} (${look.detail.textures.join(", ")}; ×${look.detail.scale})`);
    }
    // Before the UV options, which apply to the coat's texture too.
    if (look.clearcoat && !look.hiddenBy) {
      const { extension, unread } = look.clearcoat;
      const kind = coats.get(extension) ?? { set: [], none: [], existing: [], unread: [] };
      coats.set(extension, kind);
      const result = setClearCoat(doc, material, look.clearcoat);
      kind[result].push(label(material));
      if (result === "set" && unread.length) kind.unread.push(`${label(material)} (${unread.join(", ")})`);
    }
    const transform = look.uv && setTextureTransforms(doc, material, look.uv);
    if (transform === "set") tiled.push(label(material));
    else if (transform === "existing") kept.push(label(material));
  }
  let leftOut = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      if (material && hidden.has(material)) {
        primitive.dispose();
        leftOut++;
      }
    }
  }
  // After the hidden primitives are left out: none of them is given variants.
  notes.push(...setDayNightVariants(doc, dayNight, label));
  if (hidden.size) {
    const names = [...hidden].map(([material, by]) => `${label(material)} (${by})`).join(", ");
    notes.push(
      `material${hidden.size > 1 ? "s" : ""} ${names} never drawn in Flight Simulator: ` +
        `${leftOut} primitive${leftOut === 1 ? "" : "s"} using ${hidden.size > 1 ? "them" : "it"} left out`,
    );
  }
  if (blended.length) {
    notes.push(
      `decal material${blended.length > 1 ? "s" : ""} ${blended.join(", ")} blended by texture alpha ` +
        "and baseColorBlendFactor, as Flight Simulator draws decals",
    );
  }
  if (glazed.length) {
    notes.push(
      `glass material${glazed.length > 1 ? "s" : ""} ${glazed.join(", ")} marked OPAQUE blended by ` +
        "base colour alpha, as Flight Simulator draws glass (its reflection settings are left out)",
    );
  }
  if (dithered.length) {
    notes.push(
      `dithered material${dithered.length > 1 ? "s" : ""} ${dithered.join(", ")} (${DITHER}) marked ` +
        "OPAQUE blended by base colour alpha, as near as glTF comes to Flight Simulator's dithering",
    );
  }
  if (detailed.length) {
    notes.push(
      `material${detailed.length > 1 ? "s" : ""} ${detailed.join(", ")} carr${
        detailed.length > 1 ? "y" : "ies"
      } a detail layer (${DETAIL}: ` +
        "textures tiled over the base by their UV scale, blended by a mask or vertex alpha), which glTF " +
        "has no second texture slot for: drawn with the base alone, the detail layer left out",
    );
  }
  for (const [extension, kind] of coats) {
    const of = (names: string[]) => `${extension} of ${names.join(", ")}`;
    const texture = extension === CLEAR_COAT ? "dirtTexture" : "clearcoatColorRoughnessTexture";
    if (kind.set.length) {
      notes.push(
        `${of(kind.set)} kept as KHR_materials_clearcoat: its ${texture}'s red channel the coat, ` +
          "its green the coat's roughness (as Asobo's Blender add-on reads it)",
      );
    }
    if (kind.unread.length) {
      notes.push(`${of(kind.unread)}: these settings have no reading partgraph follows and are left out`);
    }
    if (kind.none.length) {
      notes.push(
        `${of(kind.none)} names no ${texture} with an image: no coat is drawn (nor by Asobo's add-on)`,
      );
    }
    if (kind.existing.length) {
      notes.push(`${of(kind.existing)} not kept: the material already has a KHR_materials_clearcoat`);
    }
  }
  if (tiled.length) {
    notes.push(
      `ASOBO_material_UV_options of ${tiled.join(", ")} kept as KHR_texture_transform (scale and offset)`,
    );
  }
  if (kept.length) {
    notes.push(
      `ASOBO_material_UV_options of ${kept.join(", ")} not kept: its textures already carry a ` +
        "KHR_texture_transform, which is left as it is",
    );
  }
  return notes;
}

/**
 * Blends a textured decal (an `OPAQUE` or `BLEND` one; a `MASK` cutout keeps its own test) by its
 * texture's alpha times `blend`; false when nothing changed.
 */
function drawnAsDecal(material: Material, blend: number): boolean {
  if (!material.getBaseColorTexture() || material.getAlphaMode() === "MASK") return false;
  if (material.getAlphaMode() === "BLEND" && blend === 1) return false;
  const [r, g, b, a] = material.getBaseColorFactor();
  material.setAlphaMode("BLEND").setBaseColorFactor([r, g, b, a * blend]);
  return true;
}

/**
 * Blends an `OPAQUE` glass whose base colour or texture can make it see-through; false when nothing
 * changed (a `MASK` one keeps its own test, one already blended stays so).
 */
function drawnAsGlass(material: Material): boolean {
  if (material.getAlphaMode() !== "OPAQUE") return false;
  if (material.getBaseColorFactor()[3] >= 1 && !material.getBaseColorTexture()) return false;
  material.setAlphaMode("BLEND");
  return true;
}

/**
 * Sets the scale and offset on each texture of the material: "none" when it has no texture,
 * "existing" (leaving them) when one already has a transform.
 */
function setTextureTransforms(
  doc: Document,
  material: Material,
  uv: NonNullable<MsfsLook["uv"]>,
): "set" | "none" | "existing" {
  const infos = [
    material.getBaseColorTextureInfo(),
    material.getMetallicRoughnessTextureInfo(),
    material.getNormalTextureInfo(),
    material.getOcclusionTextureInfo(),
    material.getEmissiveTextureInfo(),
    ...clearCoatTextureInfos(material),
  ].filter((info): info is TextureInfo => info !== null);
  if (!infos.length) return "none";
  if (infos.some((info) => info.getExtension(KHRTextureTransform.EXTENSION_NAME))) return "existing";
  const extension = doc.createExtension(KHRTextureTransform);
  for (const info of infos) {
    info.setExtension(
      KHRTextureTransform.EXTENSION_NAME,
      extension.createTransform().setScale([...uv.scale]).setOffset([...uv.offset]),
    );
  }
  return "set";
}
