/**
 * Flight Simulator's emission by time of day, kept as glTF material variants. The sim lights a
 * material's emission by day and by night differently: `ASOBO_material_day_night_switch` (Asobo's
 * exporters' "Day Night Cycle": emission only at night; without it, always on) and
 * `ASOBO_material_emissive`'s `emissiveDayMultiplier` and `emissiveNightMultiplier` (MSFS 2024,
 * each 1 when absent) scale it. glTF has no time of day, but `KHR_materials_variants` has switchable
 * looks: each such material that emits keeps its own emission as the file gives it (what any glTF
 * viewer and Asobo's Blender add-on show), and its primitives are mapped to a copy for a `day`
 * variant and a `night` variant, emission scaled as the sim scales it (0 by day for a night-only
 * one; by `KHR_materials_emissive_strength` otherwise).
 *
 * @module
 */
import type { Document, Material } from "@gltf-transform/core";
import { KHRMaterialsEmissiveStrength, KHRMaterialsVariants } from "@gltf-transform/extensions";
import type { EmissiveStrength } from "@gltf-transform/extensions";
import type { Json } from "./checker.ts";

/** The extension that makes emission night-only. */
export const DAY_NIGHT_SWITCH = "ASOBO_material_day_night_switch";
/** The extension whose multipliers scale emission by day and by night. */
export const EMISSIVE_MULTIPLIERS = "ASOBO_material_emissive";

/** A material's emission multipliers by day and by night, as the sim applies them. */
export interface DayNight {
  readonly day: number;
  readonly night: number;
}

/**
 * What a material's `extensions` say about its emission by time of day, or undefined when they say
 * it is the same day and night.
 */
export function readDayNight(extensions: Json): DayNight | undefined {
  const switched = extensions[DAY_NIGHT_SWITCH];
  const nightOnly = switched !== undefined && switched !== null &&
    !(typeof switched === "object" && (switched as Json).enabled === false);
  const emissive = extensions[EMISSIVE_MULTIPLIERS] as Json | undefined;
  const multiplier = (key: string) => {
    const value = emissive && typeof emissive === "object" ? emissive[key] : undefined;
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 1;
  };
  const day = nightOnly ? 0 : multiplier("emissiveDayMultiplier");
  const night = multiplier("emissiveNightMultiplier");
  return day === 1 && night === 1 ? undefined : { day, night };
}

/**
 * Maps the primitives of each material of `dayNight` that emits to a `day` and a `night` copy
 * (`KHR_materials_variants`), leaving the material itself as the file draws it. Returns notes for
 * the decoder's warnings, naming the materials by `label`.
 */
export function setDayNightVariants(
  doc: Document,
  dayNight: ReadonlyMap<Material, DayNight>,
  label: (material: Material) => string,
): string[] {
  const emitting = [...dayNight].filter(([material]) => emits(material));
  if (!emitting.length) return [];
  const names = emitting.map(([material]) => label(material)).join(", ");
  const said = `material${emitting.length > 1 ? "s" : ""} ${names} emit${emitting.length > 1 ? "" : "s"} ` +
    `by time of day in Flight Simulator (${DAY_NIGHT_SWITCH}, ${EMISSIVE_MULTIPLIERS})`;
  const root = doc.getRoot();
  if (root.listExtensionsUsed().some((e) => e.extensionName === KHRMaterialsVariants.EXTENSION_NAME)) {
    return [`${said}: drawn as the file gives them, the file's own KHR_materials_variants left as they are`];
  }
  const variants = doc.createExtension(KHRMaterialsVariants);
  const day = variants.createVariant("day"), night = variants.createVariant("night");
  const copies = new Map<Material, { day: Material; night: Material }>();
  for (const [material, { day: byDay, night: byNight }] of emitting) {
    copies.set(material, {
      day: scaled(doc, material, byDay, "day"),
      night: scaled(doc, material, byNight, "night"),
    });
  }
  for (const mesh of root.listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const copy = copies.get(primitive.getMaterial()!);
      if (!copy) continue;
      const mappings = variants.createMappingList()
        .addMapping(variants.createMapping().setMaterial(copy.day).addVariant(day))
        .addMapping(variants.createMapping().setMaterial(copy.night).addVariant(night));
      primitive.setExtension(KHRMaterialsVariants.EXTENSION_NAME, mappings);
    }
  }
  return [
    `${said}: drawn as the file gives them, with KHR_materials_variants 'day' and 'night' ` +
    "giving the emission the sim draws by day and by night",
  ];
}

/** Whether `material` emits: a non-zero emissive factor (times its strength). */
function emits(material: Material): boolean {
  const strength = material.getExtension<EmissiveStrength>(KHRMaterialsEmissiveStrength.EXTENSION_NAME);
  return material.getEmissiveFactor().some((c) => c > 0) && (strength?.getEmissiveStrength() ?? 1) > 0;
}

/** `material` itself when `multiplier` is 1, else a copy whose emission is scaled by it. */
function scaled(doc: Document, material: Material, multiplier: number, when: string): Material {
  if (multiplier === 1) return material;
  const copy = material.clone().setName(`${material.getName() || "material"} (${when})`);
  const name = KHRMaterialsEmissiveStrength.EXTENSION_NAME;
  if (multiplier === 0) {
    return copy.setEmissiveFactor([0, 0, 0]).setEmissiveTexture(null).setExtension(name, null);
  }
  const strength = (copy.getExtension<EmissiveStrength>(name)?.getEmissiveStrength() ?? 1) * multiplier;
  return copy.setExtension(
    name,
    doc.createExtension(KHRMaterialsEmissiveStrength).createEmissiveStrength().setEmissiveStrength(strength),
  );
}
