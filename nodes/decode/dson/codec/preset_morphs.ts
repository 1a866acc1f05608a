/**
 * A preset's morph values on the scene: each sets the weight of the morph targets whose modifier id
 * or name it names, on every mesh of the preset's figure that has one.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { clampToLimit, describeClamp } from "./joint_limits.ts";
import { percentDecode } from "./uri.ts";

/**
 * Sets morph weights by modifier id or name on the meshes `inScope` (all by default); returns how
 * many were set. A morph whose record keeps
 * a clamped range (`min`/`max`, decode.dson v22) takes the value within it, as Daz sets it; those
 * no formula drives are named in `clamped` (the formulas clamp the others as a whole).
 */
export function setMorphWeights(
  doc: Document,
  values: Map<string, number>,
  missing: string[],
  clamped: string[] = [],
  inScope: (mesh: Mesh) => boolean = () => true,
): number {
  let set = 0;
  const found = new Set<string>();
  for (const mesh of doc.getRoot().listMeshes()) {
    if (!inScope(mesh)) continue; // another figure's: a preset dials the figure it is applied to
    const dson = getPartgraphExtras(mesh).dson as
      | {
        morphs?: { id?: unknown; name?: unknown; min?: unknown; max?: unknown }[];
        formulas?: { morphs?: unknown };
      }
      | undefined;
    const morphs = Array.isArray(dson?.morphs) ? dson.morphs : [];
    const driven = new Set(Array.isArray(dson?.formulas?.morphs) ? dson.formulas.morphs.map(String) : []);
    const weights = [...mesh.getWeights()];
    let changed = false;
    morphs.forEach((morph, k) => {
      // Ids and names some files keep percent-encoded match the decoded URL's (as Diffeomorphic
      // unquotes them, `getRigKey`).
      // An id whose `%` is literal (`Shape%20B`, addressed as `#Shape%2520B`) matches as written.
      const [raw, id, name] = [
        String(morph.id),
        percentDecode(String(morph.id)),
        percentDecode(String(morph.name)),
      ];
      const key = values.has(raw) ? raw : values.has(id) ? id : name;
      if (!values.has(key) || k >= weights.length) return;
      const value = values.get(key)!;
      const limit = {
        ...(typeof morph.min === "number" && Number.isFinite(morph.min) ? { min: morph.min } : {}),
        ...(typeof morph.max === "number" && Number.isFinite(morph.max) ? { max: morph.max } : {}),
      };
      weights[k] = clampToLimit(value, limit) + 0; // + 0: no −0 weight
      if (weights[k] !== value && !driven.has(raw)) {
        clamped.push(`${mesh.getName()}/${raw} ${describeClamp("value", value, weights[k], limit)}`);
      }
      found.add(key);
      changed = true;
      set++;
    });
    if (changed) mesh.setWeights(weights);
  }
  for (const target of values.keys()) if (!found.has(target)) missing.push(target);
  return set;
}

/**
 * The first few names of a list, for a preset's warnings.
 *
 * @example
 * ```ts
 * fewNames(["a", "b"]); // "a, b"
 * ```
 */
export function fewNames(list: readonly string[]): string {
  return list.slice(0, 8).join(", ") + (list.length > 8 ? `, … (${list.length} in all)` : "");
}
