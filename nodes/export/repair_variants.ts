/**
 * Export repair of `KHR_materials_variants` mappings that give one variant two materials on one
 * primitive (KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT). The extension's own lookup steps through
 * the mappings and picks the first that lists the active variant, so the first listing decides; later
 * ones are left out, and a mapping left with no variant with them. Called by `repair_properties.ts`;
 * follows `repair.ts`.
 *
 * @module
 */
import type { Mesh } from "@gltf-transform/core";
import type { Mapping, MappingList, Variant } from "@gltf-transform/extensions";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";
import { attributeReader, type AttributesOf } from "./primitive_attributes.ts";

const VARIANTS = "KHR_materials_variants";

/** Repairs the variant mappings of `mesh`'s primitives; one message for the mesh. */
export function variantRepairs(
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  name: NameOf,
  attributes: AttributesOf = attributeReader(apply),
): void {
  const repeated = new Set<string>();
  for (const primitive of attributes.primitives(mesh)) {
    const list = primitive.getExtension<MappingList>(VARIANTS);
    if (!list) continue;
    const first = new Map<Variant, Mapping>();
    for (const mapping of list.listMappings()) {
      for (const variant of mapping.listVariants()) {
        if (!first.has(variant)) first.set(variant, mapping);
        if (first.get(variant) === mapping) continue;
        repeated.add(variant.getName() || "(unnamed)");
        if (apply) mapping.removeVariant(variant);
      }
      if (apply && !mapping.listVariants().length) list.removeMapping(mapping);
    }
  }
  if (repeated.size) {
    messages.push(
      `mesh '${name(mesh)}': variant(s) ${[...repeated].map((variant) => `'${variant}'`).join(", ")} ` +
        "mapped to two materials of one primitive; the first mapping is kept, as the extension's lookup picks it",
    );
  }
}
