/**
 * A Carnivores model's points in scene space (glTF axes, metres), with the checks a damaged point needs.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import type { WarningSink } from "../../../../runtime/node.ts";
import { POINT_BYTES } from "./model.ts";
import type { SceneOptions } from "./build_scene.ts";

/** Largest scene-space coordinate accepted; beyond it morph deltas could overflow float32. */
export const MAX_SCENE_COORDINATE = 1e30;

/** Half of 100 km: no Carnivores model reaches this far from its origin (the largest are tens of metres). */
const FAR_POINT_METRES = 5e4;

/**
 * Mapped and scaled point positions; a coordinate beyond {@link MAX_SCENE_COORDINATE} is an error, and
 * points past {@link FAR_POINT_METRES} are named in a warning: a damaged point loads in Blender and
 * three.js, which frame the whole model so the rest shows as a speck (fuzz survivors did, with no word).
 */
export function toScenePositions(
  positions: Float32Array,
  scale: number,
  options: SceneOptions,
  warn: WarningSink,
): Float64Array {
  const out = new Float64Array(positions.length);
  let far = 0;
  let first = -1;
  let lastFarPoint = -1;
  for (let i = 0; i < positions.length; i++) {
    const value = (i % 3 === 2 ? -scale : scale) * positions[i];
    const offset = options.pointsOffset + Math.floor(i / 3) * POINT_BYTES + (i % 3) * 4;
    if (!(Math.abs(value) <= MAX_SCENE_COORDINATE)) {
      throw new DecodeError({
        format: options.format,
        at: { offset },
        expected: `|coordinate × scale| ≤ ${MAX_SCENE_COORDINATE}`,
        found: String(positions[i]),
        file: options.file,
      });
    }
    if (Math.abs(value) > FAR_POINT_METRES && Math.floor(i / 3) !== lastFarPoint) {
      far++;
      lastFarPoint = Math.floor(i / 3);
      if (first < 0) first = i;
    }
    out[i] = value;
  }
  if (far) {
    const offset = options.pointsOffset + Math.floor(first / 3) * POINT_BYTES + (first % 3) * 4;
    warn(
      `${far} point(s) of '${options.name}' lie past ${
        FAR_POINT_METRES / 1000
      } km from its origin (the first, ` +
        `point ${Math.floor(first / 3)} at byte ${offset}, reads ${
          positions[first]
        }): a damaged coordinate; ` +
        "Blender and three.js frame the whole model, so the rest shows as a speck",
      { offset },
    );
  }
  return out;
}
