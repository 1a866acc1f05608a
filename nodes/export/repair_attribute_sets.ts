/**
 * Export repairs of a primitive's numbered attribute sets (`TEXCOORD_n`, `COLOR_n`, `JOINTS_n`,
 * `WEIGHTS_n`), which glTF numbers from 0 without gaps (MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY) and
 * pairs joints with weights (MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH). Exporters leave a lone
 * `TEXCOORD_1` when a mesh's first UV map was deleted; viewers read the sets by name, so the file draws,
 * but the validator refuses it. Called by `repair_properties.ts`; each function follows `repair.ts`.
 *
 * @module
 */
import type { Mesh, Primitive } from "@gltf-transform/core";
import { remapUvSets } from "./repair_uv_sets.ts";

const FAMILIES = ["TEXCOORD", "COLOR", "JOINTS", "WEIGHTS"];

/**
 * A joint set without its weight set (or the reverse) is left out: nothing says how much each joint
 * moves a vertex. Then each family is renumbered from 0 in its order, the textures sampling a
 * renumbered UV set following it (on the primitive's own copy of the material).
 */
export function attributeSetRepairs(mesh: Mesh, apply: boolean, messages: string[]): void {
  const unpaired = new Set<string>(), renumbered = new Set<string>();
  for (const primitive of mesh.listPrimitives()) {
    const lone = unpairedSets(primitive);
    lone.forEach((semantic) => unpaired.add(semantic));
    if (apply) { for (const semantic of lone) primitive.setAttribute(semantic, null); }
    for (const family of FAMILIES) {
      const sets = primitive.listSemantics().flatMap((semantic) => {
        const match = new RegExp(`^${family}_(\\d+)$`).exec(semantic);
        return match && !lone.includes(semantic) ? [Number(match[1])] : [];
      }).sort((a, b) => a - b);
      const renames = new Map(sets.map((set, i) => [set, i] as const).filter(([set, i]) => set !== i));
      if (!renames.size) continue;
      for (const [from, to] of renames) renumbered.add(`${family}_${from} → ${family}_${to}`);
      if (!apply) continue;
      const accessors = sets.map((set) => primitive.getAttribute(`${family}_${set}`));
      for (const set of sets) primitive.setAttribute(`${family}_${set}`, null);
      accessors.forEach((accessor, i) => primitive.setAttribute(`${family}_${i}`, accessor));
      if (family === "TEXCOORD") remapUvSets(primitive, renames);
    }
  }
  const name = mesh.getName();
  if (unpaired.size) {
    messages.push(
      `mesh '${name}': ${
        [...unpaired].join(", ")
      } left out: each JOINTS_n needs its WEIGHTS_n, and each WEIGHTS_n its JOINTS_n`,
    );
  }
  if (renumbered.size) {
    messages.push(
      `mesh '${name}': attribute sets renumbered from 0 without gaps, as glTF numbers them: ${
        [...renumbered].join(", ")
      } (textures sampling a renumbered UV set follow it)`,
    );
  }
}

/** The joint and weight sets of `primitive` without their partner. */
function unpairedSets(primitive: Primitive): string[] {
  return primitive.listSemantics().filter((semantic) => {
    const match = /^(JOINTS|WEIGHTS)_(\d+)$/.exec(semantic);
    return match && !primitive.getAttribute(`${match[1] === "JOINTS" ? "WEIGHTS" : "JOINTS"}_${match[2]}`);
  });
}
