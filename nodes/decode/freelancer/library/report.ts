/**
 * The provenance report `decode.cmp` keeps in the scene's `extras.partgraph.libraries` (and the
 * parts report and `inspect` show): for every material and texture the model uses, the file that
 * supplied it, what stayed missing, and where the library search looked.
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import { formatId } from "../codec/crc.ts";
import { sortedCopy } from "../codec/sorted_keys.ts";
import { modelReferences } from "./needs.ts";
import type { FreelancerModel } from "../codec/model.ts";

/**
 * Describes where the model's materials and textures came from (`library: null` when none defines
 * it), merged with the search's own account; meshes whose only definition does not decode are
 * listed under `damaged`, not `missing`; materials whose type the game's `[MaterialMap]` rewrote
 * under `material_map`.
 *
 * @example
 * ```ts
 * setPartgraphExtras(scene, { libraries: libraryReport(model, search.report) });
 * ```
 */
export function libraryReport(model: FreelancerModel, search: Record<string, JsonValue>): JsonValue {
  const used = modelReferences(model);
  // Every object with its keys in the written file's (sorted) order, so the export writes the report
  // as it is instead of sorted copies of it (`sorted_keys.ts`).
  const materials = [...used.materials].map((id) => ({
    id: formatId(id),
    library: model.sources.materials.get(id) ?? null,
    name: model.materials.get(id)?.name ?? null,
  }));
  const textures = [...used.textures].map(([key, name]) => ({
    library: model.sources.textures.get(key) ?? null,
    name,
  }));
  const damaged = [...used.meshes.keys()].flatMap((id) => {
    const damage = model.damagedMeshes.get(id);
    return damage
      ? [{ error: damage.error.message, id: formatId(id), library: damage.file ?? null, name: damage.name }]
      : [];
  });
  const rewritten = [...used.materials].flatMap((id) => {
    const def = model.materials.get(id);
    return def?.storedType === undefined
      ? []
      : [{ name: def.name, rule: def.mapRule ?? null, stored_type: def.storedType, type: def.type }];
  });
  return sortedCopy({
    ...search,
    materials,
    textures,
    // Only when some mesh is damaged, so the report of an intact model is what it was.
    ...(damaged.length ? { damaged: { meshes: damaged } } : {}),
    // Likewise only when the map rewrote a type the model draws.
    ...(rewritten.length ? { material_map: { rewritten, source: model.materialMap.source } } : {}),
    missing: {
      materials: materials.filter((m) => m.library === null).map((m) => m.id),
      meshes: [...used.meshes.keys()].filter((id) => !model.meshes.has(id) && !model.damagedMeshes.has(id))
        .map(formatId),
      textures: textures.filter((t) => t.library === null).map((t) => t.name),
    },
  });
}
