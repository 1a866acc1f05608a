/**
 * Which meshes, materials and textures a decoded model uses, and which of them no loaded library
 * defined: what library search has to find, and what the provenance report lists.
 *
 * @module
 */
import type { FreelancerModel } from "../codec/model.ts";
import type { VMeshRef } from "../codec/vmesh.ts";
import { textureSlots } from "../codec/material.ts";
import { textureKey } from "../codec/texture_names.ts";

/** The ids a model uses. */
export interface ModelReferences {
  /** Mesh ids with the refs (LODs) that draw them; wireframe-only meshes have no refs. */
  readonly meshes: Map<number, VMeshRef[]>;
  /** Material ids of the groups the refs draw, in first-use order. */
  readonly materials: Set<number>;
  /** Lower-cased texture name → the name as the first material wrote it, in first-use order. */
  readonly textures: Map<string, string>;
}

/**
 * Lists what the model's parts use: LOD and wireframe meshes, the materials of the mesh groups each
 * ref draws, and the textures of those materials (as far as the model's libraries define them).
 *
 * @example
 * ```ts
 * const used = modelReferences(model);
 * const missing = [...used.materials].filter((id) => !model.materials.has(id));
 * ```
 */
export function modelReferences(model: FreelancerModel): ModelReferences {
  const meshes = new Map<number, VMeshRef[]>();
  const materials = new Set<number>();
  const textures = new Map<string, string>();
  for (const part of model.parts) {
    for (const ref of part.fragment.lods) {
      if (ref.meshId === 0) continue;
      let refs = meshes.get(ref.meshId);
      if (!refs) meshes.set(ref.meshId, refs = []);
      refs.push(ref);
      const groups = model.meshes.get(ref.meshId)?.groups ?? [];
      for (const id of refGroups(groups.map((g) => g.materialId), ref)) materials.add(id);
    }
    const wire = part.fragment.wire;
    if (wire && !meshes.has(wire.meshId)) meshes.set(wire.meshId, []);
  }
  for (const id of materials) {
    const def = model.materials.get(id);
    for (const slot of def ? textureSlots(def) : []) {
      if (!textures.has(textureKey(slot.name))) textures.set(textureKey(slot.name), slot.name);
    }
  }
  return { meshes, materials, textures };
}

/** The entries of a mesh's per-group list that one ref draws. */
export function refGroups<T>(perGroup: readonly T[], ref: VMeshRef): T[] {
  return perGroup.slice(ref.groupStart, ref.groupStart + ref.groupCount);
}
