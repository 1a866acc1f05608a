/**
 * Node transforms glTF-Transform's writer leaves out because they are within 1e-5 of the default
 * (`MathUtils.eq`'s tolerance), written back as the scene holds them.
 *
 * Why it matters: a joint turned 2e-6 rad, a part 8e-6 units off its parent in a model built in
 * kilometres, a chain of fourteen such joints — each was written as no transform at all, so the file
 * said something the scene did not, and the scene cache (which stores scenes as GLB) handed a warm
 * run a scene a cold run never saw. Only components exactly equal to the default are left out now.
 *
 * @module
 */
import type { Document, GLTF } from "@gltf-transform/core";

/** The defaults glTF leaves out, by node property. */
const DEFAULTS = {
  translation: [0, 0, 0],
  rotation: [0, 0, 0, 1],
  scale: [1, 1, 1],
} as const;

/**
 * Writes into `json.nodes` every translation, rotation and scale of `doc`'s nodes that differs from
 * the default yet is missing there (in place; `json` was written from `doc`, nodes in the same order).
 */
export function keepNearDefaultTransforms(doc: Document, json: GLTF.IGLTF): void {
  const nodes = doc.getRoot().listNodes();
  json.nodes?.forEach((nodeDef, i) => {
    const node = nodes[i];
    const values = {
      translation: node.getTranslation(),
      rotation: node.getRotation(),
      scale: node.getScale(),
    };
    for (const key of ["translation", "rotation", "scale"] as const) {
      if (nodeDef[key] === undefined && !exactly(values[key], DEFAULTS[key])) {
        (nodeDef as Record<string, unknown>)[key] = [...values[key]];
      }
    }
  });
}

function exactly(value: readonly number[], expected: readonly number[]): boolean {
  return value.every((component, i) => component === expected[i]);
}
